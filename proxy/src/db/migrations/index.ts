import type { Migration } from '../migrate.js';
import { initial } from './001-initial.js';
import { partialSpendIndexes } from './002-partial-spend-indexes.js';
import { spendTraceId } from './003-spend-trace-id.js';
import { spendPriced } from './004-spend-priced.js';
import { responses } from './005-responses.js';
import { budgets } from './006-budgets.js';
import { keyLifecycleAudit } from './007-key-lifecycle-audit.js';
import { spendTags } from './008-spend-tags.js';

/** Every migration, oldest first. A new one is a new file `NNN-name.ts` appended here; never edit one applied. */
export const migrations: readonly Migration[] = [
  initial,
  partialSpendIndexes,
  spendTraceId,
  spendPriced,
  responses,
  budgets,
  keyLifecycleAudit,
  spendTags,
];
