import type { AuthContext } from '@svc/router/jwt';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requireAdmin } from '../auth/authenticate.js';
import { hashKey, isKeyHash } from '../auth/virtual-key.js';
import { querySpendLogs, spendReport } from '../db/spend-repo.js';
import { parseBody } from '../http/parse-body.js';
import { ProxyError } from '../http/proxy-error.js';
import type { ProxyContext } from '../proxy-context.js';
import { exactText } from './management-fields.js';
import { dayField, dayOf, LATEST_TIME_MS, timeField } from './storable-fields.js';

const spendQuery = z.strictObject({
  key: z.string().min(1).optional(),
  user_id: exactText(256).optional(),
  team_id: exactText(256).optional(),
  model: exactText(256).optional(),
  tag: exactText(128).optional(),
  start_date: timeField.optional(),
  end_date: timeField.optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
  offset: z.coerce.number().int().min(0).optional(),
});

const DAY_MS = 86_400_000;
const MAX_REPORT_DAYS = 366;
const DEFAULT_REPORT_DAYS = 30;

const reportQuery = z.strictObject({
  start_date: dayField.optional(),
  end_date: dayField.optional(),
  group_by: z.enum(['team', 'model', 'tag']).default('model'),
});

/**
 * `GET /spend/logs`: spend rows, newest first (CONTRACT 5.6). The master key and admin tokens read any;
 * a virtual key reads its own only, a team token its team's, a user token its own. A date without a
 * time means that whole day: `end_date=2026-11-23` includes it.
 */
export function registerSpendRoutes(app: FastifyInstance, ctx: ProxyContext): void {
  // admin only: it sums every key's, team's and user's spend
  app.get('/spend/report', async (request) => {
    requireAdmin(await ctx.authenticate(request), '/spend/report');
    const query = parseBody(reportQuery, request.query, '/spend/report query');
    const endDate = query.end_date ?? dayOf(ctx.now());
    const end = Date.parse(`${endDate}T00:00:00Z`) + DAY_MS; // end_date is included
    const startDate = query.start_date ?? dayOf(end - DEFAULT_REPORT_DAYS * DAY_MS);
    const start = Date.parse(`${startDate}T00:00:00Z`);
    if (start >= end) {
      throw new ProxyError(
        400,
        'invalid_request',
        `\`start_date\`: ${startDate} is after end_date ${endDate}.`,
      );
    }
    if (end - start > MAX_REPORT_DAYS * DAY_MS) {
      throw new ProxyError(
        400,
        'invalid_request',
        `\`start_date\`: at most ${MAX_REPORT_DAYS} days from start_date to end_date; asked ${(end - start) / DAY_MS}.`,
      );
    }
    // the day after 9999-12-31 is past what the embedded engine reads: the last millisecond ends it
    const until = new Date(Math.min(end, LATEST_TIME_MS));
    const data = await spendReport(ctx.db, query.group_by, new Date(start), until);
    return { start_date: startDate, end_date: endDate, group_by: query.group_by, data };
  });

  app.get('/spend/logs', async (request) => {
    const caller = await ctx.authenticate(request);
    const query = parseBody(spendQuery, request.query, '/spend/logs query');
    const asked = query.key === undefined ? undefined : isKeyHash(query.key) ? query.key : hashKey(query.key);
    const keyHash = caller.kind === 'key' ? caller.key.keyHash : asked;
    if (caller.kind === 'key' && asked !== undefined && asked !== keyHash) return [];
    const scope = caller.kind === 'jwt' ? tokenScope(caller.auth, query) : query;
    if (scope === undefined) return [];
    const endDate = query.end_date && isWholeDay(request.query) ? endOfDay(query.end_date) : query.end_date;
    return querySpendLogs(ctx.db, {
      key_hash: keyHash,
      user_id: scope.user_id,
      team_id: scope.team_id,
      model: query.model,
      tag: query.tag,
      start_date: query.start_date,
      end_date: endDate,
      limit: query.limit,
      offset: query.offset,
    });
  });
}

/**
 * The rows a JWT caller may read: an admin any; a team token its team's; a user token its own.
 * Undefined when the query asks for someone else's (or the token names nobody): no rows.
 */
function tokenScope(
  auth: AuthContext,
  query: { user_id?: string | undefined; team_id?: string | undefined },
): { user_id?: string | undefined; team_id?: string | undefined } | undefined {
  if (auth.kind === 'admin') return query;
  if (auth.team_id !== undefined) {
    return query.team_id === undefined || query.team_id === auth.team_id
      ? { ...query, team_id: auth.team_id }
      : undefined;
  }
  if (auth.user_id !== undefined) {
    return query.user_id === undefined || query.user_id === auth.user_id
      ? { ...query, user_id: auth.user_id }
      : undefined;
  }
  return undefined;
}

function isWholeDay(query: unknown): boolean {
  const raw = (query as { end_date?: string }).end_date ?? '';
  return /^\d{4}-\d{2}-\d{2}$/.test(raw);
}

function endOfDay(day: Date): Date {
  return new Date(day.getTime() + 86_400_000 - 1);
}
