// The mock upstream of the benches, in its own process: prints its URL, serves until killed.
import { startMockProvider } from '../src/testing/index.js';

const mock = await startMockProvider({ record: false });
process.stdout.write(`${mock.url}\n`);
process.on('SIGTERM', () => {
  void mock.close().then(() => process.exit(0));
});
