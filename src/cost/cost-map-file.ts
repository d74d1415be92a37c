import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseDocument } from 'yaml';
import { z } from 'zod';
import { ConfigError } from '../errors/config-error.js';
import { closestMatch, didYouMean } from '../shared/did-you-mean.js';
import { isCatalogProvider, type ModelRef, refOf } from './catalog-ids.js';

const price = z.number().nonnegative().optional();

/**
 * One `model_cost_map` entry: LiteLLM's field names. Other LiteLLM fields (`litellm_provider`, `mode`,
 * `max_output_tokens`, ...) are accepted and not read, so LiteLLM's own entries can be copied as they
 * are; a near miss of a read field is refused with its correct name.
 */
const entrySchema = z.looseObject({
  input_cost_per_token: price,
  output_cost_per_token: price,
  cache_read_input_token_cost: price,
  cache_creation_input_token_cost: price,
  max_input_tokens: z.number().int().positive().optional(),
  supports_reasoning: z.boolean().optional(),
  supports_assistant_prefill: z.boolean().optional(),
});

/** What a `model_cost_map` entry says of a model (every field optional: each overrides the catalog's alone). */
export type CostMapEntry = z.output<typeof entrySchema>;

const READ_FIELDS = Object.keys(entrySchema.shape);

/** A `model_cost_map` file, read and checked: its entries by model id. */
export interface UserCostMap {
  /** The file's absolute path. */
  readonly file: string;
  /** The entry for a model: by `<provider>/<model>`, else by the model id alone. */
  entryFor(ref: ModelRef): CostMapEntry | undefined;
}

/**
 * Reads the router setting `model_cost_map` (a JSON or YAML file of LiteLLM-style entries keyed by
 * model id, with or without its provider prefix). A relative path is read from `dir` (a config file's
 * folder; the working directory for a Router built in code).
 *
 * @throws ConfigError naming the file, and each bad entry by its key and field.
 */
export function readCostMapFile(path: string, dir: string = process.cwd()): UserCostMap {
  const file = resolve(dir, path);
  // problems name the setting and the file: `model_cost_map: /etc/svc/prices.yaml: entry ...`
  const where = `model_cost_map: ${file}`;
  const raw = parseFile(file, where);
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new ConfigError(SETTINGS, [`${where}: expected a mapping of model id to its prices and facts`]);
  const entries = new Map<string, CostMapEntry>();
  const problems: string[] = [];
  for (const [key, value] of Object.entries(raw)) {
    if (key === 'sample_spec') continue; // LiteLLM's file documents its fields under this key
    const entry = checkedEntry(`${where}: entry \`${key}\``, value, problems);
    if (!entry) continue;
    entries.set(key.toLowerCase(), entry);
    const ref = refOf(key, isCatalogProvider);
    if (ref.provider) entries.set(`${ref.provider}/${ref.model}`.toLowerCase(), entry);
  }
  if (problems.length > 0) throw new ConfigError(SETTINGS, problems);
  return {
    file,
    entryFor: (ref) =>
      entries.get(`${ref.provider}/${ref.model}`.toLowerCase()) ?? entries.get(ref.model.toLowerCase()),
  };
}

const SETTINGS = 'router settings';

function parseFile(file: string, where: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new ConfigError(SETTINGS, [
      `${where}: ${code === 'ENOENT' ? 'no such file' : `cannot be read (${code})`}`,
    ]);
  }
  const doc = parseDocument(text, { uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw new ConfigError(
      SETTINGS,
      doc.errors.map((e) => {
        const at = e.linePos?.[0];
        return `${where}: syntax${at ? ` at line ${at.line}, column ${at.col}` : ''}: ${e.message.split('\n')[0]}`;
      }),
    );
  }
  return doc.toJS() ?? {};
}

function checkedEntry(where: string, value: unknown, problems: string[]): CostMapEntry | undefined {
  const parsed = entrySchema.safeParse(value);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path.length > 0 ? `.${issue.path.join('.')}` : '';
      problems.push(`${where}${field}: ${issue.message}`);
    }
    return undefined;
  }
  const before = problems.length;
  for (const field of Object.keys(parsed.data)) {
    const near = READ_FIELDS.includes(field) ? undefined : closestMatch(field, READ_FIELDS);
    if (near) problems.push(`${where}: unknown field \`${field}\`${didYouMean(field, [near])}`);
  }
  return problems.length === before ? parsed.data : undefined;
}
