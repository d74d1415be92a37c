// An upstream that leaks: it plays the Entra ID and Google token endpoints, then answers every provider
// call with a 500 whose body echoes the credentials it was sent (without their `Bearer ` prefix,
// URL-encoded, base64); Azure calls also get the form-encoded client secret of the token request and
// Vertex calls the JWT assertion (each upstream echoes only what it was itself sent).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ENTRA_TOKEN, GOOGLE_TOKEN } from './secrets.js';

export interface Echo {
  url: string;
  /** Error bodies echoed, by the kind of provider call they answered. */
  echoed: Record<string, number>;
  /** The JWT assertions Google's endpoint received (signed by the router at run time). */
  assertions: string[];
  close(): Promise<void>;
}

function read(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let body = '';
    req.on('data', (part: Buffer) => {
      body += part.toString('utf8');
    });
    req.on('end', () => resolve(body));
  });
}

function kindOf(path: string): string {
  if (path.includes('/openai/deployments/')) return 'azure';
  if (path.includes('/projects/')) return 'vertex';
  if (path.startsWith('/model/')) return 'bedrock';
  if (path.includes('/models/')) return 'gemini';
  if (path.includes('/messages')) return 'anthropic';
  return 'openai';
}

/** Starts the echo; `extra` answers paths of its own first (the upstream's stats). */
export async function startEcho(extra: (path: string) => unknown): Promise<Echo> {
  const assertions: string[] = [];
  const echoed: Record<string, number> = {};
  let formBody = '';
  const server: Server = createServer(async (req, res) => {
    const body = await read(req);
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    const path = req.url ?? '/';
    const own = extra(path);
    if (own !== undefined) return json(200, own);
    if (path.endsWith('/oauth2/v2.0/token')) {
      formBody = body; // holds client_secret, form-encoded
      return json(200, { access_token: ENTRA_TOKEN, expires_in: 3600, token_type: 'Bearer' });
    }
    if (path === '/google/token') {
      assertions.push(new URLSearchParams(body).get('assertion') ?? '');
      return json(200, { access_token: GOOGLE_TOKEN, expires_in: 3599, token_type: 'Bearer' });
    }
    const h = req.headers;
    const sent = [
      String(h.authorization ?? '').replace(/^Bearer /, ''),
      String(h['x-api-key'] ?? ''),
      String(h['api-key'] ?? ''),
      String(h['x-goog-api-key'] ?? ''),
      String(h['x-amz-security-token'] ?? ''),
      new URL(path, 'http://x').searchParams.get('key') ?? '',
    ].filter(Boolean);
    const credentials = sent
      .map((s) => `${s} (url ${encodeURIComponent(s)}, b64 ${Buffer.from(s).toString('base64')})`)
      .join('; ');
    const kind = kindOf(path);
    echoed[kind] = (echoed[kind] ?? 0) + 1;
    const tokenRequest =
      kind === 'azure'
        ? `; token request was ${formBody}`
        : kind === 'vertex'
          ? `; assertion ${assertions.at(-1) ?? ''}`
          : '';
    const message = `upstream rejected credentials ${credentials}${tokenRequest}`;
    // one body every format's error reader understands (OpenAI, Anthropic, Gemini, Bedrock)
    return json(500, {
      type: 'error',
      message,
      error: { type: 'api_error', code: 500, status: 'INTERNAL', message },
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    assertions,
    echoed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
