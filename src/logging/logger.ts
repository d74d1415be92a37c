import { consoleLogger } from './console-logger.js';
import { redactingLogger } from './redacting-logger.js';

/** Severity of a log line, lowest first. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** Structured context of a log line (model group, deployment id, status, ...). */
export type LogFields = Readonly<Record<string, unknown>>;

/**
 * Where the router writes what it does. Any object with these four methods works (pino, winston and
 * console-like loggers fit with a line of glue). Fields reach it redacted: no credential, no secret.
 *
 * @example
 * const logger: Logger = {
 *   debug: (msg, fields) => pino.debug(fields, msg),
 *   info: (msg, fields) => pino.info(fields, msg),
 *   warn: (msg, fields) => pino.warn(fields, msg),
 *   error: (msg, fields) => pino.error(fields, msg),
 * };
 * new Router(modelList, settings, { logger });
 */
export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
}

const nothing = (): void => {};

/** Writes nothing: the default when no logger is injected and neither `set_verbose` nor `debug_level: DEBUG` is set. */
export const silentLogger: Logger = Object.freeze({
  debug: nothing,
  info: nothing,
  warn: nothing,
  error: nothing,
});

/** The settings that decide console logging. */
export interface LogSettings {
  /** Log to stderr at `debug_level`. @default false */
  set_verbose?: boolean | undefined;
  /** `DEBUG` logs debug lines to stderr (even without `set_verbose`). @default 'INFO' */
  debug_level?: 'DEBUG' | 'INFO' | undefined;
}

export interface LoggerOptions {
  /** The secrets to remove from messages and fields besides credential-named fields (fetched tokens). */
  secrets?: () => Iterable<string>;
}

/**
 * The router's logger: an injected one always wins; without one, `debug_level: 'DEBUG'` logs debug and
 * above to stderr, `set_verbose: true` info and above; otherwise nothing is written. Whatever the sink,
 * messages and fields are redacted first (credential fields masked as `****abcd`, known secrets and
 * credential-shaped text removed), and a sink that throws never fails the caller.
 */
export function loggerFor(settings: LogSettings, injected?: Logger, options: LoggerOptions = {}): Logger {
  if (injected) return redactingLogger(injected, options.secrets);
  if (settings.debug_level === 'DEBUG') return redactingLogger(consoleLogger('debug'), options.secrets);
  if (settings.set_verbose) return redactingLogger(consoleLogger('info'), options.secrets);
  return silentLogger;
}
