/** The master key of the proxy that bench/proxy-server.ts starts (the driver reads spend with it). */
export const BENCH_MASTER_KEY = 'sk-bench-master-key';
