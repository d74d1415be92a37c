/**
 * Empties `list` and keeps its backing store for the next pushes. `list.length = 0` has V8 free a
 * store of 16 slots or more, so a list emptied after every few pushes (a stream's per-event queues)
 * allocated a new store at its next push: 37 ns and about 150 bytes each time, against 5 ns per
 * element popped (measured on Node 20).
 */
export function clearArray(list: unknown[]): void {
  while (list.length > 0) list.pop();
}
