import { readFileSync } from 'node:fs';
import { dirname, extname, resolve } from 'node:path';
import { parseDocument } from 'yaml';
import { ConfigError } from '../errors/config-error.js';

/** A config as read: its object, the file it came from (if any) and the directory paths resolve against. */
export interface ConfigSource {
  raw: unknown;
  file: string | undefined;
  dir: string;
}

/**
 * Reads a config file (YAML, or JSON, which YAML reads too) or takes an object as given. A file that
 * cannot be read, or does not parse, is a ConfigError naming the file, and for a syntax error the line
 * and column.
 */
export function readConfigSource(source: string | object): ConfigSource {
  if (typeof source !== 'string') return { raw: source, file: undefined, dir: process.cwd() };
  const file = resolve(source);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason =
      code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'is a directory' : `cannot be read (${code})`;
    throw new ConfigError(`config file ${file}`, [reason]);
  }
  const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (doc.errors.length > 0) {
    throw new ConfigError(
      `config file ${file}`,
      doc.errors.map((e) => {
        const at = e.linePos?.[0];
        const kind = extname(file) === '.json' ? 'JSON' : 'YAML';
        return `${kind} syntax${at ? ` at line ${at.line}, column ${at.col}` : ''}: ${e.message.split('\n')[0]}`;
      }),
    );
  }
  return { raw: doc.toJS() ?? {}, file, dir: dirname(file) };
}
