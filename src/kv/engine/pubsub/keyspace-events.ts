// Keyspace notifications (Redis's notify.c, as Upstash's "Listen Keyspace Notifications" page
// describes them): with `CONFIG SET notify-keyspace-events <classes>`, a write publishes its
// event (a read that misses its key, keymiss) to `__keyspace@0__:<key>` (the message is the
// event's name) and the key to `__keyevent@0__:<event>`, for the classes enabled. Every database
// is number 0, as Upstash's. Handlers call `notify` where Redis calls notifyKeyspaceEvent, with
// the same class and name; the database does for what the keyspace tells it (new, expired, keymiss).

import type { PubSubHub } from './hub.js';

/** The event classes and the two channel kinds, Redis's NOTIFY_* bits. */
export const KeyEvent = {
  keyspace: 1 << 0, //  K
  keyevent: 1 << 1, //  E
  generic: 1 << 2, //   g: DEL, EXPIRE, RENAME, ...
  string: 1 << 3, //    $
  list: 1 << 4, //      l
  set: 1 << 5, //       s
  hash: 1 << 6, //      h
  zset: 1 << 7, //      z
  expired: 1 << 8, //   x: a key whose time ran out
  evicted: 1 << 9, //   e: never, as nothing is evicted
  stream: 1 << 10, //   t
  keyMiss: 1 << 11, //  m: a key a read looks up and does not find (the keyspace's onMissed)
  module: 1 << 12, //   d: JSON
  newKey: 1 << 13, //   n: a key added to the database
  array: 1 << 14, //    a: Upstash's arrays, as Redis 8.8's NOTIFY_ARRAY (src/server.h)
} as const;

/** `A`: every class but key misses and new keys (Redis's NOTIFY_ALL, which holds arrays since 8.8). */
const ALL =
  KeyEvent.generic | KeyEvent.string | KeyEvent.list | KeyEvent.set | KeyEvent.hash | KeyEvent.zset |
  KeyEvent.expired | KeyEvent.evicted | KeyEvent.stream | KeyEvent.module | KeyEvent.array;

const BY_CHAR: Readonly<Record<string, number>> = {
  A: ALL, g: KeyEvent.generic, $: KeyEvent.string, l: KeyEvent.list, s: KeyEvent.set, h: KeyEvent.hash,
  z: KeyEvent.zset, x: KeyEvent.expired, e: KeyEvent.evicted, K: KeyEvent.keyspace, E: KeyEvent.keyevent,
  t: KeyEvent.stream, m: KeyEvent.keyMiss, d: KeyEvent.module, n: KeyEvent.newKey, a: KeyEvent.array,
};

/** The classes `text` names, or null for a character that names none. */
export function parseEventClasses(text: string): number | null {
  let flags = 0;
  for (const c of text) {
    const bit = BY_CHAR[c];
    if (bit === undefined) return null;
    flags |= bit;
  }
  return flags;
}

/**
 * The classes as CONFIG GET shows them, in Redis 7.0's order: `A` for all, else each class
 * (8.8's `a` last); then K, E and m. As in Redis 7.0, `n` shows only beside classes listed one
 * by one, unless `withNew` (the text a snapshot keeps, which must read back whole).
 */
export function formatEventClasses(flags: number, withNew = false): string {
  let out = '';
  if ((flags & ALL) === ALL) out += withNew && flags & KeyEvent.newKey ? 'An' : 'A';
  else {
    for (const c of 'g$lshzxetdna') if (flags & BY_CHAR[c]) out += c;
  }
  for (const c of 'KEm') if (flags & BY_CHAR[c]) out += c;
  return out;
}

/** Where a database's writes publish their events. */
export class KeyspaceEvents {
  /** The classes enabled (CONFIG SET notify-keyspace-events): none by default. */
  flags = 0;

  constructor(private readonly hub: PubSubHub) {}

  /** Publishes `event` on `key` if its class is enabled (Redis's notifyKeyspaceEvent). */
  notify(type: number, event: string, key: string): void {
    const flags = this.flags;
    if ((flags & type) === 0) return;
    if (flags & KeyEvent.keyspace) this.hub.publish(`__keyspace@0__:${key}`, event);
    if (flags & KeyEvent.keyevent) this.hub.publish(`__keyevent@0__:${event}`, key);
  }
}
