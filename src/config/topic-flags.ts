// `larder start --topic NAME:PARTITIONS` (repeatable): topics added to the first configured
// stream cluster (`default` unless the config names others), validated like config topics.

import { ConfigError } from './load.js';
import { badName } from '../storage/names.js';
import { streamTopic, type Config } from './schema.js';

export function addTopicFlags(config: Config, specs: readonly string[]): void {
  if (specs.length === 0) return;
  const cluster = Object.values(config.streams.clusters)[0];
  if (cluster === undefined) throw new ConfigError('--topic needs a stream cluster, and streams.clusters is empty');
  for (const spec of specs) {
    const m = /^([^:]+)(?::(\d+))?$/.exec(spec);
    if (m === null) throw new ConfigError(`--topic expects NAME:PARTITIONS, got '${spec}'`);
    const bad = badName('topic', m[1]);
    if (bad !== null) throw new ConfigError(`--topic ${spec}: ${bad}`);
    const settings = streamTopic.safeParse({ ...cluster.topics[m[1]], partitions: m[2] === undefined ? 1 : Number(m[2]) });
    if (!settings.success) throw new ConfigError(`--topic ${spec}: ${settings.error.issues[0].message}`);
    cluster.topics[m[1]] = settings.data;
  }
}
