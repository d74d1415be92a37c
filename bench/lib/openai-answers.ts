// The fixed OpenAI-format answers of the bench upstreams, built once: one chat completion, and the
// seven-frame SSE stream OpenAI sends with `stream_options.include_usage` (role, three content chunks,
// finish_reason, usage, [DONE]), one Buffer per frame so that a server can write them one per write.

/** A plain chat completion's body ("Hello!", 9 prompt and 2 completion tokens). */
export const CHAT_BODY = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 1_700_000_000,
  model: 'gpt-4o',
  system_fingerprint: null,
  choices: [
    {
      index: 0,
      finish_reason: 'stop',
      message: { role: 'assistant', content: 'Hello!', tool_calls: null, function_call: null },
    },
  ],
  usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 },
  service_tier: null,
});
export const CHAT_HEADERS = {
  'content-type': 'application/json',
  'content-length': Buffer.byteLength(CHAT_BODY),
};

const chunk = (choices: unknown[], usage: unknown = null) =>
  Buffer.from(
    `data: ${JSON.stringify({
      id: 'chatcmpl-bench',
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model: 'gpt-4o',
      system_fingerprint: null,
      choices,
      usage,
    })}\n\n`,
  );
const delta = (d: object, finish: string | null = null) => [
  { index: 0, delta: d, logprobs: null, finish_reason: finish },
];

const PIECES = ['Hel', 'lo', '!'];

/**
 * A streamed answer with `contents` content chunks (`Hel`, `lo`, `!`, then ` more` as often as it
 * takes), between the role's opener and the finish, usage and `[DONE]` frames. Real answers run to
 * hundreds of chunks: a long one shows what each chunk costs, which a short one hides behind what
 * each call costs.
 */
export function streamFrames(contents: number): readonly Buffer[] {
  return [
    chunk(delta({ role: 'assistant', content: '' })),
    ...Array.from({ length: contents }, (_, i) => chunk(delta({ content: PIECES[i] ?? ' more' }))),
    chunk(delta({}, 'stop')),
    chunk([], { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 }),
    Buffer.from('data: [DONE]\n\n'),
  ];
}

/** The same answer streamed: seven SSE frames (three of content), the last `data: [DONE]`. */
export const STREAM_FRAMES: readonly Buffer[] = streamFrames(PIECES.length);
export const STREAM_HEADERS = { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' };

/** What a request body holds when it asks for a stream (as the bench clients write it). */
export const STREAM_FLAG = Buffer.from('"stream":true');
