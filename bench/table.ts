// A header line and rows as an aligned Markdown table, so results paste into docs/benchmarks.md.

/** A header line and rows as an aligned Markdown table. */
export function markdownTable(cells: readonly (readonly string[])[]): string {
  const widths = cells[0].map((_, c) => Math.max(...cells.map((line) => line[c].length)));
  const line = (items: readonly string[]) => `| ${items.map((s, c) => s.padEnd(widths[c])).join(' | ')} |`;
  return [line(cells[0]), line(widths.map((w) => '-'.repeat(w))), ...cells.slice(1).map(line)].join('\n');
}
