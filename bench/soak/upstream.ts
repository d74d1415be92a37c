// The soak's upstream, in its own process: one mock provider per scenario (its own behaviours and
// counters) and the leaking echo. Prints `{ mocks: { [scenario]: url }, echo: url }` as one JSON line,
// then serves until killed. `GET {echo}/__stats?scenario=NAME` tells a scenario's most requests in
// flight at once, and the JWT assertions the echo received.
import { type MockProvider, startMockProvider } from '../../src/testing/index.js';
import { startEcho } from './echo.js';
import { SCENARIOS } from './scenarios.js';

const mocks = new Map<string, MockProvider>();
for (const [i, scenario] of SCENARIOS.entries())
  mocks.set(
    scenario.name,
    await startMockProvider({ record: false, behaviors: scenario.behaviors, seed: 7 + i }),
  );

const echo = await startEcho((path) => {
  if (!path.startsWith('/__stats')) return undefined;
  const mock = mocks.get(new URL(path, 'http://x').searchParams.get('scenario') ?? '');
  return {
    maxInFlight: mock?.maxInFlight ?? 0,
    assertions: echo.assertions,
    echoed: echo.echoed,
  };
});

process.stdout.write(
  `${JSON.stringify({ mocks: Object.fromEntries([...mocks].map(([name, m]) => [name, m.url])), echo: echo.url })}\n`,
);
process.on('SIGTERM', () => {
  void Promise.all([...[...mocks.values()].map((m) => m.close()), echo.close()]).then(() => process.exit(0));
});
