import type { ServerResponse } from 'node:http';
import type { MockBehavior } from './mock-behavior.js';

/** One parsed request the mock received. */
export interface MockRequest {
  method: string;
  path: string;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** What a format handler gets for one request. */
export interface MockExchange {
  request: MockRequest;
  behavior: MockBehavior;
  res: ServerResponse;
  /** Sleeps unless the client went away; resolves false when it did. */
  wait(ms: number): Promise<boolean>;
  /** Waits until `promise` settles unless the client goes away first; resolves false when it did. */
  until(promise: PromiseLike<unknown>): Promise<boolean>;
}

/** An error answer in a provider's own words. */
export interface MockRefusal {
  status: number;
  error: { message: string; type?: string; code?: string };
}

/** How a format takes an assistant prefill (a request that ends with the start of the answer). */
export interface MockPrefill {
  /** The text of the trailing assistant turn a request ends with; undefined when it ends otherwise. */
  of(request: MockRequest): string | undefined;
  /** The provider's refusal, for a behavior with `prefill: 'refuse'`. */
  refusal: MockRefusal;
  /** A prefix the provider refuses whatever the model (Anthropic: one that ends with whitespace). */
  problem?(prefix: string): MockRefusal | undefined;
}

/** One provider wire format the mock speaks. */
export interface MockFormat {
  readonly name: string;
  /** Whether this format serves the path (query included). */
  handles(method: string, path: string): boolean;
  /** Writes the format's error answer for `status`. */
  writeError(exchange: MockExchange, status: number): void;
  /** Writes a successful answer (plain or streamed, as the request asks). */
  respond(exchange: MockExchange): Promise<void>;
  /** Assistant prefill, when the format has it: the answer continues the prefix. */
  prefill?: MockPrefill;
}
