// The streams page: a cluster's topics with each partition's earliest and latest offsets, its
// consumer groups with their assignments, committed offsets and lag, a message browser by
// topic, partition and offset or time, and a produce form. A read-only console holds no stream
// credentials (clusters have none), so it says so and shows nothing else.

import { useEffect, useState } from 'preact/hooks';
import type { ConsoleInfo } from '../wire';
import { basic, call, errorText } from './api';
import { ConsumerGroups, type Group } from './consumer-groups';
import { FieldError } from './field-error';
import { MessageBrowser } from './message-browser';
import { ProduceForm } from './produce-form';

/** A topic partition and an offset, as /offsets answers. */
export interface Position {
  topic: string;
  partition: number;
  offset: number;
}

export function StreamsPage(props: { info: ConsoleInfo }) {
  const { info } = props;
  const [name, setName] = useState(info.streams[0]?.cluster ?? '');
  const cluster = info.streams.find((c) => c.cluster === name);
  const [topics, setTopics] = useState<Record<string, number>>({});
  const [ranges, setRanges] = useState<Map<string, [number, number]>>(new Map());
  const [groups, setGroups] = useState<Group[]>([]);
  const [error, setError] = useState<string | null>(null);

  const auth = cluster?.username == null || cluster.password == null ? null : basic(cluster.username, cluster.password);

  async function load() {
    if (cluster === undefined || auth === null) return;
    try {
      const t = await call<Record<string, number>>(`${cluster.url}/topics`, auth);
      const all = Object.entries(t).flatMap(([topic, n]) => Array.from({ length: n }, (_, partition) => ({ topic, partition })));
      const [start, end] =
        all.length === 0
          ? [[], []]
          : await Promise.all([call<Position[]>(`${cluster.url}/offsets/earliest`, auth, 'POST', all), call<Position[]>(`${cluster.url}/offsets/latest`, auth, 'POST', all)]);
      setRanges(new Map(start.map((p, i) => [`${p.topic}/${p.partition}`, [p.offset, end[i].offset]])));
      setTopics(t);
      setGroups(await call<Group[]>(`${cluster.url}/consumers`, auth));
      setError(null);
    } catch (e) {
      setError(errorText(e));
    }
  }

  useEffect(() => void load(), [name]);

  if (cluster === undefined) return <p class="empty">No stream cluster is configured.</p>;
  return (
    <div class="service-page">
      <div class="toolbar">
        <label>
          Cluster
          <select name="cluster" value={name} onChange={(e) => setName(e.currentTarget.value)}>
            {info.streams.map((c) => (
              <option value={c.cluster}>{c.cluster}</option>
            ))}
          </select>
        </label>
      </div>
      {auth === null ? (
        <p class="empty">Stream clusters have no read-only credentials, so a read-only console cannot open them.</p>
      ) : (
        <>
          <FieldError error={error} />
          <h2>Topics</h2>
          <table class="entries" aria-label="Topics">
            <thead>
              <tr>
                <th>topic</th>
                <th>partition</th>
                <th>earliest offset</th>
                <th>latest offset</th>
              </tr>
            </thead>
            <tbody>
              {Object.entries(topics).flatMap(([topic, n]) =>
                Array.from({ length: n }, (_, p) => (
                  <tr>
                    <td>{topic}</td>
                    <td>{p}</td>
                    <td>{ranges.get(`${topic}/${p}`)?.[0] ?? ''}</td>
                    <td>{ranges.get(`${topic}/${p}`)?.[1] ?? ''}</td>
                  </tr>
                )),
              )}
            </tbody>
          </table>
          {Object.keys(topics).length === 0 && <p class="empty">No topics.</p>}
          <h2>Consumer groups</h2>
          <ConsumerGroups url={cluster.url} auth={auth} groups={groups} ranges={ranges} />
          <MessageBrowser url={cluster.url} auth={auth} topics={Object.keys(topics)} />
          <ProduceForm url={cluster.url} auth={auth} onProduced={load} />
        </>
      )}
    </div>
  );
}
