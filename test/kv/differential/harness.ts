// Runs one seeded random command sequence against redis-server and Larder and compares every
// reply. Most replies compare as raw RESP2 bytes; the few that are legitimately different in
// form compare by a declared `Check`. After a mismatch both sides are flushed, so the rest of
// the sequence still compares from equal states, and the run reports every mismatch it saw.

import type { TestLarder } from '../../support/larder.js';
import { larderCall } from './larder-resp2.js';
import type { Rng } from './prng.js';
import { isRespError, parseResp, type RespClient, type RespValue } from './resp-client.js';
import { KEYS, type Times } from './alphabet.js';

export type Check =
  | 'exact' //     the same bytes
  | 'unordered' // an array of the same elements in any order (KEYS)
  | 'scan' //      argv[1] is a cursor: walk to the end on each side, compare the keys seen
  | 'time' //      TTL, PTTL, EXPIRETIME, PEXPIRETIME: equal, or both positive and close
  | 'nilness' //   both nil or both a string (RANDOMKEY)
  | 'sameLength'; // arrays of the same length, else as nilness (random picks: HRANDFIELD)

export interface Step {
  readonly argv: readonly string[];
  readonly check?: Check;
}

export interface CommandGen {
  readonly name: string;
  readonly weight: number;
  make(rng: Rng, times: Times): Step;
}

/** A documented case where Larder follows Upstash instead of Redis: such steps are not sent. */
export interface Exclusion {
  readonly command: string;
  readonly reason: string;
  applies(argv: readonly string[]): boolean;
}

export interface Sides {
  readonly redis: RespClient;
  readonly larder: TestLarder;
}

export interface RunOptions {
  readonly steps: number;
  readonly gens: readonly CommandGen[];
  readonly exclusions: readonly Exclusion[];
  readonly times: Times;
  readonly rng: Rng;
  /** Share of steps mutated into wrong-arity or syntax errors. */
  readonly errorRate: number;
}

export interface Mismatch {
  readonly step: number;
  readonly argv: readonly string[];
  readonly redis: string;
  readonly larder: string;
  readonly why: string;
  readonly before: readonly (readonly string[])[];
}

export interface RunResult {
  readonly mismatches: Mismatch[];
  readonly skipped: number;
  /** Steps run per command name. */
  readonly counts: Map<string, number>;
}

const MAX_MISMATCHES = 25;
const CONTEXT = 4;
// Replies of TTL-like commands may differ by the time between the two sides' requests.
const TIME_SLACK = { ttl: 2, pttl: 2000, expiretime: 2, pexpiretime: 2000 } as Record<string, number>;

/** The same command on both sides; `why` is set when they differ. */
interface Compared {
  readonly redis: string;
  readonly larder: string;
  readonly why?: string;
}

export async function runSequence(sides: Sides, opts: RunOptions): Promise<RunResult> {
  const { rng } = opts;
  const total = opts.gens.reduce((n, g) => n + g.weight, 0);
  const pickGen = () => {
    let r = rng.next() * total;
    for (const g of opts.gens) if ((r -= g.weight) < 0) return g;
    return opts.gens[opts.gens.length - 1];
  };
  const mismatches: Mismatch[] = [];
  const counts = new Map<string, number>();
  const history: (readonly string[])[] = [];
  let skipped = 0;
  for (let i = 0; i < opts.steps && mismatches.length < MAX_MISMATCHES; i++) {
    const gen = pickGen();
    const step = gen.make(rng, opts.times);
    const argv = rng.chance(opts.errorRate) ? mutate(rng, step.argv) : step.argv;
    if (opts.exclusions.some((e) => e.command === argv[0].toLowerCase() && e.applies(argv))) {
      skipped++;
      continue;
    }
    counts.set(gen.name, (counts.get(gen.name) ?? 0) + 1);
    const result = await compare(sides, argv, step.check ?? 'exact');
    if (result.why !== undefined) {
      mismatches.push({ step: i, argv, redis: result.redis, larder: result.larder, why: result.why, before: history.slice(-CONTEXT) });
      await resync(sides);
      history.length = 0;
    } else history.push(argv);
  }
  // The final state, key by key, catches differences no random read happened to look at.
  for (const key of KEYS) {
    for (const [argv, check] of [[['GET', key], 'exact'], [['PEXPIRETIME', key], 'time']] as const) {
      const result = await compare(sides, argv, check);
      if (result.why !== undefined) {
        mismatches.push({ step: opts.steps, argv, redis: result.redis, larder: result.larder, why: `final state: ${result.why}`, before: [] });
      }
    }
  }
  return { mismatches, skipped, counts };
}

/** A wrong-arity or syntax error most of the time: one argument dropped or one added. */
function mutate(rng: Rng, argv: readonly string[]): readonly string[] {
  return rng.chance(0.5) && argv.length > 1 ? argv.slice(0, -1) : [...argv, rng.pick(['junk', 'NX', '1'])];
}

async function resync(sides: Sides): Promise<void> {
  await sides.redis.call(['FLUSHDB']);
  await larderCall(sides.larder, ['FLUSHDB']);
}

async function compare(sides: Sides, argv: readonly string[], check: Check): Promise<Compared> {
  const redis = await sides.redis.call(argv);
  const { status, raw: larder } = await larderCall(sides.larder, argv);
  const statusWhy = status === (larder.startsWith('-') ? 400 : 200) ? undefined : `HTTP status ${status}`;
  if (check === 'scan' && !redis.startsWith('-') && !larder.startsWith('-')) {
    const walked = await compareScans(sides, argv, redis, larder);
    return { ...walked, why: walked.why ?? statusWhy };
  }
  const why = redis === larder ? undefined : checkLoose(check, argv, redis, larder);
  return { redis, larder, why: why ?? statusWhy };
}

/** Why two different replies are a mismatch under `check`; undefined when they are not. */
function checkLoose(check: Check, argv: readonly string[], redis: string, larder: string): string | undefined {
  const a = parseResp(redis);
  const b = parseResp(larder);
  if (isRespError(a) || isRespError(b)) return 'replies differ';
  switch (check) {
    case 'exact':
    case 'scan':
      return 'replies differ';
    case 'unordered':
      return Array.isArray(a) && Array.isArray(b) && sameElements(a, b) ? undefined : 'elements differ';
    case 'time': {
      const slack = TIME_SLACK[argv[0].toLowerCase()] ?? 0;
      const x = Number(integerOf(a));
      const y = Number(integerOf(b));
      return x >= 0 && y >= 0 && Math.abs(x - y) <= slack ? undefined : `times differ by more than ${slack}`;
    }
    case 'nilness':
      return (a === null) === (b === null) && (a === null || typeof b === 'string') ? undefined : 'one is nil';
    case 'sameLength':
      if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length ? undefined : 'lengths differ';
      // A mutated step may have lost its count: then as 'nilness'.
      return (a === null) === (b === null) && (a === null || typeof b === 'string') ? undefined : 'one is nil';
  }
}

function integerOf(v: RespValue): string {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && v.kind === 'integer' ? v.text : 'NaN';
}

function sameElements(a: readonly RespValue[], b: readonly RespValue[]): boolean {
  const key = (v: RespValue) => JSON.stringify(v);
  const x = a.map(key).sort();
  const y = b.map(key).sort();
  return x.length === y.length && x.every((k, i) => k === y[i]);
}

const MAX_SCAN_CALLS = 1000;

/** Walks a SCAN to cursor 0 on each side; the keys seen, deduplicated and sorted, must match. */
async function compareScans(sides: Sides, argv: readonly string[], redisFirst: string, larderFirst: string): Promise<Compared> {
  const walk = async (first: string, call: (argv: readonly string[]) => Promise<string>) => {
    const keys = new Set<string>();
    let raw = first;
    for (let calls = 0; calls < MAX_SCAN_CALLS; calls++) {
      const reply = parseResp(raw);
      if (!Array.isArray(reply) || reply.length !== 2 || typeof reply[0] !== 'string' || !Array.isArray(reply[1])) {
        return `bad SCAN reply ${JSON.stringify(raw)}`;
      }
      for (const k of reply[1]) keys.add(String(k));
      if (reply[0] === '0') return [...keys].sort();
      raw = await call([argv[0], reply[0], ...argv.slice(2)]);
    }
    return `SCAN did not end after ${MAX_SCAN_CALLS} calls`;
  };
  const redisKeys = await walk(redisFirst, (a) => sides.redis.call(a));
  const larderKeys = await walk(larderFirst, async (a) => (await larderCall(sides.larder, a)).raw);
  const redis = JSON.stringify(redisKeys);
  const larder = JSON.stringify(larderKeys);
  return { redis, larder, why: redis === larder ? undefined : 'keys seen over a full SCAN differ' };
}

/** The mismatches as a readable report, with the seed to replay them. */
export function describeMismatches(label: string, seed: number, steps: number, result: RunResult): string {
  const show = (argv: readonly string[]) => argv.map(quote).join(' ');
  const lines = [
    `${label}, seed ${seed} (replay with LARDER_DIFF_SEED=${seed}): ${result.mismatches.length} mismatch(es) in ${steps} steps`,
  ];
  for (const m of result.mismatches) {
    lines.push(`  step ${m.step}: ${show(m.argv)}  -- ${m.why}`);
    lines.push(`    redis:  ${quote(m.redis)}`);
    lines.push(`    larder: ${quote(m.larder)}`);
    if (m.before.length > 0) lines.push(`    after:  ${m.before.map(show).join(' | ')}`);
  }
  return lines.join('\n');
}

/** A byte string in double quotes: printable ASCII as is, other bytes as \r, \n or \xNN. */
function quote(bytes: string): string {
  let out = '"';
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes.charCodeAt(i);
    if (c === 0x0d) out += '\\r';
    else if (c === 0x0a) out += '\\n';
    else if (c === 0x22 || c === 0x5c) out += '\\' + bytes[i];
    else if (c >= 0x20 && c < 0x7f) out += bytes[i];
    else out += '\\x' + c.toString(16).padStart(2, '0');
  }
  return out + '"';
}
