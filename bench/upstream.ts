// The mock upstream of the benches, in its own process: prints its URL, serves until killed.
// An optional argument is a JSON object of behaviours by path prefix (see MockBehavior).
import { startMockProvider } from '../src/testing/index.js';

const behaviors = process.argv[2] ? JSON.parse(process.argv[2]) : {};
const mock = await startMockProvider({ record: false, behaviors, seed: 7 });
process.stdout.write(`${mock.url}\n`);
process.on('SIGTERM', () => {
  void mock.close().then(() => process.exit(0));
});
