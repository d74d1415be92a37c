import type { ChunkTransform } from '../openai-compatible/options.js';

/**
 * xAI streams the same reasoning delta several times in a row (grok-4 sends "Thinking... " once per
 * chunk while it works). A reasoning delta identical to the previous reasoning delta of the same choice
 * is removed; a chunk left with nothing is skipped. Text and tool-call deltas are never touched.
 */
export function createXaiChunkTransform(): ChunkTransform {
  const lastReasoning = new Map<number, string>();
  return (chunk) => {
    for (const choice of chunk.choices) {
      const piece = choice.delta.reasoning_content;
      if (piece === undefined) continue;
      if (lastReasoning.get(choice.index) === piece) delete choice.delta.reasoning_content;
      else lastReasoning.set(choice.index, piece);
    }
    return chunk;
  };
}
