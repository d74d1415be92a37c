import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AuthenticationError, type DeploymentConfig, Router, RouterError } from '../../src/index.js';
import { serviceAccount } from './vertex-helpers.js';

// An Entra client secret as the portal makes them: `~` is `%7E` once form-encoded in the token request.
const CLIENT_SECRET = 'Zx8Q~client.secret_value~0123';
const FORM_SECRET = new URLSearchParams({ s: CLIENT_SECRET }).toString().slice(2);
const ENTRA_TOKEN = 'eyJ0eXAiOiJKV1QiLCJhbGciOiJSUzI1NiJ9.entra-access-token.signature-part';
const GOOGLE_TOKEN = 'ya29.c.google-access-token-fetched-by-the-router';

interface Seen {
  assertions: string[];
}

/** Plays the Entra and Google token endpoints, and a provider that echoes what it got in its error body. */
function startEchoingServer(seen: Seen, options: { refuseGoogleGrant: () => boolean }): Promise<Server> {
  const read = (req: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let body = '';
      req.on('data', (part: Buffer) => {
        body += part.toString('utf8');
      });
      req.on('end', () => resolve(body));
    });
  const server = createServer(async (req, res) => {
    const body = await read(req);
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    if (req.url?.endsWith('/oauth2/v2.0/token')) {
      return json(200, { access_token: ENTRA_TOKEN, expires_in: 3600, token_type: 'Bearer' });
    }
    if (req.url === '/google/token') {
      const assertion = new URLSearchParams(body).get('assertion') ?? '';
      seen.assertions.push(assertion);
      return options.refuseGoogleGrant()
        ? json(400, { error: 'invalid_grant', error_description: `assertion ${assertion} is not valid` })
        : json(200, { access_token: GOOGLE_TOKEN, expires_in: 3599, token_type: 'Bearer' });
    }
    // a provider that echoes the token without its Bearer prefix, and the form-encoded client secret
    const token = (req.headers.authorization ?? '').replace(/^Bearer /, '');
    return json(500, {
      error: {
        code: 500,
        status: 'INTERNAL',
        message: `upstream rejected token ${token} (url-encoded ${encodeURIComponent(token)}); client_secret=${FORM_SECRET}`,
      },
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

let server: Server;
let base: string;
const seen: Seen = { assertions: [] };
let refuseGoogleGrant = false;

beforeAll(async () => {
  server = await startEchoingServer(seen, { refuseGoogleGrant: () => refuseGoogleGrant });
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
beforeEach(() => {
  seen.assertions.length = 0;
  refuseGoogleGrant = false;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

interface Observed {
  error: RouterError;
  failures: unknown[];
  loggedKwargs: unknown[];
}

/** One failing call through a Router, with every failure event and logFailureEvent kwargs it produced. */
async function failingCall(deployment: DeploymentConfig): Promise<Observed> {
  const loggedKwargs: unknown[] = [];
  const router = new Router([deployment], {
    num_retries: 1,
    callbacks: [{ logFailureEvent: (kwargs: unknown) => void loggedKwargs.push(kwargs) }],
  });
  const failures: unknown[] = [];
  router.on('failure', (event) => failures.push(event));
  const error = await router
    .acompletion({ model: deployment.model_name, messages: [{ role: 'user', content: 'hi' }] })
    .catch((e: unknown) => e);
  await new Promise((resolve) => setImmediate(resolve)); // callbacks run after the call settles
  await router.close();
  expect(error).toBeInstanceOf(RouterError);
  return { error: error as RouterError, failures, loggedKwargs };
}

/** Every place an error's text can surface. */
function surfaces({ error, failures, loggedKwargs }: Observed): Record<string, string> {
  return {
    message: error.message,
    stack: error.stack ?? '',
    inspect: inspect(error, { depth: 6 }),
    attempts: error.attempts.map((a) => `${a.message}\n${a.stack}\n${inspect(a)}`).join('\n'),
    events: inspect(failures, { depth: 6 }),
    logFailureEvent: inspect(loggedKwargs, { depth: 6 }),
  };
}

function expectClean(observed: Observed, secrets: readonly string[]): void {
  for (const [where, text] of Object.entries(surfaces(observed))) {
    for (const secret of secrets) expect(text, `${where} leaks ${secret}`).not.toContain(secret);
  }
}

describe('secrets the router fetches itself never reach errors, events or logs', () => {
  it('Azure: the Entra access token echoed without Bearer, and the form-encoded client secret', async () => {
    const observed = await failingCall({
      model_name: 'azure-entra',
      svc_params: {
        model: 'azure/gpt-4o',
        api_base: base,
        api_version: '2024-10-21',
        tenant_id: 'tenant-1',
        client_id: 'client-1',
        client_secret: CLIENT_SECRET,
        azure_authority_host: base,
      },
    });
    expect(observed.error.message).toContain('upstream rejected token ****');
    expect(observed.error.attempts.length).toBeGreaterThan(0);
    expect(observed.failures.length).toBeGreaterThan(0);
    expect(observed.loggedKwargs.length).toBeGreaterThan(0);
    expectClean(observed, [ENTRA_TOKEN, encodeURIComponent(ENTRA_TOKEN), CLIENT_SECRET, FORM_SECRET]);
  });

  it('Vertex AI: the Google access token echoed without Bearer', async () => {
    const observed = await failingCall({
      model_name: 'vertex-sa',
      svc_params: {
        model: 'vertex_ai/gemini-2.5-flash',
        api_base: base,
        vertex_project: 'my-project',
        vertex_location: 'europe-west4',
        vertex_credentials: serviceAccount(`${base}/google/token`),
      },
    });
    expect(observed.error.message).toContain('upstream rejected token ****');
    expect(observed.error.attempts.length).toBeGreaterThan(0);
    expectClean(observed, [GOOGLE_TOKEN, encodeURIComponent(GOOGLE_TOKEN)]);
  });

  it('Vertex AI: the signed JWT assertion echoed by a token endpoint that refuses it', async () => {
    refuseGoogleGrant = true;
    const observed = await failingCall({
      model_name: 'vertex-refused',
      svc_params: {
        model: 'vertex_ai/gemini-2.5-flash',
        api_base: base,
        vertex_project: 'my-project',
        vertex_credentials: serviceAccount(
          `${base}/google/token`,
          'refused@my-project.iam.gserviceaccount.com',
        ),
      },
    });
    expect(observed.error).toBeInstanceOf(AuthenticationError);
    expect(observed.error.message).toContain('invalid_grant: assertion **** is not valid');
    expect(seen.assertions.length).toBeGreaterThan(0);
    expectClean(observed, seen.assertions);
  });
});
