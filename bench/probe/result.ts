// One row of the probe's table, and the table itself.

/** What one fault or attack did to the gateway. */
export interface ProbeResult {
  /** `#22.1` for an item of issue 22, or the outside probe's class. */
  id: string;
  /** What was tried, in a few words. */
  tried: string;
  /** Calls that got the answer they should have. */
  served: number;
  total: number;
  /** Spend rows written and expected for the calls made (null: the check makes no model call). */
  rows: number | null;
  rowsExpected: number | null;
  /** Secrets found in the answers of this check (filled in by the runner). */
  secrets: number;
  pass: boolean;
  /** Not tried (the note says why). */
  skipped?: boolean;
  note: string;
}

/** What a check reports; the runner adds the secrets it finds in the check's answers. */
export type CheckOutcome = Omit<ProbeResult, 'id' | 'tried' | 'secrets' | 'pass'> & {
  /** Anything beyond served, rows and secrets that must hold. @default true */
  holds?: boolean;
};

export interface Check {
  id: string;
  tried: string;
  run(): Promise<CheckOutcome>;
}

const cell = (text: string) => text.replaceAll('|', '\\|').replaceAll('\n', ' ');

/** The results as a Markdown table. */
export function markdownTable(results: readonly ProbeResult[]): string {
  const lines = [
    '| # | what was tried | calls served as expected | spend rows (written / expected) | secrets found | result | notes |',
    '|---|---|---:|---:|---:|---|---|',
  ];
  for (const r of results) {
    const rows = r.rows === null ? 'n/a' : `${r.rows} / ${r.rowsExpected}`;
    const served = r.skipped ? 'n/a' : `${r.served} / ${r.total}`;
    const result = r.skipped ? 'skipped' : r.pass ? 'pass' : '**FAIL**';
    lines.push(
      `| ${r.id} | ${cell(r.tried)} | ${served} | ${rows} | ${r.skipped ? 'n/a' : r.secrets} | ${result} | ${cell(r.note)} |`,
    );
  }
  return lines.join('\n');
}

/** `text` with what lies between the two markers replaced by `table`. */
export function replaceBetween(text: string, begin: string, end: string, table: string): string {
  const from = text.indexOf(begin);
  const to = text.indexOf(end);
  if (from === -1 || to === -1 || to < from) throw new Error(`markers ${begin} ... ${end} not found`);
  return `${text.slice(0, from + begin.length)}\n${table}\n${text.slice(to)}`;
}
