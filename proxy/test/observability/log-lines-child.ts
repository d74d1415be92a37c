// A process that logs through the proxy's stdout logger: `log-lines-child.ts <lines> <stay-ms>` logs
// `<lines>` info lines, then stays `<stay-ms>` (0: exits at once, its event loop empty). With a third
// argument `fatal`, it logs one fatal line after them and is killed at once (SIGKILL: no exit hook runs).
import { createProxyLogger } from '../../src/observability/proxy-logger.js';

const [lines, stayMs] = process.argv.slice(2, 4).map(Number) as [number, number];
const logger = createProxyLogger({ level: 'info' });
for (let i = 0; i < lines; i++) logger.info({ line: i, at: Date.now() }, 'a line');
if (stayMs > 0) setTimeout(() => {}, stayMs);
if (process.argv[4] === 'fatal') {
  logger.fatal({ line: lines }, 'a fatal line');
  process.kill(process.pid, 'SIGKILL');
}
