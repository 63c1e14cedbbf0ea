// SCAN over a Redis Cluster: the masters are walked one after another, in the order of the
// first slot each serves, so every Larder process in front of the same Cluster reads the same
// cursors. A cursor is the master's own cursor times 16384 plus that master's first slot:
// 0 starts at the master of slot 0, and 0 is the end, as on one server. A cursor naming a slot
// no master begins with (made up, or from before a resharding moved a master's first slot)
// ends the walk, as a cursor past the end does on one server.

import type { Cluster, Redis } from 'ioredis';

const SLOTS = 16384n;
const MAX_CURSOR = 2n ** 64n - 1n;

/** Where a Cluster cursor points: a master, the cursor to send it, and where the walk goes after it. */
export interface ScanStep {
  readonly node: Redis;
  readonly firstSlot: number;
  readonly nodeCursor: string;
  /** The first slot of the master after this one; undefined for the last. */
  readonly nextFirstSlot: number | undefined;
}

/**
 * The master and node cursor a client's cursor points at; null for a cursor past the end;
 * undefined when it is no unsigned 64-bit number (the server's own parser then answers) or
 * no master is known.
 */
export function scanStep(cluster: Cluster, cursor: string): ScanStep | null | undefined {
  if (!/^\d{1,20}$/.test(cursor) || BigInt(cursor) > MAX_CURSOR) return undefined;
  const c = BigInt(cursor);
  const firstSlot = Number(c % SLOTS);
  const all = masters(cluster);
  // No slot map yet (the Cluster is away): sent as it is, the command fails as any would.
  if (all.length === 0) return undefined;
  const at = all.findIndex((m) => m.firstSlot === firstSlot);
  if (at === -1) return null;
  return { ...all[at], nodeCursor: String(c / SLOTS), nextFirstSlot: all[at + 1]?.firstSlot };
}

/** The cursor to answer after `step`'s master answered `nodeCursor`: its next page, the next master, or 0. */
export function nextCursor(step: ScanStep, nodeCursor: string): string {
  if (nodeCursor !== '0') return String(BigInt(nodeCursor) * SLOTS + BigInt(step.firstSlot));
  return String(step.nextFirstSlot ?? 0);
}

/** The masters in the order of the first slot each serves (ioredis keeps the slot map). */
function masters(cluster: Cluster): { node: Redis; firstSlot: number }[] {
  const byKey = new Map(cluster.nodes('master').map((n) => [`${n.options.host}:${n.options.port}`, n]));
  const found: { node: Redis; firstSlot: number }[] = [];
  const seen = new Set<string>();
  cluster.slots.forEach((owners, slot) => {
    const key = owners?.[0];
    if (key === undefined || seen.has(key)) return;
    const node = byKey.get(key);
    if (node === undefined) return;
    seen.add(key);
    found.push({ node, firstSlot: slot });
  });
  return found;
}
