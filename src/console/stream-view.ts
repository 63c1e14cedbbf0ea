// GET /console/api/streams/<cluster>: a cluster's topics with their retention settings and
// offsets, and its consumer groups with each instance's assignments, positions and lag, read
// straight from the engine (the stream REST API reports neither retention nor positions).

import type { ClusterAdminView } from '../streams/index.js';
import type { ConsoleGroup, ConsoleStreams, ConsoleTopic } from './wire.js';

export function streamView(cluster: ClusterAdminView): ConsoleStreams {
  const { backend, groups } = cluster;
  const topics: ConsoleTopic[] = [];
  for (const [topic, count] of backend.topics()) {
    const settings = backend.topicSettings(topic);
    const partitions = Array.from({ length: count }, (_, partition) => {
      const range = backend.range({ topic, partition });
      return 'start' in range ? { partition, earliest: range.start, latest: range.end } : { partition, earliest: 0, latest: 0 };
    });
    topics.push({ topic, retentionMs: settings?.retentionMs ?? -1, retentionBytes: settings?.retentionBytes ?? -1, segmentBytes: settings?.segmentBytes ?? 0, partitions });
  }
  const ranges = new Map(topics.flatMap((t) => t.partitions.map((p) => [`${t.topic}\0${p.partition}`, p] as const)));
  const seen = new Map(groups.positions().map((p) => [`${p.group}\0${p.instance}`, p]));
  const out: ConsoleGroup[] = groups.list().map((g) => ({
    group: g.name,
    instances: g.instances.map((i) => {
      const state = seen.get(`${g.name}\0${i.name}`);
      return {
        instance: i.name,
        lastSeen: state?.lastSeen ?? 0,
        partitions: i.topics.flatMap(({ topic, partitions }) =>
          partitions.map((partition) => {
            const range = ranges.get(`${topic}\0${partition}`) ?? { earliest: 0, latest: 0 };
            const committed = backend.committed(g.name, { topic, partition }) ?? null;
            const position = state?.positions.find((p) => p.topic === topic && p.partition === partition)?.offset ?? null;
            return { topic, partition, committed, position, latest: range.latest, lag: range.latest - (committed ?? range.earliest) };
          }),
        ),
      };
    }),
  }));
  return { topics, groups: out };
}
