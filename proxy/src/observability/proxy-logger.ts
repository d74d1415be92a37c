import type { Logger } from '@svc/router';
import { type DestinationStream, type LevelWithSilent, type Logger as PinoLogger, pino } from 'pino';

/**
 * Where secrets may sit in a log line, by path: request headers, and any field (at the top or one level
 * down) named like a credential. Their values are written as `[Redacted]`.
 */
export const REDACTED_PATHS: readonly string[] = [
  'req.headers.authorization',
  'req.headers["x-api-key"]',
  'req.headers["api-key"]',
  'req.headers["x-goog-api-key"]',
  'req.headers.cookie',
  'headers.authorization',
  'headers["x-api-key"]',
  ...[
    'authorization',
    'api_key',
    'apiKey',
    'master_key',
    'key',
    'token',
    'password',
    'redis_password',
    'database_url',
    'aws_secret_access_key',
    'aws_session_token',
  ].flatMap((name) => [name, `*.${name}`]),
];

// query parameters named like a credential (`/spend/logs?key=...` takes a key or its hash)
const SECRET_PARAM = /key|token|secret|password|auth/i;

/** A URL with the values of credential-named query parameters replaced by `[Redacted]`. */
export function redactedUrl(url: string): string {
  const at = url.indexOf('?');
  if (at === -1) return url;
  const params = new URLSearchParams(url.slice(at + 1));
  let changed = false;
  for (const name of new Set(params.keys())) {
    if (!SECRET_PARAM.test(name)) continue;
    params.set(name, '[Redacted]');
    changed = true;
  }
  return changed ? `${url.slice(0, at)}?${params.toString()}` : url;
}

interface RequestLike {
  method: string;
  url: string;
  ip?: string;
}

export interface ProxyLoggerOptions {
  /** `general_settings.log_level`. */
  level: LevelWithSilent;
  /** Where JSON lines go. @default stdout, written asynchronously */
  stream?: DestinationStream | undefined;
}

/** The most of stdout's log lines held while the reader of stdout is behind. */
const LOG_BUFFER_BYTES = 16 * 1024 * 1024;
/** Lines are written once this much is waiting, or at the latest every `LOG_FLUSH_MS`. */
const LOG_BATCH_BYTES = 4096;
const LOG_FLUSH_MS = 100;

/**
 * The proxy's pino logger: JSON lines, secrets redacted by path, request URLs without credential
 * query values. Fastify logs each request through it (with its `call_id`).
 */
export function createProxyLogger(options: ProxyLoggerOptions): PinoLogger {
  return pino(
    {
      level: options.level,
      redact: { paths: [...REDACTED_PATHS], censor: '[Redacted]' },
      serializers: {
        // a fastify request as method, URL (credential query values redacted) and address; anything
        // else logged as `req` is left to the redaction paths
        req: (request: RequestLike | Record<string, unknown>) =>
          typeof request.url === 'string' && typeof request.method === 'string'
            ? { method: request.method, url: redactedUrl(request.url), remoteAddress: request.ip }
            : request,
      },
    },
    // stdout written asynchronously and in batches: lines wait until LOG_BATCH_BYTES of them (about 15
    // access lines) or LOG_FLUSH_MS have gathered, and leave in one write. A write per line (each a
    // system call on the thread pool and a wake-up of the event loop) cost about 19 µs a request at
    // 10 connections. Pino flushes what is left when the process exits. A reader of stdout that
    // stalls holds at most LOG_BUFFER_BYTES: lines past it are dropped rather than growing the
    // proxy's memory.
    options.stream ??
      lineBytes(
        pino.destination({
          dest: 1,
          sync: false,
          minLength: LOG_BATCH_BYTES,
          periodicFlush: LOG_FLUSH_MS,
          maxLength: LOG_BUFFER_BYTES,
          contentMode: 'buffer',
        }),
      ),
  );
}

type Destination = ReturnType<typeof pino.destination>;

/**
 * The lines of a destination in buffer mode, as bytes. In its text mode the destination appends each
 * line to the one string its batch waits in, and measures that string's bytes at every line, which
 * makes V8 copy the whole batch into one piece each time: a line cost half a batch of copying (about
 * 2 KB of garbage, a gateway call's largest single allocation, and 2 to 4 µs). In buffer mode it keeps
 * each line's bytes in a list and joins them once per write. What it does at exit, on a full buffer
 * or a closed stdout is the same in both modes.
 */
function lineBytes(destination: Destination): DestinationStream {
  // typed for strings only, though buffer mode takes bytes (and only bytes)
  const bytesOut = destination as unknown as { write(bytes: Buffer): boolean };
  return {
    // looked up at each call: on a closed stdout (EPIPE) pino replaces them with no-ops
    write: (line: string) => bytesOut.write(Buffer.from(line, 'utf8')),
    flush: (done?: (error?: Error) => void) => destination.flush(done),
    // pino writes a `fatal` line at once through it
    flushSync: () => destination.flushSync(),
  } as DestinationStream;
}

/**
 * The logger of the access line (`AccessLog`): the proxy's, its serializers included (request URLs
 * without credential query values), without the redaction paths, for lines whose fields are fixed
 * and hold no secret.
 */
export function accessLogger(log: PinoLogger): PinoLogger {
  return log.child({}, { redact: { paths: [] } });
}

/** The router's logger over pino (the router redacts its own fields before they get here). */
export function routerLogger(log: PinoLogger): Logger {
  return {
    debug: (message, fields) => log.debug(fields ?? {}, message),
    info: (message, fields) => log.info(fields ?? {}, message),
    warn: (message, fields) => log.warn(fields ?? {}, message),
    error: (message, fields) => log.error(fields ?? {}, message),
  };
}
