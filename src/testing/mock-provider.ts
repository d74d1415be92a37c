import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ProviderAdapter } from '../providers/shared/provider-adapter.js';
import type { MockExchange, MockRequest } from '../types/mock-format.js';
import { FORMATS } from './formats/index.js';
import { BehaviorTable, extraDelayMs, type MockBehavior, shouldFail } from './mock-behavior.js';
import { withPrefill } from './mock-prefill.js';
import { seededRandom } from './seeded-random.js';

/** Options of `startMockProvider`. */
export interface MockProviderOptions {
  /** @default 0 (any free port) */
  port?: number;
  /** @default '127.0.0.1' */
  host?: string;
  /** Behaviors to start with, by path prefix. */
  behaviors?: Record<string, MockBehavior>;
  /** Keep every request in `requests` (turn off for load tests). @default true */
  record?: boolean;
  /** Seed of the random source behind `failRate`. @default 1 */
  seed?: number;
  /**
   * Provider adapters whose `mockFormat` the mock speaks as well, tried before the built-in formats:
   * the same list as `RouterDependencies.providers`, so a custom provider is tested with no network.
   * Adapters without a `mockFormat` are skipped.
   */
  providers?: readonly ProviderAdapter[];
}

/** A running mock provider (CONTRACT 3, 5.8). */
export interface MockProvider {
  /** `http://host:port`, to use as (the start of) a deployment's `api_base`. */
  readonly url: string;
  /** Every request received, oldest first: `{ method, path, headers, body }`. */
  readonly requests: MockRequest[];
  /** The most requests that were in flight at once. */
  readonly maxInFlight: number;
  /** Requests in flight now. */
  readonly inFlight: number;
  /** Sets what requests whose path starts with `pathPrefix` get (the longest prefix wins). */
  setBehavior(pathPrefix: string, behavior: MockBehavior): void;
  /** How many requests had a path starting with `pathPrefix`. */
  hits(pathPrefix: string): number;
  /** Forgets recorded requests, counts and behaviors. */
  reset(): void;
  close(): Promise<void>;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  const type = req.headers['content-type'] ?? '';
  if (type.startsWith('multipart/form-data')) return multipartFields(Buffer.concat(parts), type);
  const text = Buffer.concat(parts).toString('utf8');
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A multipart body's fields; each file as `{ filename, type, size }` (its bytes are not kept). */
async function multipartFields(bytes: Buffer, contentType: string): Promise<Record<string, unknown>> {
  const form = await new Response(bytes, { headers: { 'content-type': contentType } }).formData();
  const fields: Record<string, unknown> = {};
  for (const [name, value] of form.entries()) {
    fields[name] =
      typeof value === 'string' ? value : { filename: value.name, type: value.type, size: value.size };
  }
  return fields;
}

/**
 * Starts a local HTTP server that speaks providers' wire formats, for tests and demos with no keys and
 * no network. Point a deployment's `api_base` at `url` (plus any path prefix, to tell deployments
 * apart) and set behaviors per prefix.
 *
 * @example
 * const mock = await startMockProvider();
 * mock.setBehavior('/busy', { status: 429, headers: { 'retry-after': '1' } });
 * const router = new Router([
 *   { model_name: 'm', svc_params: { model: 'openai/gpt-4o', api_base: `${mock.url}/busy/v1`, api_key: 'k' } },
 * ]);
 */
export async function startMockProvider(options: MockProviderOptions = {}): Promise<MockProvider> {
  const behaviors = new BehaviorTable();
  for (const [prefix, behavior] of Object.entries(options.behaviors ?? {})) behaviors.set(prefix, behavior);
  const random = seededRandom(options.seed ?? 1);
  const formats = [
    ...(options.providers ?? []).flatMap((a) => (a.mockFormat ? [a.mockFormat] : [])),
    ...FORMATS,
  ];
  const record = options.record ?? true;
  const requests: MockRequest[] = [];
  // counts per exact path: bounded memory under load, prefix sums on demand
  const pathCounts = new Map<string, number>();
  let inFlight = 0;
  let maxInFlight = 0;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const path = req.url ?? '/';
    const method = req.method ?? 'GET';
    const request: MockRequest = { method, path, headers: req.headers, body: await readBody(req) };
    if (record) requests.push(request);
    pathCounts.set(path, (pathCounts.get(path) ?? 0) + 1);
    const format = formats.find((f) => f.handles(method, path));
    if (!format) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `mock provider: no format serves ${method} ${path}` } }));
      return;
    }
    const slot = behaviors.match(path);
    const behavior = slot?.behavior ?? {};
    let closed = false;
    res.once('close', () => {
      closed = true;
    });
    const exchange: MockExchange = {
      request,
      behavior,
      res,
      wait: (ms) => new Promise((resolve) => setTimeout(() => resolve(!closed), ms)),
      until: (promise) =>
        new Promise((resolve) => {
          if (closed) return resolve(false);
          res.once('close', () => resolve(false));
          const settled = () => resolve(!closed);
          Promise.resolve(promise).then(settled, settled);
        }),
    };
    const delayMs = (behavior.delayMs ?? 0) + extraDelayMs(behavior, random);
    if (delayMs > 0 && !(await exchange.wait(delayMs))) return;
    if (behavior.raw) {
      const { status = 200, headers = {}, body } = behavior.raw;
      res.writeHead(status, headers);
      for (const part of Array.isArray(body) ? body : [body]) res.write(part);
      res.end();
      return;
    }
    if (shouldFail(slot, random)) {
      if (behavior.fault === 'reset') return void req.socket.destroy();
      if (behavior.fault === 'hang') return;
      format.writeError(exchange, behavior.status ?? 500);
      return;
    }
    const answering = withPrefill(format, exchange);
    if (answering) await format.respond(answering);
  };

  const server = createServer((req, res) => {
    inFlight += 1;
    maxInFlight = Math.max(maxInFlight, inFlight);
    res.once('close', () => {
      inFlight -= 1;
    });
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `mock provider failed: ${String(err)}` } }));
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) =>
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', resolve),
  );
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;

  return {
    url: `http://${host}:${port}`,
    requests,
    get maxInFlight() {
      return maxInFlight;
    },
    get inFlight() {
      return inFlight;
    },
    setBehavior: (prefix, behavior) => behaviors.set(prefix, behavior),
    hits(prefix) {
      let total = 0;
      for (const [path, count] of pathCounts) if (path.startsWith(prefix)) total += count;
      return total;
    },
    reset() {
      requests.length = 0;
      pathCounts.clear();
      behaviors.clear();
      maxInFlight = inFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
