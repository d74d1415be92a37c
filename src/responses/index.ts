/**
 * `@svc/router/responses`: the OpenAI Responses API over the router's chat calls. Pure translation, no
 * I/O: a Responses request checked ({@link parseResponsesRequest}) and turned into a chat request
 * ({@link responsesToChatRequest}); a chat completion turned into the Response object
 * ({@link chatCompletionToResponse}); a chat stream turned into the Responses event stream, chunk by
 * chunk ({@link ResponsesStreamWriter}). A server stores responses and serves `previous_response_id`
 * by passing the stored items as `history`. docs/responses.md shows a whole route.
 *
 * @example
 * const request = parseResponsesRequest(body);
 * const shell = responseShell(request);
 * const completion = await router.acompletion(responsesToChatRequest(request));
 * reply(chatCompletionToResponse(completion, shell));
 */
export { newResponsesId } from './ids.js';
export { type FinishOutcome, finishOutcome, toResponseUsage } from './output-items.js';
export { parseResponsesRequest } from './parse-request.js';
export { decodeReasoningState, encodeReasoningState } from './reasoning-state.js';
export { ResponsesStreamWriter } from './stream-writer.js';
export { itemsToChatMessages } from './to-chat-messages.js';
export { inputItems, responsesToChatRequest, type ToChatRequestOptions } from './to-chat-request.js';
export { chatCompletionToResponse, type ResponseShellOptions, responseShell } from './to-response.js';
export type * from './types.js';
