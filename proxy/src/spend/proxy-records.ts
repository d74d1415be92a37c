import type { RouterSettings } from '@svc/router';
import { CallRecords } from '@svc/router';
import { destinationsOf, parseSettings } from '@svc/router/config';
import type { SpendLogRow } from '../db/spend-log-row.js';
import { proxyCallRecord } from './call-record.js';
import type { SpendSink } from './spend-entry.js';

/**
 * The proxy's call-record destinations: the config's `callbacks` (`svc_settings` or `router_settings`),
 * already validated with the config. The proxy sends its spend rows there, which know the key, team and
 * user; the router is built without them, so each call is recorded once.
 */
export function proxyCallRecords(
  callbacks: RouterSettings['callbacks'],
  env: NodeJS.ProcessEnv,
  onProblem: (message: string) => void,
): CallRecords {
  const records = new CallRecords(onProblem);
  if (callbacks?.length) records.configure(destinationsOf(parseSettings({ callbacks }, env).callbacks));
  return records;
}

/** Hands each spend row to the writer and, when destinations are configured, its record to them. */
export function spendSink(write: (row: SpendLogRow) => void, records: CallRecords): SpendSink {
  if (!records.active) return (_call, row) => write(row);
  return (call, row) => {
    write(row);
    records.add(proxyCallRecord(row, call));
  };
}
