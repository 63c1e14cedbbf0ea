// Keyspace notifications as the official SDK receives them, for the tests of what a write
// publishes. One pattern subscription is one event stream, so the messages of every channel it
// matches keep the order they were published in; each is kept as "<channel> <message>".

import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { KvClient } from './larder.js';
import { sdkClient } from './sdk.js';

export interface KeyspaceListener {
  /**
   * Waits, about five seconds at most, until as many messages as `lines` have come, then asserts
   * that every message so far is `lines`: a missing event fails here, and so does an extra one
   * published before the last expected.
   */
  expect(lines: readonly string[]): Promise<void>;
  /** As `expect`, with every line expected so far (by `expectNext`) and then `more`. */
  expectNext(...more: string[]): Promise<void>;
  stop(): Promise<void>;
}

/** Both channel kinds of every database: what a listener hears every event on. */
export const ALL_KEYSPACE_CHANNELS = '__key*__:*';

/** What `events` on `key` publish with K and E both on: the keyspace line, then the keyevent one. */
export function onBothChannels(key: string, ...events: string[]): string[] {
  return events.flatMap((e) => [`__keyspace@0__:${key} ${e}`, `__keyevent@0__:${e} ${key}`]);
}

/** Subscribes to `pattern`; resolves once the subscription is confirmed. */
export async function listenKeyspace(t: KvClient, pattern: string): Promise<KeyspaceListener> {
  // Events are plain text, which the SDK would JSON-parse (and drop) as pattern messages.
  const sub = sdkClient(t, { deserialize: false }).psubscribe<string>(pattern);
  const seen: string[] = [];
  sub.on('pmessage', ({ channel, message }) => seen.push(`${channel} ${message}`));
  await new Promise((resolve) => sub.on('psubscribe', resolve));
  const expected: string[] = [];
  const expect = async (lines: readonly string[]) => {
    for (let i = 0; i < 250 && seen.length < lines.length; i++) await sleep(20);
    assert.deepEqual(seen, lines);
  };
  return {
    expect,
    expectNext(...more) {
      expected.push(...more);
      return expect(expected);
    },
    stop: () => sub.unsubscribe(),
  };
}
