// The streams page: a cluster's topics with their retention and each partition's earliest and
// latest offsets, its consumer groups with their instances, assignments, positions and lag
// (all from /console/api/streams/<cluster>, which the read-only console may read too), a
// message browser by topic, partition and offset or time, and a produce form. Those two need
// the cluster's credentials, which a read-only console does not hold (clusters have none).

import { useEffect, useState } from 'preact/hooks';
import type { ConsoleInfo, ConsoleStreams } from '../wire';
import { adminGet, basic, errorText } from './api';
import { ConsumerGroups } from './consumer-groups';
import { FieldError } from './field-error';
import { MessageBrowser } from './message-browser';
import { ProduceForm } from './produce-form';

/** A topic partition and an offset, as /offsets answers. */
export interface Position {
  topic: string;
  partition: number;
  offset: number;
}

const EMPTY: ConsoleStreams = { topics: [], groups: [] };

/** -1 is "no limit" in the topic settings. */
function limit(n: number, unit: 'ms' | 'bytes'): string {
  if (n < 0) return 'unlimited';
  if (unit === 'bytes') return n >= 1 << 20 ? `${(n / (1 << 20)).toFixed(n % (1 << 20) === 0 ? 0 : 1)} MiB` : `${n} B`;
  const hours = n / 3_600_000;
  return hours >= 24 && Number.isInteger(hours / 24) ? `${hours / 24} d` : hours >= 1 && Number.isInteger(hours) ? `${hours} h` : `${n} ms`;
}

export function StreamsPage(props: { info: ConsoleInfo }) {
  const { info } = props;
  const [name, setName] = useState(info.streams[0]?.cluster ?? '');
  const cluster = info.streams.find((c) => c.cluster === name);
  const [view, setView] = useState<ConsoleStreams>(EMPTY);
  const [error, setError] = useState<string | null>(null);

  const auth = cluster?.username == null || cluster.password == null ? null : basic(cluster.username, cluster.password);

  async function load() {
    if (cluster === undefined) return;
    try {
      setView(await adminGet<ConsoleStreams>(`streams/${encodeURIComponent(cluster.cluster)}`));
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
        <button type="button" onClick={() => void load()}>
          Refresh
        </button>
      </div>
      <FieldError error={error} />
      <h2>Topics</h2>
      <table class="entries" aria-label="Topics">
        <thead>
          <tr>
            <th>topic</th>
            <th>partition</th>
            <th>earliest offset</th>
            <th>latest offset</th>
            <th>retention time</th>
            <th>retention size</th>
          </tr>
        </thead>
        <tbody>
          {view.topics.flatMap((t) =>
            t.partitions.map((p) => (
              <tr key={`${t.topic}/${p.partition}`}>
                <td>{t.topic}</td>
                <td>{p.partition}</td>
                <td>{p.earliest}</td>
                <td>{p.latest}</td>
                <td>{limit(t.retentionMs, 'ms')}</td>
                <td title="per partition">{limit(t.retentionBytes, 'bytes')}</td>
              </tr>
            )),
          )}
        </tbody>
      </table>
      {view.topics.length === 0 && <p class="empty">No topics.</p>}
      <h2>Consumer groups</h2>
      <ConsumerGroups groups={view.groups} />
      {auth === null ? (
        <p class="empty">Stream clusters have no read-only credentials, so a read-only console cannot read or produce messages.</p>
      ) : (
        <>
          <MessageBrowser url={cluster.url} auth={auth} topics={view.topics.map((t) => t.topic)} />
          <ProduceForm url={cluster.url} auth={auth} onProduced={load} />
        </>
      )}
    </div>
  );
}
