import type { AnyThinkingBlock } from '../types/chat.js';
import { functionCallItem, messageItem, reasoningItem } from './output-items.js';
import type { ItemStatus, ResponseOutputItem } from './types.js';

/** The assistant's text, as it streams. */
export interface MessageState {
  kind: 'message';
  /** Its place in `output`. */
  index: number;
  id: string;
  text: string;
  done: boolean;
}

/** Reasoning, as it streams: its text (one summary part, once some arrived) and its thinking blocks. */
export interface ReasoningState {
  kind: 'reasoning';
  index: number;
  id: string;
  text: string;
  blocks: AnyThinkingBlock[];
  /** Whether its summary part was announced (on its first text). */
  summary: boolean;
  done: boolean;
}

/** A function call, as its arguments stream. */
export interface CallState {
  kind: 'call';
  index: number;
  id: string;
  call_id: string;
  name: string;
  arguments: string;
  done: boolean;
}

export type ItemState = MessageState | ReasoningState | CallState;

/** The output item a state stands for now. */
export function renderItem(state: ItemState, status: ItemStatus): ResponseOutputItem {
  switch (state.kind) {
    case 'message':
      return messageItem(state.id, status, state.text);
    case 'reasoning':
      return reasoningItem(state.id, state.text, state.blocks);
    case 'call':
      return functionCallItem(state.id, state, status);
  }
}
