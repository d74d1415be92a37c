/**
 * Calls a library client makes before it is measured. V8 keeps compiling a call path for thousands of
 * calls: here a router's plain call costs 1.2 to 2 times a direct call's CPU over its first 12,500 calls
 * at concurrency 50 (a direct call, with a fraction of the functions, settles sooner), and the two cost
 * within a few µs of each other after that. A warm-up of 2,000 calls, as before the eleventh pass of
 * #27, measured calls 2,000 to 12,000: the router's JIT compilation more than its cost per call in a
 * process that has been serving a while. The warm-up's own CPU per call is reported beside the figures.
 * `BENCH_WARMUP` sets it.
 */
export const WARMUP_CALLS = Number(process.env.BENCH_WARMUP ?? 15_000);
