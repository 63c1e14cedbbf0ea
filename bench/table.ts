// The results tables (Markdown, so they paste into docs/benchmarks.md) and the GET targets of
// issue 3: Larder's GET at least 0.9x the bare server of its runtime, and at least 1.5x webdis
// on the faster runtime.

import type { Target } from './targets.js';
import type { WrkResult } from './wrk.js';

export interface Measurement extends WrkResult {
  /** Server CPU time per request in microseconds; null where it cannot be read. */
  readonly cpuUs: number | null;
}

export interface Row {
  readonly target: Target;
  /** Absent when the row was skipped or failed; `note` says why. */
  readonly result?: Measurement;
  readonly note: string;
}

const MIN_VS_BARE = 0.9;
const MIN_VS_WEBDIS = 1.5;

export function renderTable(rows: readonly Row[]): string {
  const webdis = rows.find((r) => r.target.kind === 'webdis')?.result;
  const cells = [['target', 'runtime', 'req/s', 'p99', 'server CPU/req', 'vs bare (same runtime)', 'vs webdis', 'note']];
  for (const row of rows) {
    const r = row.result;
    const bare = bareOf(rows, row);
    cells.push([
      row.target.name,
      row.target.runtime,
      r === undefined ? '-' : Math.round(r.rps).toLocaleString('en-US'),
      r === undefined ? '-' : `${r.p99Ms.toFixed(2)} ms`,
      r?.cpuUs == null ? '-' : `${r.cpuUs.toFixed(1)} µs`,
      r === undefined || bare === undefined ? '-' : ratio(r, bare),
      r === undefined || webdis === undefined ? '-' : ratio(r, webdis),
      row.note,
    ]);
  }
  return markdownTable(cells);
}

/** A header line and rows as an aligned Markdown table. */
export function markdownTable(cells: readonly (readonly string[])[]): string {
  const widths = cells[0].map((_, c) => Math.max(...cells.map((line) => line[c].length)));
  const line = (items: readonly string[]) => `| ${items.map((s, c) => s.padEnd(widths[c])).join(' | ')} |`;
  return [line(cells[0]), line(widths.map((w) => '-'.repeat(w))), ...cells.slice(1).map(line)].join('\n');
}

export function renderVerdict(rows: readonly Row[]): string[] {
  const lines: string[] = [];
  const larders = rows.filter((r) => r.target.kind === 'larder' && r.result !== undefined);
  for (const row of larders) {
    const bare = bareOf(rows, row);
    if (bare === undefined) continue;
    const r = row.result!;
    const x = r.rps / bare.rps;
    const cpu = r.cpuUs === null || bare.cpuUs === null ? '' : `; ${(r.cpuUs / bare.cpuUs).toFixed(2)}x its CPU per request`;
    lines.push(`Larder on ${row.target.runtime}: ${x.toFixed(2)}x its bare server's req/s (target >= ${MIN_VS_BARE}x): ${x >= MIN_VS_BARE ? 'met' : 'NOT met'}${cpu}`);
  }
  const webdis = rows.find((r) => r.target.kind === 'webdis')?.result;
  const fastest = larders.reduce<Row | undefined>((best, r) => (best === undefined || r.result!.rps > best.result!.rps ? r : best), undefined);
  if (fastest !== undefined && webdis !== undefined) {
    const x = fastest.result!.rps / webdis.rps;
    lines.push(
      `Larder on the faster runtime (${fastest.target.runtime}): ${x.toFixed(2)}x webdis (target >= ${MIN_VS_WEBDIS}x): ${x >= MIN_VS_WEBDIS ? 'met' : 'NOT met'}`,
    );
  }
  return lines;
}

function bareOf(rows: readonly Row[], row: Row): Measurement | undefined {
  if (row.target.kind === 'webdis') return undefined;
  return rows.find((r) => r.target.kind === 'bare' && r.target.runtime === row.target.runtime)?.result;
}

function ratio(a: WrkResult, b: WrkResult): string {
  return `${(a.rps / b.rps).toFixed(2)}x`;
}
