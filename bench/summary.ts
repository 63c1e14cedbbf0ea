// One workload's results as a table: for each figure and system, the median, min and max over
// the rounds, and the median's ratio to the reference system's. Answers that were errors are
// counted per cell, and a cell with any is marked FAILED: a benchmark of errors is no benchmark.

import { markdownTable } from './table.js';

export interface Figure {
  readonly name: string;
  /** 'msg/s', 'ms', 'µs', 'recall', ...: decides the printed precision. */
  readonly unit: string;
}

interface Cell {
  readonly runs: number[];
  errors: number;
}

export class Summary {
  private readonly cells = new Map<string, Map<string, Cell>>(); // figure -> system -> cell
  private readonly figures = new Map<string, Figure>();
  private readonly systemNotes = new Map<string, string[]>();
  readonly notes: string[] = [];

  /** `reference` is the system the ratio column divides by; `systemColumn` names what a system is. */
  constructor(
    readonly title: string,
    readonly reference: string,
    private readonly systemColumn = 'system',
  ) {}

  add(system: string, figure: Figure, value: number, errors = 0): void {
    const cell = this.cell(system, figure);
    cell.runs.push(value);
    cell.errors += errors;
  }

  /** Error answers seen while measuring `figure` for `system`, without a value. */
  addErrors(system: string, figure: Figure, errors: number): void {
    this.cell(system, figure).errors += errors;
  }

  /** A note on a system's rows: skipped, failed to start, ... */
  noteSystem(system: string, text: string): void {
    this.systemNotes.set(system, [...(this.systemNotes.get(system) ?? []), text]);
  }

  /** True when every measured cell got only correct answers. */
  get clean(): boolean {
    for (const bySystem of this.cells.values()) for (const cell of bySystem.values()) if (cell.errors > 0 || cell.runs.length === 0) return false;
    return true;
  }

  median(system: string, figure: string): number | null {
    const runs = this.cells.get(figure)?.get(system)?.runs ?? [];
    return runs.length === 0 ? null : median(runs);
  }

  render(): string {
    const lines = [['figure', this.systemColumn, 'median', 'min', 'max', 'runs', `vs ${this.reference}`, 'note']];
    for (const [name, bySystem] of this.cells) {
      const figure = this.figures.get(name)!;
      const ref = this.median(this.reference, name);
      for (const [system, cell] of bySystem) {
        const mid = cell.runs.length === 0 ? null : median(cell.runs);
        const note = [cell.errors > 0 ? `FAILED: ${cell.errors} error answers` : '', ...(this.systemNotes.get(system) ?? [])].filter((s) => s !== '');
        lines.push([
          `${name} (${figure.unit})`,
          system,
          mid === null ? '-' : format(mid, figure.unit),
          cell.runs.length === 0 ? '-' : format(Math.min(...cell.runs), figure.unit),
          cell.runs.length === 0 ? '-' : format(Math.max(...cell.runs), figure.unit),
          String(cell.runs.length),
          mid === null || ref === null || ref === 0 ? '-' : `${(mid / ref).toFixed(2)}x`,
          note.join('; '),
        ]);
      }
    }
    for (const [system, notes] of this.systemNotes) {
      const measured = [...this.cells.values()].some((bySystem) => bySystem.has(system));
      if (!measured) lines.push(['-', system, '-', '-', '-', '0', '-', notes.join('; ')]);
    }
    const text = [`### ${this.title}`, '', markdownTable(lines)];
    if (this.notes.length > 0) text.push('', ...this.notes.map((n) => `- ${n}`));
    return text.join('\n');
  }

  private cell(system: string, figure: Figure): Cell {
    this.figures.set(figure.name, figure);
    let bySystem = this.cells.get(figure.name);
    if (bySystem === undefined) this.cells.set(figure.name, (bySystem = new Map()));
    let cell = bySystem.get(system);
    if (cell === undefined) bySystem.set(system, (cell = { runs: [], errors: 0 }));
    return cell;
  }
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** The value at quantile `q` (0..1) of `sorted`, which must be sorted ascending. */
export function quantile(sorted: readonly number[], q: number): number {
  return sorted.length === 0 ? NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}

function format(v: number, unit: string): string {
  if (unit === 'ms' || unit === 'recall') return v.toFixed(unit === 'ms' ? 2 : 3);
  if (unit === 'µs') return v.toFixed(1);
  return Math.round(v).toLocaleString('en-US');
}
