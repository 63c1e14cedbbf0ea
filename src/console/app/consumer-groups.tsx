// A stream cluster's consumer groups: each instance's assigned partitions with the group's
// committed offset (/committed) and its lag behind the partition's latest offset.

import { useEffect, useState } from 'preact/hooks';
import { call, errorText } from './api';
import { FieldError } from './field-error';
import type { Position } from './streams-page';

export interface Group {
  name: string;
  instances: { name: string; topics: { topic: string; partitions: number[] }[] }[];
}

interface Row {
  group: string;
  instance: string;
  topic: string;
  partition: number;
  /** -1: nothing committed yet. */
  committed: number;
}

/** `ranges` are [earliest, latest] offsets by `topic/partition`. */
export function ConsumerGroups(props: { url: string; auth: string; groups: readonly Group[]; ranges: ReadonlyMap<string, [number, number]> }) {
  const [rows, setRows] = useState<Row[]>([]);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const asks = props.groups.flatMap((g) =>
      g.instances.map(async (i) => {
        const tps = i.topics.flatMap((t) => t.partitions.map((partition) => ({ topic: t.topic, partition })));
        if (tps.length === 0) return [];
        const got = await call<Position[]>(`${props.url}/committed/${encodeURIComponent(g.name)}/${encodeURIComponent(i.name)}`, props.auth, 'POST', tps);
        return got.map((p) => ({ group: g.name, instance: i.name, topic: p.topic, partition: p.partition, committed: p.offset }));
      }),
    );
    Promise.all(asks).then(
      (all) => {
        setRows(all.flat());
        setError(null);
      },
      (e) => setError(errorText(e)),
    );
  }, [props.groups]);

  if (props.groups.length === 0) return <p class="empty">No consumer groups.</p>;
  return (
    <>
      <FieldError error={error} />
      <table class="entries" aria-label="Consumer groups">
        <thead>
          <tr>
            <th>group</th>
            <th>instance</th>
            <th>topic</th>
            <th>partition</th>
            <th>committed</th>
            <th>lag</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => {
            const [earliest, latest] = props.ranges.get(`${r.topic}/${r.partition}`) ?? [0, 0];
            return (
              <tr key={`${r.group}/${r.instance}/${r.topic}/${r.partition}`}>
                <td>{r.group}</td>
                <td>{r.instance}</td>
                <td>{r.topic}</td>
                <td>{r.partition}</td>
                <td>{r.committed < 0 ? 'none' : r.committed}</td>
                <td>{latest - (r.committed < 0 ? earliest : r.committed)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {props.groups.some((g) => g.instances.length === 0) && <p class="hint">Groups without instances have no assignments to show.</p>}
    </>
  );
}
