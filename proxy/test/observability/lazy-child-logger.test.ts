import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { lazyChildLogger } from '../../src/observability/lazy-child-logger.js';

function parent(level: string) {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level }, { write: (line: string) => lines.push(JSON.parse(line)) });
  let children = 0;
  const child = logger.child.bind(logger);
  logger.child = ((...args: Parameters<typeof child>) => {
    children++;
    return child(...args);
  }) as typeof logger.child;
  return { logger: logger as unknown as FastifyBaseLogger, lines, children: () => children };
}

describe('lazyChildLogger', () => {
  it('makes no pino child for a request that logs nothing at an enabled level', () => {
    const { logger, lines, children } = parent('warn');
    const log = lazyChildLogger(logger, { call_id: 'c1' }, {});
    log.info('incoming request');
    log.debug('details');
    expect(children()).toBe(0);
    expect(lines).toEqual([]);
  });

  it('writes an enabled line with the request bindings', () => {
    const { logger, lines, children } = parent('warn');
    const log = lazyChildLogger(logger, { call_id: 'c1' }, {});
    log.warn({ status: 500 }, 'upstream failed');
    log.error('again');
    expect(children()).toBe(1);
    expect(lines.map((l) => [l.call_id, l.msg, l.status])).toEqual([
      ['c1', 'upstream failed', 500],
      ['c1', 'again', undefined],
    ]);
  });

  it("reports the parent's level until a child exists", () => {
    const { logger } = parent('info');
    expect(lazyChildLogger(logger, { call_id: 'c1' }, {}).level).toBe('info');
  });

  it('gives a route with its own level a real child at once', () => {
    const { logger, children } = parent('warn');
    const log = lazyChildLogger(logger, { call_id: 'c1' }, { level: 'debug' });
    expect(children()).toBe(1);
    expect(log.level).toBe('debug');
  });
});
