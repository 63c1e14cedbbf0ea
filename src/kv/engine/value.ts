// What a key holds. A string value is its byte string itself (the most common value costs no
// wrapper); every other type is a Container that knows its kind. Each container kind
// registers how to copy and serialize it, so COPY, DUMP/RESTORE and snapshots need no switch
// over types and a new type slots in by registering.

export type TypeName = 'string' | 'hash' | 'list' | 'set' | 'zset' | 'stream' | 'ReJSON-RL';

export interface Container {
  readonly kind: ContainerKind;
  /**
   * When the first of its members with an expiry of their own (hash fields with a TTL)
   * expires, in ms since the epoch; 0 or absent when none has one.
   */
  readonly memberExpiry?: number;
}

export type Value = string | Container;

export interface ContainerKind {
  /** The TYPE command's answer. */
  readonly type: Exclude<TypeName, 'string'>;
  /** One byte naming the kind in DUMP payloads and snapshots; never reused. */
  readonly tag: number;
  clone(v: Container): Container;
  /** Serializes to a byte string. */
  encode(v: Container): string;
  /** The inverse of `encode`; null when the bytes are not a valid encoding. */
  decode(bytes: string): Container | null;
  /**
   * What Redis 7.0's MEMORY USAGE would count for this value, the key aside (its
   * objectComputeSize; see redis-memory.ts), sampling `samples` elements of an aggregate (0: all).
   */
  memoryUsage(v: Container, samples: number): number;
  /** What Redis's OBJECT ENCODING would answer for this value (listpack, hashtable, ...); the type name if absent. */
  encoding?(v: Container): string;
  /**
   * Deletes the members whose expiry is at or before `now` and says how to log that (HDEL key
   * field...) and how many members are left. Kinds whose members can expire implement it.
   */
  expireMembers?(v: Container, key: string, now: number): ExpiredMembers;
}

export interface ExpiredMembers {
  /** The command that replays the deletion. */
  readonly log: readonly string[];
  /** Members left; the key is deleted when none is. */
  readonly left: number;
}

export const STRING_TAG = 0;
const kinds = new Map<number, ContainerKind>();

export function registerKind(kind: ContainerKind): ContainerKind {
  if (kinds.has(kind.tag) || kind.tag === STRING_TAG) throw new Error(`value tag ${kind.tag} registered twice`);
  kinds.set(kind.tag, kind);
  return kind;
}

export function kindByTag(tag: number): ContainerKind | undefined {
  return kinds.get(tag);
}

export function typeName(v: Value): TypeName {
  return typeof v === 'string' ? 'string' : v.kind.type;
}

export function cloneValue(v: Value): Value {
  return typeof v === 'string' ? v : v.kind.clone(v);
}
