// A custom server protected by @svc/router/jwt, without the proxy: plain node:http, one in-memory
// directory of teams. Every request is authenticated before it is handled; a refusal is answered with
// its status (401, 403 or 503) and its safe JSON body.
//
//   JWT_PUBLIC_KEY_URL=https://idp.example.com/realms/acme/.well-known/openid-configuration \
//   JWT_AUDIENCE=gateway npx tsx examples/jwt-server.ts
//
//   curl -H "Authorization: Bearer $TOKEN" -d '{"model":"gpt-4o"}' http://127.0.0.1:8080/v1/chat/completions
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import {
  type AuthContext,
  createJwtAuth,
  type JwtAuth,
  JwtAuthError,
  MemoryJwtDirectory,
} from '@svc/router/jwt';

const MAX_BODY_BYTES = 1024 * 1024;

/** The request body as JSON (bounded), or undefined when there is none or it is not JSON. */
async function readJson(req: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) return undefined;
    chunks.push(chunk as Buffer);
  }
  try {
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** What the server does once a request is authenticated: here, it says who the caller is. */
function handle(ctx: AuthContext, body: Record<string, unknown> | undefined) {
  return {
    kind: ctx.kind,
    team_id: ctx.team_id ?? null,
    user_id: ctx.user_id ?? null,
    model: typeof body?.model === 'string' ? body.model : null,
    allowed_models: ctx.allowed_models ?? null,
  };
}

/** A node:http server that authenticates every request with `auth` before handling it. */
export function createGatewayServer(auth: JwtAuth): Server {
  return createServer(async (req, res) => {
    const send = (status: number, payload: unknown) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(payload));
    try {
      // the body is read first: the model it names is part of the access decision
      const body = req.method === 'POST' ? await readJson(req) : undefined;
      const ctx = await auth.authenticate({
        headers: req.headers,
        path: req.url ?? '/',
        method: req.method,
        model: typeof body?.model === 'string' ? body.model : undefined,
      });
      send(200, handle(ctx, body));
    } catch (err) {
      if (JwtAuthError.isInstance(err)) {
        // err.cause holds the underlying error for your logs; err.body is safe to send
        if (err.status === 503) console.error('auth unavailable:', err.cause);
        send(err.status, err.body);
      } else {
        console.error(err);
        send(500, { error: { message: 'Internal error', type: 'internal_error' } });
      }
    }
  });
}

// Run directly: settings from the environment, two teams in memory.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  if (!process.env.JWT_PUBLIC_KEY_URL) {
    console.error('Set JWT_PUBLIC_KEY_URL to your identity provider (see docs/jwt.md).');
    process.exit(1);
  }
  const directory = new MemoryJwtDirectory({
    teams: [
      { team_id: 'search', team_alias: 'search', models: ['gpt-4o', 'gpt-4o-mini'] },
      { team_id: 'support', team_alias: 'support', models: ['claude-sonnet'] },
    ],
  });
  const auth = createJwtAuth(
    {
      user_id_jwt_field: 'sub',
      team_ids_jwt_field: 'groups',
      team_allowed_routes: ['openai_routes', 'anthropic_routes', 'info_routes'],
    },
    directory,
  );
  const server = createGatewayServer(auth);
  server.listen(Number(process.env.PORT ?? 8080), '127.0.0.1', () => {
    console.log(`listening on http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });
}
