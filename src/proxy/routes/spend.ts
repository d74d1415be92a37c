import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { hashKey, isKeyHash } from '../auth/virtual-key.js';
import { querySpendLogs } from '../db/spend-repo.js';
import { parseBody } from '../http/parse-body.js';
import type { ProxyContext } from '../proxy-context.js';

const date = z
  .string()
  .refine((value) => !Number.isNaN(Date.parse(value)), 'expected a date such as 2026-11-23 or an ISO time')
  .transform((value) => new Date(value));

const spendQuery = z.strictObject({
  key: z.string().min(1).optional(),
  user_id: z.string().min(1).optional(),
  team_id: z.string().min(1).optional(),
  start_date: date.optional(),
  end_date: date.optional(),
  limit: z.coerce.number().int().min(1).max(1000).optional(),
});

/**
 * `GET /spend/logs`: spend rows, newest first (CONTRACT 5.6). The master key reads any; a virtual key
 * reads its own only. A date without a time means that whole day: `end_date=2026-11-23` includes it.
 */
export function registerSpendRoutes(app: FastifyInstance, ctx: ProxyContext): void {
  app.get('/spend/logs', async (request) => {
    const caller = await ctx.authenticate(request.headers);
    const query = parseBody(spendQuery, request.query, '/spend/logs query');
    const asked = query.key === undefined ? undefined : isKeyHash(query.key) ? query.key : hashKey(query.key);
    const keyHash = caller.kind === 'key' ? caller.key.keyHash : asked;
    if (caller.kind === 'key' && asked !== undefined && asked !== keyHash) return [];
    const endDate = query.end_date && isWholeDay(request.query) ? endOfDay(query.end_date) : query.end_date;
    return querySpendLogs(ctx.db, {
      key_hash: keyHash,
      user_id: query.user_id,
      team_id: query.team_id,
      start_date: query.start_date,
      end_date: endDate,
      limit: query.limit,
    });
  });
}

function isWholeDay(query: unknown): boolean {
  const raw = (query as { end_date?: string }).end_date ?? '';
  return /^\d{4}-\d{2}-\d{2}$/.test(raw);
}

function endOfDay(day: Date): Date {
  return new Date(day.getTime() + 86_400_000 - 1);
}
