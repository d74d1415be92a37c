/** The id of an Anthropic message: the completion's own when it already is one (an Anthropic upstream). */
export function messageId(completionId: string): string {
  return completionId.startsWith('msg_') ? completionId : `msg_${completionId}`;
}
