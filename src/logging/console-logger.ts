import type { LogFields, Logger, LogLevel } from './logger.js';

const RANK: Readonly<Record<LogLevel, number>> = { debug: 0, info: 1, warn: 2, error: 3 };

// fields are already redacted and cycle-free here; bigint is the one value JSON cannot take
const json = (fields: LogFields): string =>
  JSON.stringify(fields, (_key, value: unknown) => (typeof value === 'bigint' ? value.toString() : value));

/**
 * A logger writing one line per entry (`<ISO time> svc-router <LEVEL> <message> <fields as JSON>`) for
 * entries at `level` and above.
 *
 * @param write where lines go. @default process.stderr
 */
export function consoleLogger(
  level: LogLevel,
  write: (line: string) => void = (line) => process.stderr.write(line),
): Logger {
  const at =
    (entryLevel: LogLevel) =>
    (message: string, fields?: LogFields): void => {
      if (RANK[entryLevel] < RANK[level]) return;
      const context = fields && Object.keys(fields).length > 0 ? ` ${json(fields)}` : '';
      write(`${new Date().toISOString()} svc-router ${entryLevel.toUpperCase()} ${message}${context}\n`);
    };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
