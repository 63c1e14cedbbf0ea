// Range assignment, as Kafka's RangeAssignor: per topic, the members subscribed to it in name
// order each take a contiguous run of partitions, the first ones one extra when the count
// does not divide evenly.

export interface Member {
  id: string;
  topics: ReadonlySet<string>;
}

/** Member id to its partitions, as `topic` -> partition numbers. */
export function rangeAssign(members: readonly Member[], partitions: ReadonlyMap<string, number>): Map<string, Map<string, number[]>> {
  const out = new Map(members.map((m) => [m.id, new Map<string, number[]>()]));
  const topics = new Set(members.flatMap((m) => [...m.topics]));
  for (const topic of [...topics].sort()) {
    const count = partitions.get(topic) ?? 0;
    const subscribed = members.filter((m) => m.topics.has(topic)).map((m) => m.id).sort();
    const each = Math.floor(count / subscribed.length);
    const extra = count % subscribed.length;
    let next = 0;
    subscribed.forEach((id, i) => {
      const n = each + (i < extra ? 1 : 0);
      if (n > 0) out.get(id)!.set(topic, Array.from({ length: n }, (_, k) => next + k));
      next += n;
    });
  }
  return out;
}
