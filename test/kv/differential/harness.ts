// Runs one seeded random command sequence against redis-server and Larder and compares every
// reply. Most replies compare as raw RESP2 bytes; the few that are legitimately different in
// form compare by a declared `Check`. After a mismatch both sides are flushed, so the rest of
// the sequence still compares from equal states, and the run reports every mismatch it saw.

import type { KvClient } from '../../support/larder.js';
import { larderCall } from './larder-resp2.js';
import type { Rng } from './prng.js';
import { isRespError, parseResp, type RespClient, type RespValue } from './resp-client.js';
import { anyCase, KEYS, type Times } from './alphabet.js';
import { checkDraw } from './draw-check.js';

export type Check =
  | 'exact' //     the same bytes
  | 'unordered' // an array of the same elements in any order (KEYS)
  | 'scan' //      argv[1] is a cursor: walk to the end on each side, compare the keys seen
  | 'keyscan' //   the same with the cursor at argv[2], after the key (SSCAN)
  | 'draw' //      members drawn at random from the set at argv[1] (SRANDMEMBER, SPOP: draw-check.ts)
  | 'time' //      TTL, PTTL, EXPIRETIME, PEXPIRETIME: equal, or both non-negative and close
  | 'nilness' //   both nil or both a string (RANDOMKEY)
  | 'sample' //    a random pick (ZRANDMEMBER): the same shape, every pick from `Step.sample`
  | 'sameLength'; // arrays of the same length, else as nilness (random picks: HRANDFIELD)

/** What a random pick draws from, for the 'sample' check. */
export interface Sample {
  /** Reads the whole population on redis-server after the pick, e.g. ZRANGE k 0 -1 WITHSCORES. */
  readonly population: readonly string[];
  /** Elements per population entry (2: member and score), and per pick (1 without scores). */
  readonly entryWidth: 1 | 2;
  readonly pickWidth: 1 | 2;
  /** Whether the picks must all differ (a positive count). */
  readonly distinct: boolean;
}

export interface Step {
  readonly argv: readonly string[];
  readonly check?: Check;
  /** For 'sample', from the argv as sent (a step may have been mutated). */
  readonly sample?: (argv: readonly string[]) => Sample;
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
  readonly larder: KvClient;
  /**
   * The index of the oracle's that stands for Larder's database, selected on its connection,
   * when other runs keep their data in its other indexes: see `oracleForm`.
   */
  readonly index?: number;
}

/**
 * A command as the oracle runs it. Where the run has an index of its own, FLUSHALL, which would
 * empty the other runs' indexes too, goes as FLUSHDB, and COPY's DB 0 names the run's index:
 * what Larder's FLUSHALL and DB 0 mean, its one database.
 */
function oracleForm(argv: readonly string[], index: number | undefined): readonly string[] {
  if (index === undefined) return argv;
  const name = argv[0].toUpperCase();
  if (name === 'FLUSHALL') return ['FLUSHDB', ...argv.slice(1)];
  if (name !== 'COPY') return argv;
  return argv.map((a, i) => (i > 3 && a === '0' && argv[i - 1].toUpperCase() === 'DB' ? String(index) : a));
}

export interface RunOptions {
  readonly steps: number;
  readonly gens: readonly CommandGen[];
  readonly exclusions: readonly Exclusion[];
  readonly times: Times;
  readonly rng: Rng;
  /** Share of steps mutated into wrong-arity or syntax errors. */
  readonly errorRate: number;
  /** Reads of every key at the end; FINAL_READS when not given. */
  readonly finalReads?: readonly FinalRead[];
  /**
   * Compares what else the step (`argv`, as sent) did on both sides (the keyspace events it
   * published), after replies that matched: why they differ, as two descriptions, or undefined.
   */
  readonly alsoCompare?: (argv: readonly string[]) => Promise<{ why: string; redis: string; larder: string } | undefined>;
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
/**
 * What is read of every key at the end of a run: the command before the key, how it compares,
 * and any arguments after the key.
 */
export type FinalRead = readonly [readonly string[], Check, (readonly string[])?];
export const FINAL_READS: readonly FinalRead[] = [
  [['GET'], 'exact'],
  [['PEXPIRETIME'], 'time'],
  [['SMEMBERS'], 'unordered'],
];
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
    const sent = rng.chance(opts.errorRate) ? mutate(rng, step.argv) : step.argv;
    const argv = [anyCase(rng, sent[0]), ...sent.slice(1)];
    if (opts.exclusions.some((e) => e.command === argv[0].toLowerCase() && e.applies(argv))) {
      skipped++;
      continue;
    }
    counts.set(gen.name, (counts.get(gen.name) ?? 0) + 1);
    let result: Compared = await compare(sides, argv, step.check ?? 'exact', step.sample?.(argv));
    if (result.why === undefined && opts.alsoCompare !== undefined) result = (await opts.alsoCompare(argv)) ?? result;
    if (result.why !== undefined) {
      mismatches.push({ step: i, argv, redis: result.redis, larder: result.larder, why: result.why, before: history.slice(-CONTEXT) });
      await resync(sides);
      history.length = 0;
    } else history.push(argv);
  }
  mismatches.push(...(await compareState(sides, opts.steps, 'final state', opts.finalReads)));
  return { mismatches, skipped, counts };
}

/**
 * Every key's value (FINAL_READS), and the key count: catches differences no random read
 * happened to look at, and, after a restart, anything the log did not bring back.
 */
export async function compareState(sides: Sides, step: number, label: string, finalReads = FINAL_READS): Promise<Mismatch[]> {
  const reads: [readonly string[], Check][] = [[['DBSIZE'], 'exact']];
  for (const key of KEYS) for (const [command, check, after = []] of finalReads) reads.push([[...command, key, ...after], check]);
  const mismatches: Mismatch[] = [];
  for (const [argv, check] of reads) {
    const result = await compare(sides, argv, check);
    if (result.why !== undefined) {
      mismatches.push({ step, argv, redis: result.redis, larder: result.larder, why: `${label}: ${result.why}`, before: [] });
    }
  }
  return mismatches;
}

/** A wrong-arity or syntax error most of the time: one argument dropped or one added. */
function mutate(rng: Rng, argv: readonly string[]): readonly string[] {
  return rng.chance(0.5) && argv.length > 1 ? argv.slice(0, -1) : [...argv, rng.pick(['junk', 'NX', '1'])];
}

async function resync(sides: Sides): Promise<void> {
  await sides.redis.call(['FLUSHDB']);
  await larderCall(sides.larder, ['FLUSHDB']);
}

async function compare(sides: Sides, argv: readonly string[], check: Check, sample?: Sample): Promise<Compared> {
  const [redis, { status, raw: larder }] = await Promise.all([sides.redis.call(oracleForm(argv, sides.index)), larderCall(sides.larder, argv)]);
  const statusWhy = status === (larder.startsWith('-') ? 400 : 200) ? undefined : `HTTP status ${status}`;
  if ((check === 'scan' || check === 'keyscan') && !redis.startsWith('-') && !larder.startsWith('-')) {
    const walked = await compareScans(sides, argv, check === 'scan' ? 1 : 2, redis, larder);
    return { ...walked, why: walked.why ?? statusWhy };
  }
  if (check === 'draw') return { redis, larder, why: (await checkDraw(sides, argv, redis, larder)) ?? statusWhy };
  if (check === 'sample' && sample !== undefined && redis !== larder && !redis.startsWith('-') && !larder.startsWith('-')) {
    const [a, b] = [parseResp(redis), parseResp(larder)];
    const population = parseResp(await sides.redis.call(sample.population));
    const sameShape = Array.isArray(a) ? Array.isArray(b) && a.length === b.length : !Array.isArray(b) && typeof a === typeof b;
    const why = sameShape ? (checkSample(a, sample, population) ?? checkSample(b, sample, population)) : 'picks differ in shape';
    return { redis, larder, why: why ?? statusWhy };
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
    case 'keyscan':
    case 'draw':
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
    case 'sample':
      return 'replies differ';
    case 'sameLength':
      if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length ? undefined : 'lengths differ';
      // A mutated step may have lost its count: then as 'nilness'.
      return (a === null) === (b === null) && (a === null || typeof b === 'string') ? undefined : 'one is nil';
  }
}

/** Why `pick` is not a valid random pick from `population`; undefined when it is. */
function checkSample(pick: RespValue, sample: Sample, population: RespValue): string | undefined {
  const entries: RespValue[][] = [];
  const all = Array.isArray(population) ? population : [];
  for (let i = 0; i < all.length; i += sample.entryWidth) entries.push(all.slice(i, i + sample.entryWidth));
  const drawn = (p: RespValue[]) => entries.some((e) => p.every((v, i) => v === e[i]));
  if (pick === null) return entries.length === 0 ? undefined : 'nil from a non-empty population';
  if (typeof pick === 'string') return drawn([pick]) ? undefined : `${JSON.stringify(pick)} is not in the population`;
  if (!Array.isArray(pick) || pick.length % sample.pickWidth !== 0) return 'not an array of picks';
  const seen = new Set<RespValue>();
  for (let i = 0; i < pick.length; i += sample.pickWidth) {
    const p = pick.slice(i, i + sample.pickWidth);
    if (!drawn(p)) return `${JSON.stringify(p)} is not in the population`;
    if (sample.distinct && seen.has(p[0])) return `${JSON.stringify(p[0])} picked twice`;
    seen.add(p[0]);
  }
  return undefined;
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

// Enough for COUNT 1 over the largest sets the set family builds (a few thousand members).
const MAX_SCAN_CALLS = 5000;

/** Walks a SCAN to cursor 0 on each side; the keys seen, deduplicated and sorted, must match. */
async function compareScans(sides: Sides, argv: readonly string[], cursorAt: number, redisFirst: string, larderFirst: string): Promise<Compared> {
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
      raw = await call([...argv.slice(0, cursorAt), reply[0], ...argv.slice(cursorAt + 1)]);
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
