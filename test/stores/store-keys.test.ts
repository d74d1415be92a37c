import { describe, expect, it } from 'vitest';
import { groupKey, hashSlotText, namespaceProblem, shareSlot } from '../../src/stores/store-keys.js';

describe('groupKey', () => {
  it('puts the group in the hash tag: <kind>:{<group>}:<id>', () => {
    expect(groupKey('cooldown', 'gpt-4o', 'openai-east')).toBe('cooldown:{gpt-4o}:openai-east');
  });

  it('escapes braces in a group name so the tag stays the whole group', () => {
    const key = groupKey('cooldown', 'we}ird{', 'a');
    expect(key).toBe('cooldown:{we%7Dird%7B}:a');
    expect(hashSlotText(key)).toBe('we%7Dird%7B');
  });

  it('gives every key of one group the same tag, and different groups different tags', () => {
    const group = ['a', 'b', 'c'].map((id) => groupKey('cooldown', 'claude', id));
    expect(shareSlot(group)).toBe(true);
    expect(shareSlot([groupKey('cooldown', 'claude', 'a'), groupKey('cooldown', 'gpt', 'a')])).toBe(false);
  });
});

describe('hashSlotText (the Redis Cluster rule)', () => {
  it.each([
    ['ns:cooldown:{gpt-4o}:a', 'gpt-4o'],
    ['no tag at all', 'no tag at all'],
    ['empty {} tag hashes the whole key', 'empty {} tag hashes the whole key'],
    ['{first}{second}', 'first'],
    ['unclosed {tag', 'unclosed {tag'],
    ['{a{b}c}', 'a{b'],
  ])('%s -> %s', (key, text) => {
    expect(hashSlotText(key)).toBe(text);
  });

  it('counts no keys and one key as sharing a slot', () => {
    expect(shareSlot([])).toBe(true);
    expect(shareSlot(['anything'])).toBe(true);
  });
});

describe('namespaceProblem', () => {
  it('accepts a plain namespace, colons included', () => {
    expect(namespaceProblem('svc-router')).toBeUndefined();
    expect(namespaceProblem('prod:eu-west')).toBeUndefined();
  });

  it.each([
    ['', 'must not be empty'],
    ['a{b}', 'must not contain `{` or `}`'],
    ['x'.repeat(101), 'must be at most 100 characters'],
  ])('refuses %j: %s', (namespace, problem) => {
    expect(namespaceProblem(namespace)).toBe(problem);
  });
});
