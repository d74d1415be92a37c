import { randomFillSync } from 'node:crypto';

const HEX = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

// random bytes drawn in blocks: one call into the system's generator per 256 ids
const IDS_PER_DRAW = 256;
const RANDOM_BYTES = 10;
const pool = Buffer.alloc(IDS_PER_DRAW * RANDOM_BYTES);
let drawn = IDS_PER_DRAW;

/**
 * A new call id (`x-svc-call-id`, the spend row's `call_id`): a UUID of version 7 (RFC 9562), the
 * Unix time in milliseconds in its first 48 bits and 74 random bits after it. An id made in a later
 * millisecond sorts later, so each spend row's primary-key entry lands at the right edge of the index,
 * in pages already in memory, where a random (version 4) id lands on any page of an index that
 * outgrows the database's buffers: a million rows in, a row cost the embedded database (32 MB of
 * buffers) 40 µs to write with random ids against 28, and 2.5 million rows in with 128 MB of buffers,
 * 33 against 22 (bench/spend.ts, `BENCH_SPEND_PREFILL`).
 */
export function newCallId(): string {
  if (drawn === IDS_PER_DRAW) {
    randomFillSync(pool);
    drawn = 0;
  }
  const r = drawn++ * RANDOM_BYTES;
  const ms = Date.now();
  // 48 bits of milliseconds: the top 16 and the low 32 (bit operators work on 32 bits)
  const high = Math.floor(ms / 0x1_0000_0000);
  const low = ms >>> 0;
  return (
    HEX[(high >>> 8) & 0xff]! +
    HEX[high & 0xff]! +
    HEX[low >>> 24]! +
    HEX[(low >>> 16) & 0xff]! +
    '-' +
    HEX[(low >>> 8) & 0xff]! +
    HEX[low & 0xff]! +
    '-' +
    HEX[0x70 | (pool[r]! & 0x0f)]! + // version 7
    HEX[pool[r + 1]!]! +
    '-' +
    HEX[0x80 | (pool[r + 2]! & 0x3f)]! + // variant 10
    HEX[pool[r + 3]!]! +
    '-' +
    HEX[pool[r + 4]!]! +
    HEX[pool[r + 5]!]! +
    HEX[pool[r + 6]!]! +
    HEX[pool[r + 7]!]! +
    HEX[pool[r + 8]!]! +
    HEX[pool[r + 9]!]!
  );
}
