// Which keyless commands a Cluster client runs on every node, and how it merges their replies:
// the server says so itself, in the tips of its COMMAND reply (Redis 7.0's request_policy and
// response_policy), so this reads them once rather than keeping a list of names. DBSIZE sums
// the masters' counts, FLUSHALL and SCRIPT LOAD must succeed on each, KEYS concatenates, and
// RANDOMKEY answers the first key any master has. A `special` policy is not followed: SCAN
// walks the masters in turn (cluster-scan.ts); INFO goes to one node, as ioredis sends any
// keyless command.

import { ReplyError } from '../errors.js';
import { Status, type Reply } from '../reply.js';

export type Merge = 'all_succeeded' | 'one_succeeded' | 'agg_sum' | 'agg_min' | 'agg_max' | 'agg_logical_and' | 'agg_logical_or' | 'default';

export interface ShardPolicy {
  /** `masters` for request_policy:all_shards, `all` (replicas too) for all_nodes. */
  readonly nodes: 'masters' | 'all';
  readonly merge: Merge;
}

/** Policies by lower-case command name, or `container|subcommand` (`script|load`). */
export type ShardPolicies = ReadonlyMap<string, ShardPolicy>;

const MERGES: readonly string[] = ['all_succeeded', 'one_succeeded', 'agg_sum', 'agg_min', 'agg_max', 'agg_logical_and', 'agg_logical_or'];

/** Reads the policies from the reply of COMMAND (each entry: name, ..., tips at 7, subcommands at 9). */
export function readShardPolicies(commandReply: unknown): ShardPolicies {
  const policies = new Map<string, ShardPolicy>();
  const visit = (entry: unknown) => {
    if (!Array.isArray(entry)) return;
    const name = String(entry[0]).toLowerCase();
    const tips = (Array.isArray(entry[7]) ? entry[7] : []).map(textOf);
    const request = tips.find((t) => t.startsWith('request_policy:'))?.slice('request_policy:'.length);
    const response = tips.find((t) => t.startsWith('response_policy:'))?.slice('response_policy:'.length);
    if ((request === 'all_shards' || request === 'all_nodes') && response !== 'special') {
      const merge = (response === undefined ? 'default' : MERGES.includes(response) ? response : undefined) as Merge | undefined;
      if (merge !== undefined) policies.set(name, { nodes: request === 'all_shards' ? 'masters' : 'all', merge });
    }
    if (Array.isArray(entry[9])) for (const sub of entry[9]) visit(sub);
  };
  if (Array.isArray(commandReply)) for (const entry of commandReply) visit(entry);
  return policies;
}

/** A tip is a simple string (Status); a name, a bulk string. */
const textOf = (v: unknown): string => (v instanceof Status ? v.text : String(v));

/** The policy of a command line, by its subcommand first (`script|flush`), then its name. */
export function policyOf(policies: ShardPolicies, name: string, subcommand: string | undefined): ShardPolicy | undefined {
  if (subcommand !== undefined) {
    const sub = policies.get(`${name}|${subcommand.toLowerCase()}`);
    if (sub !== undefined) return sub;
  }
  return policies.get(name);
}

/** One reply from every node's reply, as the policy says; an error (the first) wins unless one_succeeded. */
export function mergeReplies(merge: Merge, replies: readonly Reply[]): Reply {
  const ok = replies.filter((r) => !(r instanceof ReplyError));
  if (merge === 'one_succeeded') return ok[0] ?? replies[0];
  if (ok.length < replies.length) return replies.find((r) => r instanceof ReplyError)!;
  switch (merge) {
    case 'all_succeeded':
      return replies[0];
    case 'agg_sum':
      return combine(replies, (a, b) => a + b);
    case 'agg_min':
      return combine(replies, (a, b) => (a < b ? a : b));
    case 'agg_max':
      return combine(replies, (a, b) => (a > b ? a : b));
    case 'agg_logical_and':
      return combine(replies, (a, b) => (a !== 0n && b !== 0n ? 1n : 0n));
    case 'agg_logical_or':
      return combine(replies, (a, b) => (a !== 0n || b !== 0n ? 1n : 0n));
    case 'default':
      // Arrays (KEYS) are concatenated; otherwise any node's answer (RANDOMKEY: a key of any).
      if (replies.every(Array.isArray)) return (replies as Reply[][]).flat();
      return replies.find((r) => r !== null) ?? null;
  }
}

/** Integers combined across the nodes, element by element when the replies are arrays (SCRIPT EXISTS). */
function combine(replies: readonly Reply[], op: (a: bigint, b: bigint) => bigint): Reply {
  if (replies.every(Array.isArray)) {
    const arrays = replies as Reply[][];
    return arrays[0].map((_, i) => combine(arrays.map((a) => a[i]), op));
  }
  const total = replies.map((r) => BigInt(r as number | bigint)).reduce(op);
  const n = Number(total);
  return Number.isSafeInteger(n) ? n : total;
}
