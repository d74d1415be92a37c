import type { MockFormat } from './format.js';
import { openaiFormat } from './openai.js';

/** Every wire format the mock provider speaks; the first that `handles` a path serves it. */
export const FORMATS: readonly MockFormat[] = [openaiFormat];
