// The embedded backend: a cluster's topics as partition logs under
// <dataDir>/streams/<cluster>/<topic>/<partition>/, their settings in topics.json (replaced
// atomically), committed offsets in consumer-offsets.log. Keyless messages go round-robin
// over a topic's partitions, keyed ones by murmur2 as Kafka's default partitioner does.

import { join } from 'node:path';
import type { StreamTopicConfig } from '../../config/schema.js';
import { makeDirectory, writeFileAtomic } from '../../storage/atomic-file.js';
import { CorruptDataError } from '../../storage/errors.js';
import { readJsonFile } from '../../storage/json-file.js';
import { badName } from '../../storage/names.js';
import type { Message, Metadata, OffsetRange, OutgoingMessage, Position, StreamBackend, TopicPartition } from '../backend.js';
import { badRequest, offsetOutOfRange, topicExists, unknownPartition, unknownTopic, type StreamError } from '../errors.js';
import { keyPartition } from './murmur2.js';
import { OffsetStore } from './offset-store.js';
import { PartitionLog } from './partition-log.js';

interface Topic {
  settings: StreamTopicConfig;
  partitions: PartitionLog[];
  /** Next partition for a keyless message. */
  roundRobin: number;
}

export interface LogBackendOptions {
  dir: string;
  /** Topics from the config: created when absent, partitions grown, settings taken. */
  topics: Readonly<Record<string, StreamTopicConfig>>;
  retentionCheckMs: number;
  now: () => number;
  warn: (msg: string, cutBytes: number) => void;
}

export class LogBackend implements StreamBackend {
  private readonly topicsByName = new Map<string, Topic>();
  private readonly offsets: OffsetStore;
  private readonly retention: NodeJS.Timeout;
  private readonly topicsFile: string;

  constructor(private readonly opts: LogBackendOptions) {
    makeDirectory(opts.dir);
    this.topicsFile = join(opts.dir, 'topics.json');
    const stored = (readJsonFile(this.topicsFile, "restore it from a backup, or write each topic's settings back") as Record<string, StreamTopicConfig> | undefined) ?? {};
    for (const [name, settings] of Object.entries(stored)) {
      // Written by a Larder from before the rule: such a topic's folder may lie outside the cluster's.
      const bad = badName('topic', name);
      if (bad !== null) throw new CorruptDataError(`${this.topicsFile}: ${bad}; remove that entry (and move its data away) to start`);
      this.openTopic(name, settings);
    }
    let changed = false;
    for (const [name, settings] of Object.entries(opts.topics)) {
      const had = this.topicsByName.get(name);
      const merged = { ...settings, partitions: Math.max(settings.partitions, had?.settings.partitions ?? 0) };
      if (had !== undefined && JSON.stringify(had.settings) === JSON.stringify(merged)) continue;
      this.openTopic(name, merged);
      changed = true;
    }
    if (changed) this.saveTopics();
    this.offsets = new OffsetStore(join(opts.dir, 'consumer-offsets.log'), opts.warn);
    this.retention = setInterval(() => this.enforceRetention(), opts.retentionCheckMs);
    this.retention.unref();
  }

  topics(): ReadonlyMap<string, number> {
    return new Map([...this.topicsByName].map(([name, t]) => [name, t.partitions.length]));
  }

  topicSettings(name: string): StreamTopicConfig | undefined {
    const t = this.topicsByName.get(name);
    return t === undefined ? undefined : { ...t.settings, partitions: t.partitions.length };
  }

  createTopic(name: string, settings: StreamTopicConfig): StreamError | null {
    const bad = badName('topic', name);
    if (bad !== null) return badRequest(bad);
    if (this.topicsByName.has(name)) return topicExists(name);
    this.openTopic(name, settings);
    this.saveTopics();
    return null;
  }

  async produce(messages: readonly OutgoingMessage[]): Promise<Metadata[] | StreamError> {
    const targets: { log: PartitionLog; partition: number }[] = [];
    for (const m of messages) {
      const topic = this.topicsByName.get(m.topic);
      if (topic === undefined) return unknownTopic(m.topic);
      const count = topic.partitions.length;
      let partition = m.partition;
      if (partition === undefined) {
        partition = m.key !== null ? keyPartition(m.key, count) : topic.roundRobin++ % count;
      } else if (partition >= count) return unknownPartition(m.topic, partition);
      targets.push({ log: topic.partitions[partition], partition });
    }
    // One append (and one shared fdatasync) per partition, however many messages go to it.
    const now = this.opts.now();
    const byLog = new Map<PartitionLog, number[]>();
    targets.forEach((t, i) => {
      const list = byLog.get(t.log);
      if (list === undefined) byLog.set(t.log, [i]);
      else list.push(i);
    });
    // Refused before any offset is assigned; the service's boundary answers it (503).
    for (const log of byLog.keys()) {
      const failure = log.writeFailure();
      if (failure !== null) throw failure;
    }
    const out: Metadata[] = new Array(messages.length);
    const durable: Promise<void>[] = [];
    for (const [log, indexes] of byLog) {
      const records = indexes.map((i) => {
        const m = messages[i];
        return { timestamp: m.timestamp ?? now, key: m.key, value: m.value, headers: m.headers };
      });
      const { first, durable: d } = log.append(records);
      indexes.forEach((i, n) => {
        out[i] = { topic: messages[i].topic, partition: targets[i].partition, offset: first + n, timestamp: records[n].timestamp };
      });
      durable.push(d);
    }
    await Promise.all(durable);
    return out;
  }

  async read(positions: readonly Position[], max: number, timeoutMs: number): Promise<Message[] | StreamError> {
    const logs: PartitionLog[] = [];
    for (const pos of positions) {
      const log = this.partition(pos);
      if (!(log instanceof PartitionLog)) return log;
      const { start, end } = log.range;
      if (pos.offset < start || pos.offset > end) return offsetOutOfRange(pos.topic, pos.partition, pos.offset, start, end);
      logs.push(log);
    }
    let out = this.collect(positions, logs, max);
    if (out.length > 0 || timeoutMs <= 0 || logs.length === 0) return out;
    await new Promise<void>((resolve) => {
      const cancels: (() => void)[] = [];
      const done = () => {
        clearTimeout(timer);
        for (const c of cancels) c();
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      for (const log of logs) cancels.push(log.onAppend(done));
    });
    out = this.collect(positions, logs, max);
    return out;
  }

  range(tp: TopicPartition): OffsetRange | StreamError {
    const log = this.partition(tp);
    return log instanceof PartitionLog ? log.range : log;
  }

  offsetForTime(tp: TopicPartition, timestamp: number): number | StreamError {
    const log = this.partition(tp);
    return log instanceof PartitionLog ? log.offsetForTime(timestamp) : log;
  }

  commit(group: string, positions: readonly Position[]): Promise<void> {
    return this.offsets.commit(group, positions);
  }

  committed(group: string, tp: TopicPartition): number | undefined {
    return this.offsets.get(group, tp);
  }

  writeFailure(): string | null {
    for (const [name, t] of this.topicsByName) {
      for (const p of t.partitions) {
        const failure = p.writeFailure();
        if (failure !== null) return `topic '${name}': ${failure.reason}`;
      }
    }
    const failure = this.offsets.writeFailure();
    return failure === null ? null : `consumer offsets: ${failure.reason}`;
  }

  async close(): Promise<void> {
    clearInterval(this.retention);
    for (const t of this.topicsByName.values()) for (const p of t.partitions) p.close();
    this.offsets.close();
  }

  private partition(tp: TopicPartition): PartitionLog | StreamError {
    const topic = this.topicsByName.get(tp.topic);
    if (topic === undefined) return unknownTopic(tp.topic);
    return topic.partitions[tp.partition] ?? unknownPartition(tp.topic, tp.partition);
  }

  private collect(positions: readonly Position[], logs: PartitionLog[], max: number): Message[] {
    const out: Message[] = [];
    positions.forEach((pos, i) => {
      if (out.length >= max) return;
      for (const r of logs[i].read(pos.offset, max - out.length)) {
        out.push({ topic: pos.topic, partition: pos.partition, offset: r.offset, timestamp: r.timestamp, key: r.key ?? '', value: r.value, headers: r.headers });
      }
    });
    return out;
  }

  /** Opens or grows a topic to `settings.partitions` and applies its settings. */
  private openTopic(name: string, settings: StreamTopicConfig): void {
    const topic = this.topicsByName.get(name) ?? { settings, partitions: [], roundRobin: 0 };
    topic.settings = settings;
    for (const p of topic.partitions) p.settings = settings;
    for (let i = topic.partitions.length; i < settings.partitions; i++) {
      topic.partitions.push(PartitionLog.open(join(this.opts.dir, name, String(i)), settings, this.opts.warn));
    }
    this.topicsByName.set(name, topic);
  }

  private saveTopics(): void {
    const all = Object.fromEntries([...this.topicsByName].map(([name, t]) => [name, t.settings]));
    writeFileAtomic(join(this.opts.dir, 'topics.json'), JSON.stringify(all, null, 2) + '\n');
  }

  private enforceRetention(): void {
    const now = this.opts.now();
    for (const t of this.topicsByName.values()) for (const p of t.partitions) p.enforceRetention(now);
  }
}
