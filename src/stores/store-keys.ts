/**
 * How keys are laid out in a shared store, so that the keys one call reads together live on one Redis
 * Cluster slot. Redis hashes only the part of a key between the first `{` and the first `}` after it
 * (the hash tag) when there is one; keys with the same tag share a slot, and a multi-key command (MGET,
 * a Lua script) may only touch keys of one slot.
 *
 * The router's keys put the model group in the tag, `<kind>:{<group>}:<id>`: a group's keys, read
 * together by one `getMany` per call, share a slot, while different groups spread over the cluster.
 */

/** Makes text safe inside a hash tag: a `{` or `}` in it would end or move the tag. */
function tagText(text: string): string {
  return text.replaceAll('{', '%7B').replaceAll('}', '%7D');
}

/**
 * The key of one deployment's state of one kind, tagged by its model group.
 * @example groupKey('cooldown', 'gpt-4o', 'openai-east') // 'cooldown:{gpt-4o}:openai-east'
 */
export function groupKey(kind: string, group: string, id: string): string {
  return `${kind}:{${tagText(group)}}:${id}`;
}

/**
 * The hash tag Redis Cluster hashes a key by (the text between the first `{` and the first `}` after
 * it, when not empty), or the whole key when it has none.
 */
export function hashSlotText(key: string): string {
  const open = key.indexOf('{');
  if (open === -1) return key;
  const close = key.indexOf('}', open + 1);
  if (close === -1 || close === open + 1) return key;
  return key.slice(open + 1, close);
}

/** Whether every key hashes to the same slot because they hash by the same text. */
export function shareSlot(keys: readonly string[]): boolean {
  if (keys.length < 2) return true;
  const first = hashSlotText(keys[0]!);
  for (let i = 1; i < keys.length; i++) if (hashSlotText(keys[i]!) !== first) return false;
  return true;
}

/** The longest namespace accepted; keys are sent with every command. */
export const MAX_NAMESPACE_LENGTH = 100;

/**
 * Why a namespace cannot be used, or undefined when it can: it must be 1-100 characters without `{` or
 * `}` (they would become the hash tag of every key, putting them all on one cluster slot).
 */
export function namespaceProblem(namespace: string): string | undefined {
  if (namespace.length === 0) return 'must not be empty';
  if (namespace.length > MAX_NAMESPACE_LENGTH) return `must be at most ${MAX_NAMESPACE_LENGTH} characters`;
  if (/[{}]/.test(namespace)) return 'must not contain `{` or `}`';
  return undefined;
}
