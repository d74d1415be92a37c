import { describe, expect, it } from 'vitest';
import { MissingPeerError } from '../../src/index.js';
import type { Aws4 } from '../../src/peers/aws4.js';
import { OptionalPeer } from '../../src/peers/optional-peer.js';

// A package no registry has: "missing" is real, not a mocked module.
const ABSENT = '@svc-test/not-installed';
const absent = () => new OptionalPeer(ABSENT, 'for the test');

describe('OptionalPeer: a package that is not installed', () => {
  it('rejects load with a MissingPeerError naming the package, who needs it, what for, and the install command', async () => {
    const error = await absent()
      .load('vertex_ai/ deployment "gemini"')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MissingPeerError);
    expect((error as MissingPeerError).message).toBe(
      `vertex_ai/ deployment "gemini" needs ${ABSENT} for the test: npm install ${ABSENT}`,
    );
    expect((error as MissingPeerError).packageName).toBe(ABSENT);
    expect((error as MissingPeerError).neededBy).toBe('vertex_ai/ deployment "gemini"');
  });

  it('fails the synchronous construction-time check with the same message, a purpose of its own if given', () => {
    const peer = absent();
    expect(peer.installed()).toBe(false);
    expect(() => peer.check('RedisStore (127.0.0.1:6379)', 'as its client')).toThrow(
      `RedisStore (127.0.0.1:6379) needs ${ABSENT} as its client: npm install ${ABSENT}`,
    );
    expect(() => peer.loadSync('RedisStore')).toThrow(MissingPeerError);
    expect(peer.module).toBeUndefined();
  });
});

describe('OptionalPeer: an installed package', () => {
  it('loads it once: concurrent first loads share one import, and `module` holds it afterwards', async () => {
    const peer = new OptionalPeer<{ default: Aws4 }>('aws4', 'for signing');
    expect(peer.installed()).toBe(true);
    expect(peer.module).toBeUndefined();
    const [a, b] = await Promise.all([peer.load('test'), peer.load('test')]);
    expect(a).toBe(b);
    expect(peer.module).toBe(a);
    expect(await peer.load('test')).toBe(a);
    expect(typeof a.default.sign).toBe('function');
  });

  it('requires a CommonJS package synchronously and keeps it', () => {
    const peer = new OptionalPeer<typeof import('ioredis')>('ioredis', 'as its client');
    const module = peer.loadSync('RedisStore');
    expect(typeof module.Redis).toBe('function');
    expect(peer.loadSync('RedisStore')).toBe(module);
  });
});
