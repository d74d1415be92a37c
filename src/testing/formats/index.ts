import type { MockFormat } from '../../types/mock-format.js';
import { anthropicFormat } from './anthropic.js';
import { bedrockFormat } from './bedrock.js';
import { geminiFormat } from './gemini.js';
import { openaiFormat } from './openai.js';

/** Every wire format the mock provider speaks; the first that `handles` a path serves it. */
export const FORMATS: readonly MockFormat[] = [openaiFormat, anthropicFormat, geminiFormat, bedrockFormat];
