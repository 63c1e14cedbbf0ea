// XADD and XTRIM, which share Redis's option grammar (streamParseAddOrTrimArgsOrReply), with
// Redis 8.2's KEEPREF | DELREF | ACKED anywhere among the options (the policy for consumer
// groups' references to the entries trimmed; the last one given counts).
// Both log what they did, not what they were asked: an auto id becomes the id picked and a
// trim with ~ or LIMIT the exact one it amounted to, as Redis propagates them. The policy is
// logged as given: replayed on the same state, the trim drops the same entries and references.
// `~` trims exactly to the threshold, as Upstash does (Redis removes whole nodes only); LIMIT
// still caps the entries one call removes. Recorded in the table's `deviates`.

import { KeyEvent } from '../../engine/pubsub/keyspace-events.js';
import type { TrimBy } from '../../engine/stream/entry-store.js';
import { formatId, makeId, MAX_ID, msOf, seqOf, U64_MAX, type StreamId } from '../../engine/stream/stream-id.js';
import { StreamValue, STREAM_KIND, type RefPolicy } from '../../engine/stream/stream-value.js';
import {
  STREAM_LIMIT_NEGATIVE,
  LIMIT_WITHOUT_APPROX,
  LIMIT_WITHOUT_TRIM,
  MAXLEN_AND_MINID,
  MAXLEN_NEGATIVE,
  NOT_INTEGER,
  ReplyError,
  STREAM_EXHAUSTED,
  SYNTAX,
  wrongArity,
  XADD_ID_TOO_SMALL,
  XADD_ID_ZERO,
  XTRIM_NO_STRATEGY,
} from '../../errors.js';
import type { Reply } from '../../reply.js';
import { parseInteger } from '../args.js';
import { unchanged, type Args, type Ctx } from '../spec.js';
import { writeTyped } from '../typed.js';
import { parseIdArg, type AddId } from './ids.js';
import { readStream } from './lookup.js';
import { isRefPolicy } from './ref-policy.js';

interface TrimArgs {
  by: TrimBy | null;
  approx: boolean;
  limit: number;
  policy: RefPolicy;
  /** Where the threshold and the ~ or = before it (if any) sit, and where LIMIT does. */
  thresholdAt: number;
  approxAt: number;
  limitAt: number;
  noMkStream: boolean;
  /** XADD's id; undefined for '*'. */
  id: AddId | undefined;
  /** XADD: where the id sits (fields follow it). */
  idAt: number;
}

function readTrimArgs(argv: Args, xadd: boolean): TrimArgs | ReplyError {
  const t: TrimArgs = {
    by: null,
    approx: false,
    limit: 0,
    policy: 'keepref',
    thresholdAt: -1,
    approxAt: -1,
    limitAt: -1,
    noMkStream: false,
    id: undefined,
    idAt: -1,
  };
  let i = 2;
  for (; i < argv.length; i++) {
    const more = argv.length - 1 - i;
    const opt = argv[i].toLowerCase();
    if (xadd && argv[i] === '*') break;
    if ((opt === 'maxlen' || opt === 'minid') && more > 0) {
      if (t.by !== null) return MAXLEN_AND_MINID;
      t.approx = false;
      t.approxAt = -1;
      if (more >= 2 && (argv[i + 1] === '~' || argv[i + 1] === '=')) {
        t.approx = argv[i + 1] === '~';
        t.approxAt = ++i;
      }
      const text = argv[++i];
      if (opt === 'maxlen') {
        const n = parseInteger(text);
        if (n === undefined) return NOT_INTEGER;
        if (n < 0) return MAXLEN_NEGATIVE;
        t.by = { maxlen: n };
      } else {
        const id = parseIdArg(text, 0n, true);
        if (id instanceof ReplyError) return id;
        t.by = { minid: id.id };
      }
      t.thresholdAt = i;
    } else if (opt === 'limit' && more > 0) {
      const n = parseInteger(argv[i + 1]);
      if (n === undefined) return NOT_INTEGER;
      if (n < 0) return STREAM_LIMIT_NEGATIVE;
      t.limit = n;
      t.limitAt = i++;
    } else if (xadd && opt === 'nomkstream') {
      t.noMkStream = true;
    } else if (isRefPolicy(opt)) {
      t.policy = opt;
    } else if (xadd) {
      const id = parseIdArg(argv[i], 0n, true, true);
      if (id instanceof ReplyError) return id;
      t.id = id;
      break;
    } else return SYNTAX;
  }
  t.idAt = i;
  if (t.limit !== 0 && t.by === null) return LIMIT_WITHOUT_TRIM;
  if (!xadd && t.by === null) return XTRIM_NO_STRATEGY;
  if (t.limitAt >= 0 && !t.approx) return LIMIT_WITHOUT_APPROX;
  return t;
}

/** Trims as asked; returns how many entries went. */
function trim(s: StreamValue, t: TrimArgs): number {
  return t.by === null ? 0 : s.trim(t.by, t.limit, t.policy);
}

/**
 * The argv to log for a trim: one with ~ becomes the exact trim it amounted to, without LIMIT:
 * MAXLEN the length left, MINID the first entry it left that the policy lets go (ACKED may
 * have passed over entries before it).
 */
function exactTrimArgv(argv: Args, s: StreamValue, t: TrimArgs): string[] {
  const out = [...argv];
  if (t.approx && t.by !== null) {
    out[t.approxAt] = '=';
    out[t.thresholdAt] = 'maxlen' in t.by ? String(s.length) : formatId(s.firstTrimmable(t.policy));
  }
  if (t.limitAt >= 0) out.splice(t.limitAt, 2);
  return out;
}

// XADD key [NOMKSTREAM] [KEEPREF | DELREF | ACKED] [<MAXLEN | MINID> [= | ~] threshold [LIMIT count]] <* | id> field value [field value ...]
export function xaddCommand(ctx: Ctx, argv: Args): Reply {
  const t = readTrimArgs(argv, true);
  if (t instanceof ReplyError) return t;
  const fields = argv.length - t.idAt - 1;
  if (fields < 2 || fields % 2 === 1) return wrongArity('xadd');
  if (t.id !== undefined && t.id.seqGiven && t.id.id === 0n) return XADD_ID_ZERO;
  const found = readStream(ctx.ks, argv[1]);
  if (found instanceof ReplyError) return found;
  if (found === undefined && t.noMkStream) return unchanged(ctx, null);
  if (found !== undefined && found.lastId === MAX_ID) return STREAM_EXHAUSTED;
  const last = found?.lastId ?? 0n;
  const id = nextId(last, t.id, ctx.ks.now());
  if (id <= last) return XADD_ID_TOO_SMALL;
  const s = found ?? (writeTyped(ctx.ks, argv[1], STREAM_KIND, () => new StreamValue()) as StreamValue);
  s.append(id, argv.slice(t.idAt + 1));
  ctx.events.notify(KeyEvent.stream, 'xadd', argv[1]);
  if (trim(s, t) > 0) ctx.events.notify(KeyEvent.stream, 'xtrim', argv[1]);
  const logged = exactTrimArgv(argv, s, t);
  logged[t.idAt - (t.limitAt >= 0 && t.limitAt < t.idAt ? 2 : 0)] = formatId(id);
  ctx.rewrite([logged]);
  return formatId(id);
}

/** Redis's id choice: an explicit id as is, "<ms>-*" after the last id, '*' from the clock. */
function nextId(last: StreamId, given: AddId | undefined, now: number): StreamId {
  if (given !== undefined) {
    if (given.seqGiven || msOf(given.id) !== msOf(last)) return given.id;
    return seqOf(last) === U64_MAX ? last : last + 1n; // no sequence left: refused as not above last
  }
  const ms = BigInt(now);
  return ms > msOf(last) ? makeId(ms, 0n) : last + 1n;
}

// XTRIM key <MAXLEN | MINID> [= | ~] threshold [LIMIT count] [KEEPREF | DELREF | ACKED]
export function xtrimCommand(ctx: Ctx, argv: Args): Reply {
  const t = readTrimArgs(argv, false);
  if (t instanceof ReplyError) return t;
  const s = readStream(ctx.ks, argv[1]);
  if (s instanceof ReplyError) return s;
  if (s === undefined) return unchanged(ctx, 0);
  const deleted = trim(s, t);
  if (deleted === 0) return unchanged(ctx, 0);
  ctx.events.notify(KeyEvent.stream, 'xtrim', argv[1]);
  ctx.rewrite([exactTrimArgv(argv, s, t)]);
  return deleted;
}
