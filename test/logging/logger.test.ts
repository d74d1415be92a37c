import { afterEach, describe, expect, it, vi } from 'vitest';
import { RateLimitError } from '../../src/errors/classes.js';
import {
  consoleLogger,
  type LogFields,
  type Logger,
  loggerFor,
  silentLogger,
} from '../../src/logging/index.js';

type Entry = [level: string, message: string, fields?: LogFields];

/** A logger that keeps what it is given. */
function recordingLogger(): Logger & { entries: Entry[] } {
  const entries: Entry[] = [];
  const at = (level: string) => (message: string, fields?: LogFields) => {
    entries.push(fields === undefined ? [level, message] : [level, message, fields]);
  };
  return { entries, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('loggerFor', () => {
  it('is silent by default', () => {
    expect(loggerFor({})).toBe(silentLogger);
    expect(loggerFor({ set_verbose: false, debug_level: 'INFO' })).toBe(silentLogger);
  });

  it('an injected logger always wins, whatever the settings', () => {
    const injected = recordingLogger();
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    loggerFor({ set_verbose: true, debug_level: 'DEBUG' }, injected).debug('picked', { model_id: 'a' });
    expect(injected.entries).toEqual([['debug', 'picked', { model_id: 'a' }]]);
    expect(write).not.toHaveBeenCalled();
  });

  it('set_verbose: true logs info and above to stderr, not debug', () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const logger = loggerFor({ set_verbose: true });
    logger.debug('not shown');
    logger.info('cooldown', { model_id: 'dep-1', cooldown_time: 5 });
    expect(write).toHaveBeenCalledTimes(1);
    expect(String(write.mock.calls[0]?.[0])).toMatch(
      /^\S+ svc-router INFO cooldown \{"model_id":"dep-1","cooldown_time":5\}\n$/,
    );
  });

  it('debug_level: DEBUG logs debug lines to stderr', () => {
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    loggerFor({ debug_level: 'DEBUG' }).debug('selected');
    expect(String(write.mock.calls[0]?.[0])).toContain('svc-router DEBUG selected');
  });

  it('redacts fields before any sink sees them: credential fields, known secrets, credential-shaped text', () => {
    const injected = recordingLogger();
    const logger = loggerFor({}, injected, { secrets: () => ['ya29.fetched-google-token'] });
    logger.warn('attempt failed for key sk-live-1234567890abcdef', {
      svc_params: {
        model: 'openai/gpt-4o',
        api_key: 'sk-live-1234567890abcdef',
        client_secret: 'Zx8Q~abcdefgh',
      },
      upstream: 'echoed ya29.fetched-google-token and Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.x.y',
      error: new RateLimitError('echoed ya29.fetched-google-token'),
      attempts: [{ azure_ad_token: 'eyJ0eXAi.ad.token' }],
    });
    expect(injected.entries).toEqual([
      [
        'warn',
        'attempt failed for key ****',
        {
          svc_params: { model: 'openai/gpt-4o', api_key: '****cdef', client_secret: '****efgh' },
          upstream: 'echoed **** and Authorization: Bearer ****',
          error: { name: 'RateLimitError', message: 'echoed ****', status: 429 },
          attempts: [{ azure_ad_token: '****oken' }],
        },
      ],
    ]);
  });

  it('a logger that throws never fails its caller, and cyclic fields are cut', () => {
    const broken: Logger = {
      debug: () => {
        throw new Error('sink down');
      },
      info: () => {},
      warn: () => {},
      error: () => {},
    };
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => loggerFor({}, broken).debug('x', { cyclic })).not.toThrow();
    const injected = recordingLogger();
    loggerFor({}, injected).info('x', { cyclic });
    expect(injected.entries[0]?.[2]).toEqual({ cyclic: { self: '[Circular]' } });
  });
});

describe('consoleLogger', () => {
  it('writes entries at its level and above, one line each', () => {
    const lines: string[] = [];
    const logger = consoleLogger('warn', (line) => lines.push(line));
    logger.info('skipped');
    logger.warn('slow', { latency_ms: 1200 });
    logger.error('down');
    expect(lines.map((l) => l.replace(/^\S+ /, ''))).toEqual([
      'svc-router WARN slow {"latency_ms":1200}\n',
      'svc-router ERROR down\n',
    ]);
  });
});
