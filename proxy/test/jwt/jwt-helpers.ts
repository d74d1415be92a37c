// Steps the proxy's JWT suites share: a model call, a JSON request, and reading spend rows.
import { eventually, type TestProxy } from '../harness.js';

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** POSTs a chat completion for `model` with `headers`; resolves to status and parsed body. */
export async function chat(
  t: TestProxy,
  headers: Record<string, string>,
  model = 'gpt-4o',
  extra: Record<string, unknown> = {},
): Promise<{ status: number; body: Record<string, unknown> }> {
  return send(t, 'POST', '/v1/chat/completions', headers, {
    model,
    messages: [{ role: 'user', content: 'hi' }],
    ...extra,
  });
}

/** Any request; resolves to status and parsed body. */
export async function send(
  t: TestProxy,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: unknown,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${t.url}${path}`, {
    method,
    headers: { ...headers, ...(body !== undefined && { 'content-type': 'application/json' }) },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

export interface SpendRow {
  call_id: string;
  key_hash: string | null;
  user_id: string | null;
  team_id: string | null;
  organization_id: string | null;
  end_user: string | null;
  cost: number;
}

/** The spend rows `/spend/logs` answers the master key with for `query` (e.g. `?team_id=a`). */
export async function spendRows(t: TestProxy, query = ''): Promise<SpendRow[]> {
  const { status, body } = await send(t, 'GET', `/spend/logs${query}`, t.admin);
  if (status !== 200) throw new Error(`/spend/logs answered ${status}`);
  return body as unknown as SpendRow[];
}

/** The newest spend row once `count` rows match `query`. */
export async function newestRow(t: TestProxy, query: string, count: number): Promise<SpendRow> {
  let rows: SpendRow[] = [];
  await eventually(async () => {
    rows = await spendRows(t, query);
    if (rows.length < count) throw new Error(`${rows.length} of ${count} spend rows`);
  });
  return rows[0]!;
}
