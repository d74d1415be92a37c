// A minimal OpenAI-format upstream for the overhead bench, in its own process: it drains each request
// and answers one fixed chat completion, so that it costs far less CPU per call than either client and
// the measured clients are the bottleneck (the mock provider parses and builds each answer). Prints its
// URL, serves until killed.
import { createServer } from 'node:http';

const body = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 1_700_000_000,
  model: 'gpt-4o',
  system_fingerprint: null,
  choices: [
    {
      index: 0,
      finish_reason: 'stop',
      message: { role: 'assistant', content: 'Hello!', tool_calls: null, function_call: null },
    },
  ],
  usage: { prompt_tokens: 9, completion_tokens: 2, total_tokens: 11 },
  service_tier: null,
});
const headers = { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };

const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, headers);
    res.end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') process.stdout.write(`http://127.0.0.1:${address.port}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
