// `larder start --vector-index NAME:TYPE[:DIMENSION[:SIMILARITY]]` (repeatable): the vector
// indexes to serve, in place of the config's, each validated like a config index.

import { ConfigError } from './load.js';
import { badName } from '../storage/names.js';
import { vectorIndex, type Config } from './schema.js';

export function setVectorIndexFlags(config: Config, specs: readonly string[]): void {
  if (specs.length === 0) return;
  const indexes: Config['vector']['indexes'] = {};
  for (const spec of specs) {
    const [name, type, dimension, similarity, ...rest] = spec.split(':');
    if (type === undefined || rest.length > 0) throw new ConfigError(`--vector-index ${spec}: expected NAME:TYPE[:DIMENSION[:SIMILARITY]]`);
    const bad = badName('index', name);
    if (bad !== null) throw new ConfigError(`--vector-index ${spec}: ${bad}`);
    const entry: Record<string, unknown> = { type: type.toUpperCase() };
    if (dimension !== undefined && dimension !== '') entry.dimension = /^\d+$/.test(dimension) ? Number(dimension) : dimension;
    if (similarity !== undefined) entry.similarity = similarity.toUpperCase();
    const settings = vectorIndex.safeParse(entry);
    if (!settings.success) {
      const issue = settings.error.issues[0];
      throw new ConfigError(`--vector-index ${spec}: ${issue.path.join('.')}: ${issue.message}`);
    }
    indexes[name] = settings.data;
  }
  config.vector.indexes = indexes;
}
