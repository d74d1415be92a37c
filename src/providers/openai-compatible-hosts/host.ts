/**
 * One OpenAI-compatible host served under its own model prefix: where it lives, where its key comes
 * from, and how its Chat Completions differs from OpenAI's. Plain data; `hostAdapter` turns it into a
 * provider adapter on the OpenAI-compatible base.
 */
export interface OpenAICompatibleHost {
  /** The model prefix (without `/`) and the provider name reported in `custom_llm_provider`. */
  readonly name: string;
  /** The host's own base URL (with its `/v1` where it has one); absent: `api_base` is required. */
  readonly apiBase?: string;
  /** Example base shown when `api_base` is required and missing. */
  readonly apiBaseExample?: string;
  /** Environment variables read, in order, for the key when the deployment sets no `api_key`. */
  readonly apiKeyEnv?: readonly string[];
  /** The key is optional (local servers): no key anywhere means no `Authorization` header. */
  readonly apiKeyOptional?: boolean;
  /** Request fields the host answers 400 to: refused before sending, or removed with `drop_params`. */
  readonly refuses?: readonly string[];
  /** The host answers 400 to `name` on a system, user or assistant message. */
  readonly refusesMessageName?: boolean;
  /** OpenAI request fields the host spells differently: `{ openai_field: 'host_field' }`. */
  readonly renames?: Readonly<Record<string, string>>;
  /** Whether streams may ask for `stream_options.include_usage` (the host refuses the field). @default true */
  readonly streamUsage?: boolean;
  /** Top-level answer fields (search results, citations) kept in the message's `provider_specific_fields`. */
  readonly answerFields?: readonly string[];
}
