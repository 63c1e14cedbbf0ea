// How the container families (hash, list, set, zset, ...) find their value: the container
// of the expected kind, nothing when the key is absent, WRONGTYPE for any other type. A family
// that empties its container deletes the key (`dropIfEmpty`), as Redis never keeps empty ones.

import type { Keyspace } from '../engine/keyspace.js';
import { KeyEvent } from '../engine/pubsub/keyspace-events.js';
import type { Container, ContainerKind } from '../engine/value.js';
import { WRONGTYPE, type ReplyError } from '../errors.js';
import type { Ctx } from './spec.js';

/** The container at `key` for reading: undefined when absent, WRONGTYPE for another type. */
export function readTyped<T extends Container>(ks: Keyspace, key: string, kind: ContainerKind): T | undefined | ReplyError {
  const v = ks.get(key);
  if (v === undefined) return undefined;
  return typeof v !== 'string' && v.kind === kind ? (v as T) : WRONGTYPE;
}

/** The container at `key` for writing, made by `create` (and stored) when the key is absent. */
export function writeTyped<T extends Container>(ks: Keyspace, key: string, kind: ContainerKind, create: () => T): T | ReplyError {
  const found = readTyped<T>(ks, key, kind);
  if (found !== undefined) return found;
  const made = create();
  ks.insert(key, made, 0);
  return made;
}

/**
 * What a command that took members out of the container at `key` publishes, as Redis's do: its
 * own event (`type`, `event`), then, when that left `size` 0, the key's deletion and `del`.
 */
export function removedFrom(ctx: Ctx, type: number, event: string, key: string, size: number): void {
  ctx.events.notify(type, event, key);
  dropIfEmpty(ctx, key, size);
}

/** Deletes `key` when its container has become empty, with Redis's `del` event after the command's own. */
export function dropIfEmpty(ctx: Ctx, key: string, size: number): void {
  if (size !== 0) return;
  ctx.ks.delete(key);
  ctx.events.notify(KeyEvent.generic, 'del', key);
}
