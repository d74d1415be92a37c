import { z } from 'zod';
import { MAX_TIMER_MS } from '../shared/timers.js';

/**
 * The longest time setting accepted, in seconds: Node's timers hold at most 2^31 - 1 ms (about 24.8
 * days) and fire after 1 ms when asked to wait longer, which would time out every call at once.
 */
export const MAX_TIMER_SECONDS = Math.floor(MAX_TIMER_MS / 1000);

const tooLong = `must be at most ${MAX_TIMER_SECONDS} seconds (about 24.8 days), Node's timer limit: a longer wait would fire at once`;

/** A time in seconds, fractions allowed, zero allowed (`cooldown_time`, `retry_after`, `ttl`). */
export const seconds = z.number().nonnegative().max(MAX_TIMER_SECONDS, { error: tooLong });

/** A time in seconds that must be above zero (`timeout`, `stream_timeout`, ...). */
export const positiveSeconds = z.number().positive().max(MAX_TIMER_SECONDS, { error: tooLong });
