// Measures how many requests a destination gets at once: the receiver holds every request to a
// path, round by round, so the count waiting is the count in flight.

import assert from 'node:assert/strict';
import { eventually } from './eventually.js';
import type { QueueReceiver } from './queue-receiver.js';

/** Long enough for a delivery the server should have held back to arrive if it were let through. */
export const settle = () => new Promise((r) => setTimeout(r, 150));

/**
 * In round i exactly `counts[i]` requests to `path` arrive and wait (and no more arrive while
 * they do); then they are answered and the next round begins.
 */
export async function inRounds(rx: QueueReceiver, path: string, counts: readonly number[], during?: (round: number) => Promise<void>): Promise<void> {
  for (const [i, n] of counts.entries()) {
    let release: () => void = () => undefined;
    rx.hold(path, new Promise<void>((r) => (release = r)));
    await eventually(async () => rx.pending(path) === n, `round ${i}: ${n} requests to ${path} at once`);
    await settle();
    assert.equal(rx.pending(path), n, `round ${i}: more than ${n} requests to ${path} at once`);
    await during?.(i);
    release();
    // Lets the receiver drop the released hold before the next round sets its own.
    await new Promise((r) => setImmediate(r));
  }
}
