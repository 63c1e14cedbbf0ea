// The per-family workload of issue 4: ops/s of sorted-set and list operations on structures of
// 10k, 100k and 1M items, once on the engine in-process (a Database driven by execute(), no
// HTTP, no journal) and once over HTTP against Larder on Bun, loaded by wrk with keep-alive
// connections. One table per mode: a row per operation, a column per size. Rank, range and
// push/pop should stay flat as the structures grow (O(log n) or O(1) each).
//
// In-process, ops/s counts the bench process's CPU time rather than the wall clock, and over
// HTTP a second table gives the server's CPU time per operation: on a shared machine both move
// far less with other load than throughput does. Each table row is one operation at one size,
// with the median, min and max over the rounds and the ratio to the smallest size.
//
// The structures of every size are built first and stay, so every cell runs with the same heap
// (the garbage collector's work grows with it) and only the structure's own size differs; the
// sizes of one operation run back to back, so that load from elsewhere on a shared machine
// moves a row less than a column. Each cell runs for a fixed time. In-process, commands are
// prepared in batches outside the measured time and only execute() is timed; over HTTP, wrk
// posts prepared JSON bodies.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AclRegistry } from '../src/kv/acl/registry.js';
import { COMMANDS } from '../src/kv/commands/table.js';
import { Database, SYSTEM_CALLER } from '../src/kv/database.js';
import { ReplyError } from '../src/kv/errors.js';
import { cpuMicros } from './cpu-time.js';
import { Summary } from './summary.js';
import { build, OPS, type Command, type Op } from './family-ops.js';
import { label } from './size-label.js';
import { bunPath, startLarder, type LarderServer } from './targets.js';
import { bodiesScript } from './wrk-bodies.js';
import { runWrk, type Load } from './wrk.js';
import { Xorshift } from './xorshift.js';

export interface FamiliesOptions {
  readonly sizes: readonly number[];
  /** Measured seconds per cell. */
  readonly seconds: number;
  /** Seconds of HTTP load before the first measured cell, so Bun's JIT has compiled the path. */
  readonly warmup: number;
  readonly threads: number;
  readonly connections: number;
  /** Modes to run: 'engine', 'http'. */
  readonly modes: readonly string[];
  /** Runs of each cell, one after the other. */
  readonly rounds: number;
}

export const FAMILY_MODES = ['engine', 'http'];

const SEED = 0x5eed4;
const ENGINE_UNITS = 500; //        units of work per timed in-process batch
const ENGINE_WARMUP_SHARE = 0.2; // of a cell, run first and not counted
// Bodies prepared per second of an HTTP cell: above what Larder serves on a small machine, so
// that every "ZADD new member" inserts a member not seen before.
const PREPARED_PER_SECOND = 80_000;

interface Cell {
  readonly rate: number;
  /** Answers that were not 2xx, HTTP only. */
  readonly errors: number;
  /** Server CPU time per operation, HTTP only. */
  readonly cpuUs: number | null;
}

/** Per operation, the runs of each size; and notes on cells that went wrong. */
interface Results {
  readonly cells: Map<string, Cell[][]>;
  readonly notes: string[];
}

/** Runs the modes and answers their tables as Markdown. */
export async function benchFamilies(root: string, opts: FamiliesOptions): Promise<string> {
  const sizes = [...opts.sizes].sort((a, b) => a - b);
  const out: string[] = [];
  if (opts.modes.includes('engine')) {
    process.stderr.write('families: engine in-process\n');
    const results = benchEngine(sizes, opts);
    const title = `In-process engine (node ${process.version}, no journal), ops per second of CPU time, ${cellsText(opts)}`;
    out.push(table(title, sizes, results, 'ops/CPU-s', (c) => c.rate));
  }
  if (opts.modes.includes('http')) {
    process.stderr.write('families: HTTP, Larder on bun\n');
    const load: Load = { seconds: opts.seconds, threads: opts.threads, connections: opts.connections };
    const results = await benchHttp(root, sizes, opts, load);
    const how = `POST of one command per request, wrk -t${load.threads} -c${load.connections}, ${cellsText(opts)}`;
    out.push(table(`HTTP, Larder on Bun: ops/s (${how})`, sizes, results, 'ops/s', (c) => c.rate));
    out.push(table('HTTP, Larder on Bun: server CPU time per operation', sizes, results, 'µs', (c) => c.cpuUs));
  }
  return out.join('\n\n');
}

function benchEngine(sizes: readonly number[], opts: FamiliesOptions): Results {
  const db = new Database('bench', new AclRegistry('bench-token', 'bench-read-only-token', COMMANDS), 'node');
  const run = (command: Command) => {
    const reply = db.execute(command, SYSTEM_CALLER);
    if (reply instanceof ReplyError) throw new Error(`${command.slice(0, 4).join(' ')}: ${reply.text}`);
  };
  const results = newResults(sizes);
  const rng = new Xorshift(SEED);
  for (const n of sizes) for (const command of build(n)) run(command);
  for (const op of OPS) {
    for (let round = 1; round <= opts.rounds; round++) {
      sizes.forEach((n, column) => {
        process.stderr.write(`  ${op.name}: ${label(n)}, round ${round}\n`);
        results.cells.get(op.name)![column].push({ rate: engineRate(op, n, rng, opts.seconds, run), errors: 0, cpuUs: null });
      });
    }
  }
  return results;
}

/** Commands per CPU second of `op`, timing only execute() over batches prepared beforehand. */
function engineRate(op: Op, n: number, rng: Xorshift, seconds: number, run: (c: Command) => void): number {
  let warm = seconds * ENGINE_WARMUP_SHARE * 1e6;
  let spent = 0; // µs
  let done = 0;
  while (spent < seconds * 1e6) {
    const batch: Command[] = [];
    for (let u = 0; u < ENGINE_UNITS; u++) batch.push(...op.next(rng, n));
    const t0 = process.cpuUsage();
    for (const command of batch) run(command);
    const t1 = process.cpuUsage(t0);
    const elapsed = t1.user + t1.system;
    if (op.undo !== undefined) for (const command of op.undo(batch)) run(command);
    if (warm > 0) warm -= elapsed;
    else {
      spent += elapsed;
      done += batch.length;
    }
  }
  return done / (spent / 1e6);
}

async function benchHttp(root: string, sizes: readonly number[], opts: FamiliesOptions, load: Load): Promise<Results> {
  const results = newResults(sizes);
  const server = await startLarder(root, bunPath(root), 'bun');
  const dir = mkdtempSync(join(tmpdir(), 'larder-bench-families-'));
  const rng = new Xorshift(SEED);
  try {
    for (const n of sizes) for (const command of build(n)) await send(server, command);
    if (opts.warmup > 0) {
      const mixed = prepare(OPS, rng, sizes[0], opts.warmup * PREPARED_PER_SECOND);
      await runWrk(server.base, server.headers, { ...load, seconds: opts.warmup }, bodiesScript(dir, mixed.commands, load.threads));
      for (const command of mixed.undo) await send(server, command);
    }
    for (const op of OPS) {
      for (let round = 1; round <= opts.rounds; round++) {
        for (const [column, n] of sizes.entries()) {
          process.stderr.write(`  ${op.name}: ${label(n)}, round ${round}\n`);
          try {
            results.cells.get(op.name)![column].push(await httpCell(server, dir, op, n, rng, load, results.notes));
          } catch (e) {
            results.notes.push(`${op.name} at ${label(n)}: failed: ${e instanceof Error ? e.message : String(e)}`);
          }
        }
      }
    }
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return results;
}

/** One wrk run of `op` on the structures of size `n`, with the server's CPU time per request. */
async function httpCell(server: LarderServer, dir: string, op: Op, n: number, rng: Xorshift, load: Load, notes: string[]): Promise<Cell> {
  // One unit first, through fetch, to see the commands answer without an error.
  for (const command of op.next(rng, n)) await sendChecked(server, op, command);
  const prepared = prepare([op], rng, n, load.seconds * PREPARED_PER_SECOND);
  const script = bodiesScript(dir, prepared.commands, load.threads);
  const before = cpuMicros([server.pid]);
  const result = await runWrk(server.base, server.headers, load, script);
  const after = cpuMicros([server.pid]);
  for (const command of prepared.undo) await send(server, command);
  if (result.problems !== '') notes.push(`${op.name} at ${label(n)}: ${result.problems}`);
  if (op.undo !== undefined && result.requests > prepared.commands.length) {
    notes.push(`${op.name} at ${label(n)}: ${result.requests} requests for ${prepared.commands.length} new members, the rest re-added them`);
  }
  const cpuUs = before === null || after === null || result.requests === 0 ? null : (after - before) / result.requests;
  return { rate: result.rps, errors: result.errors, cpuUs };
}

/** About `count` commands taking turns over `ops`, and the commands that undo them. */
function prepare(ops: readonly Op[], rng: Xorshift, n: number, count: number): { commands: Command[]; undo: Command[] } {
  const commands: Command[] = [];
  const byOp = ops.map((): Command[] => []);
  for (let k = 0; commands.length < count; k++) {
    const unit = ops[k % ops.length].next(rng, n);
    commands.push(...unit);
    byOp[k % ops.length].push(...unit);
  }
  return { commands, undo: ops.flatMap((op, i) => op.undo?.(byOp[i]) ?? []) };
}

// An op's commands are created by its own `next`, so an error answer means the bench is wrong.
async function sendChecked(server: LarderServer, op: Op, command: Command): Promise<void> {
  await send(server, command);
  for (const undo of op.undo?.([command]) ?? []) await send(server, undo);
}

async function send(server: LarderServer, command: Command): Promise<void> {
  const res = await fetch(server.base, { method: 'POST', headers: server.headers, body: JSON.stringify(command) });
  const body = await res.text();
  if (res.status !== 200) throw new Error(`${command.slice(0, 4).join(' ')} answered ${res.status} ${body.slice(0, 120)}`);
}

function newResults(sizes: readonly number[]): Results {
  return { cells: new Map(OPS.map((op) => [op.name, sizes.map((): Cell[] => [])])), notes: [] };
}

function cellsText(opts: FamiliesOptions): string {
  return `${opts.seconds} s per cell, ${opts.rounds} round(s)`;
}

/** One value of the cells as a table: a row per operation and size, against the smallest size. */
function table(title: string, sizes: readonly number[], results: Results, unit: string, value: (c: Cell) => number | null): string {
  const summary = new Summary(title, label(sizes[0]), 'size');
  for (const [name, columns] of results.cells) {
    columns.forEach((runs, column) => {
      for (const cell of runs) {
        const v = value(cell);
        if (v !== null) summary.add(label(sizes[column]), { name, unit }, v, cell.errors);
      }
    });
  }
  summary.notes.push(...results.notes);
  return summary.render();
}
