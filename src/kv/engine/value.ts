// What a key holds. A string value is its byte string itself (the most common value costs no
// wrapper), or a Container when edited in place (editable-string.ts); every other type is a
// Container that knows its kind. Each container kind
// registers how to copy and serialize it, so COPY, DUMP/RESTORE and snapshots need no switch
// over types and a new type slots in by registering.
// A kind may also fold a small container into one string (`fold`/`unfold`): between commands
// the keyspace keeps that string in the key's slot, tagged with the kind, so the most common
// small containers cost no object either (issue 20; keyspace.ts says when it folds).

export type TypeName = 'string' | 'hash' | 'list' | 'set' | 'zset' | 'stream' | 'ReJSON-RL' | 'vector' | 'array';

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
  /** The TYPE command's answer ('string' only for a string edited in place, editable-string.ts). */
  readonly type: TypeName;
  /** One byte naming the kind in DUMP payloads and snapshots; never reused (but by editable-string.ts). */
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
  /** The container as one string while it is small enough to scan whole, else null. Kinds that fold have tags below FOLDED_TAGS. */
  fold?(v: Container): string | null;
  /** The container that `fold` gave `folded` for. */
  unfold?(folded: string): Container;
}

export interface ExpiredMembers {
  /** The command that replays the deletion. */
  readonly log: readonly string[];
  /** Members left; the key is deleted when none is. */
  readonly left: number;
}

export const STRING_TAG = 0;
/** Tags a folded container's slot can name: the keyspace keeps the tag in 4 bits. */
export const FOLDED_TAGS = 16;
const kinds = new Map<number, ContainerKind>();

export function registerKind(kind: ContainerKind): ContainerKind {
  if (kinds.has(kind.tag) || kind.tag === STRING_TAG) throw new Error(`value tag ${kind.tag} registered twice`);
  if ((kind.fold !== undefined) !== (kind.unfold !== undefined) || (kind.fold !== undefined && kind.tag >= FOLDED_TAGS)) {
    throw new Error(`value tag ${kind.tag} folds without a tag below ${FOLDED_TAGS} or without unfold`);
  }
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
