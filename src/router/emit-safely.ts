import type { EventEmitter } from 'eventemitter3';
import type { RouterEvents } from './router-events.js';

/**
 * Emits a router event, but only when someone listens: `event` is built only then, so a router nobody
 * listens to pays nothing per call. A listener that throws never reaches the call; `onError` hears of
 * it (unset: it is dropped).
 */
export function emitSafely<E extends keyof RouterEvents>(
  emitter: EventEmitter<RouterEvents>,
  name: E,
  event: () => Parameters<RouterEvents[E]>[0],
  onError?: (error: unknown) => void,
): void {
  if (emitter.listenerCount(name) === 0) return;
  try {
    (emitter.emit as (n: string, e: unknown) => boolean)(name, event());
  } catch (error) {
    onError?.(error);
  }
}
