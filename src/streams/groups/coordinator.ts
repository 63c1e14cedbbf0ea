// Consumer groups over a StreamBackend. An instance is created by its first consume, with
// that request's settings, and subscribes to the topics it asks for. Every join, leave,
// idle expiry or new subscription starts a new assignment epoch: the group's partitions are
// range-assigned among its live instances. A partition belongs to one instance per epoch,
// and a consume whose wait spanned a rebalance returns nothing and moves no position, so no
// two live instances get the same message within an epoch. A revoked partition's delivered
// but uncommitted messages are committed first when the losing instance auto-commits (as a
// Kafka consumer does on revoke); otherwise the new owner starts from the committed offset
// and gets them again: at least once, never skipped.
// Not safe for concurrent use; one JS thread owns it (awaits are the only interleavings).

import type { Message, Position, StreamBackend, TopicPartition } from '../backend.js';
import { isError, noOffset, tooManyInstances, unknownInstance, unknownPartition, unknownTopic, type StreamError } from '../errors.js';
import { rangeAssign } from './assignment.js';

export interface InstanceSettings {
  autoCommit: boolean;
  autoCommitIntervalMs: number;
  offsetReset: 'earliest' | 'latest' | 'none';
  sessionTimeoutMs: number;
}

export interface GroupAssignments {
  name: string;
  instances: { name: string; topics: { topic: string; partitions: number[] }[] }[];
}

/** Most messages one consume returns (Kafka's max.poll.records default). */
const MAX_POLL = 500;
const SWEEP_MS = 250;

const keyOf = (topic: string, partition: number) => `${topic}\0${partition}`;

class Instance {
  readonly topics = new Set<string>();
  assigned = new Map<string, number[]>();
  /** Next offset to deliver, by partition key. */
  readonly positions = new Map<string, number>();
  /** Delivered and not yet committed: the offset to commit, by partition key. */
  readonly consumed = new Map<string, Position>();
  busy = 0;
  lastCommit: number;

  constructor(
    readonly id: string,
    readonly settings: InstanceSettings,
    public lastSeen: number,
  ) {
    this.lastCommit = lastSeen;
  }
}

interface Group {
  readonly name: string;
  readonly instances: Map<string, Instance>;
  epoch: number;
}

export class GroupCoordinator {
  private readonly groups = new Map<string, Group>();
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    private readonly backend: StreamBackend,
    private readonly now: () => number,
    private readonly onError: (err: unknown) => void,
  ) {
    this.sweeper = setInterval(() => this.sweep(), SWEEP_MS);
    this.sweeper.unref();
  }

  // /consume/$GROUP/$INSTANCE[/$TOPIC]
  /** `settings` is asked only when the request creates the instance. */
  async consume(groupName: string, id: string, topics: readonly string[], timeoutMs: number, settings: () => InstanceSettings | StreamError): Promise<Message[] | StreamError> {
    const partitions = this.backend.topics();
    for (const t of topics) if (!partitions.has(t)) return unknownTopic(t);
    let group = this.groups.get(groupName);
    if (group === undefined) this.groups.set(groupName, (group = { name: groupName, instances: new Map(), epoch: 0 }));
    let inst = group.instances.get(id);
    let changed = false;
    if (inst === undefined) {
      const wanted = new Set([...[...group.instances.values()].flatMap((i) => [...i.topics]), ...topics]);
      const total = [...wanted].reduce((n, t) => n + (partitions.get(t) ?? 0), 0);
      if (group.instances.size >= total) {
        if (group.instances.size === 0) this.groups.delete(groupName);
        return tooManyInstances(groupName, total);
      }
      const chosen = settings();
      if (isError(chosen)) {
        if (group.instances.size === 0) this.groups.delete(groupName);
        return chosen;
      }
      inst = new Instance(id, chosen, this.now());
      group.instances.set(id, inst);
      changed = true;
    }
    for (const t of topics) {
      if (inst.topics.has(t)) continue;
      inst.topics.add(t);
      changed = true;
    }
    if (changed) this.rebalance(group);
    inst.lastSeen = this.now();
    inst.busy++;
    try {
      const positions: Position[] = [];
      for (const topic of topics) {
        for (const partition of inst.assigned.get(topic) ?? []) {
          const pos = this.position(groupName, inst, topic, partition);
          if (typeof pos !== 'number') return pos;
          positions.push({ topic, partition, offset: pos });
        }
      }
      if (positions.length === 0) {
        await new Promise((resolve) => setTimeout(resolve, timeoutMs));
        return [];
      }
      const epoch = group.epoch;
      const messages = await this.backend.read(positions, MAX_POLL, timeoutMs);
      if (!Array.isArray(messages)) return messages;
      if (group.epoch !== epoch || group.instances.get(id) !== inst) return [];
      for (const m of messages) {
        const key = keyOf(m.topic, m.partition);
        inst.positions.set(key, m.offset + 1);
        inst.consumed.set(key, { topic: m.topic, partition: m.partition, offset: m.offset + 1 });
      }
      return messages;
    } finally {
      inst.busy--;
      inst.lastSeen = this.now();
    }
  }

  /** Commits `positions`, or with null what the instance consumed and has not committed. */
  async commit(groupName: string, id: string, positions: readonly Position[] | null): Promise<StreamError | null> {
    const inst = this.groups.get(groupName)?.instances.get(id);
    if (inst === undefined) return unknownInstance(groupName, id);
    inst.lastSeen = this.now();
    let list: Position[];
    if (positions === null) {
      list = [...inst.consumed.values()];
      inst.consumed.clear();
    } else {
      for (const p of positions) {
        const bad = this.check(p);
        if (bad !== null) return bad;
      }
      list = [...positions];
      for (const p of list) {
        const key = keyOf(p.topic, p.partition);
        if ((inst.consumed.get(key)?.offset ?? Infinity) <= p.offset) inst.consumed.delete(key);
      }
    }
    inst.lastCommit = this.now();
    await this.backend.commit(groupName, list);
    return null;
  }

  /** The committed offsets (-1 where none) of `tps` for the group. */
  committed(groupName: string, tps: readonly TopicPartition[]): Position[] | StreamError {
    const out: Position[] = [];
    for (const tp of tps) {
      const bad = this.check(tp);
      if (bad !== null) return bad;
      out.push({ topic: tp.topic, partition: tp.partition, offset: this.backend.committed(groupName, tp) ?? -1 });
    }
    return out;
  }

  // /delete-consumer/$GROUP/$INSTANCE
  async remove(groupName: string, id: string): Promise<StreamError | null> {
    const group = this.groups.get(groupName);
    const inst = group?.instances.get(id);
    if (group === undefined || inst === undefined) return unknownInstance(groupName, id);
    await this.leave(groupName, group, inst);
    return null;
  }

  list(): GroupAssignments[] {
    return [...this.groups].map(([name, g]) => ({
      name,
      instances: [...g.instances.values()].map((i) => ({
        name: i.id,
        topics: [...i.assigned].map(([topic, partitions]) => ({ topic, partitions })),
      })),
    }));
  }

  /** Each instance's next offset to deliver where it has one, and when it was last seen (read-only; the console shows it). */
  positions(): { group: string; instance: string; lastSeen: number; positions: Position[] }[] {
    return [...this.groups].flatMap(([group, g]) =>
      [...g.instances.values()].map((i) => ({
        group,
        instance: i.id,
        lastSeen: i.lastSeen,
        positions: [...i.assigned].flatMap(([topic, partitions]) =>
          partitions.flatMap((partition) => {
            const offset = i.positions.get(keyOf(topic, partition));
            return offset === undefined ? [] : [{ topic, partition, offset }];
          }),
        ),
      })),
    );
  }

  /** Commits what auto-committing instances consumed, as closing Kafka consumers do. */
  async close(): Promise<void> {
    clearInterval(this.sweeper);
    const commits: Promise<void>[] = [];
    for (const [name, g] of this.groups) {
      for (const inst of g.instances.values()) if (inst.settings.autoCommit) commits.push(this.flushConsumed(name, inst));
    }
    await Promise.all(commits);
  }

  private check(tp: TopicPartition): StreamError | null {
    const count = this.backend.topics().get(tp.topic);
    if (count === undefined) return unknownTopic(tp.topic);
    return Number.isInteger(tp.partition) && tp.partition >= 0 && tp.partition < count ? null : unknownPartition(tp.topic, tp.partition);
  }

  /** Where the instance reads next: its position, else the committed offset, else the reset policy. */
  private position(groupName: string, inst: Instance, topic: string, partition: number): number | StreamError {
    const key = keyOf(topic, partition);
    const range = this.backend.range({ topic, partition });
    if (!('start' in range)) return range;
    const at = inst.positions.get(key);
    if (at !== undefined && at >= range.start && at <= range.end) return at;
    const committed = this.backend.committed(groupName, { topic, partition });
    let next: number;
    if (committed !== undefined && committed >= range.start && committed <= range.end) next = committed;
    else if (inst.settings.offsetReset === 'earliest') next = range.start;
    else if (inst.settings.offsetReset === 'latest') next = range.end;
    else return noOffset(groupName, topic, partition);
    inst.positions.set(key, next);
    return next;
  }

  private rebalance(group: Group): void {
    group.epoch++;
    const members = [...group.instances.values()];
    const assignment = rangeAssign(members.map((i) => ({ id: i.id, topics: i.topics })), this.backend.topics());
    for (const inst of members) {
      const next = assignment.get(inst.id)!;
      const keep = new Set([...next].flatMap(([t, ps]) => ps.map((p) => keyOf(t, p))));
      const revoked = [...inst.positions.keys()].filter((k) => !keep.has(k));
      if (inst.settings.autoCommit) {
        const commits = revoked.flatMap((k) => inst.consumed.get(k) ?? []);
        this.backend.commit(group.name, commits).catch(this.onError);
      }
      for (const k of revoked) {
        inst.positions.delete(k);
        inst.consumed.delete(k);
      }
      inst.assigned = next;
    }
  }

  private async leave(groupName: string, group: Group, inst: Instance): Promise<void> {
    // Committed before the rebalance, so the new owners start after what it consumed.
    const flushed = inst.settings.autoCommit ? this.flushConsumed(groupName, inst) : Promise.resolve();
    group.instances.delete(inst.id);
    if (group.instances.size === 0) this.groups.delete(groupName);
    else this.rebalance(group);
    await flushed;
  }

  private flushConsumed(groupName: string, inst: Instance): Promise<void> {
    const list = [...inst.consumed.values()];
    inst.consumed.clear();
    inst.lastCommit = this.now();
    return this.backend.commit(groupName, list);
  }

  /** Expires idle instances and runs due auto-commits. */
  private sweep(): void {
    const now = this.now();
    for (const [name, g] of this.groups) {
      for (const inst of [...g.instances.values()]) {
        if (inst.busy === 0 && now - inst.lastSeen > inst.settings.sessionTimeoutMs) {
          this.leave(name, g, inst).catch(this.onError);
        } else if (inst.settings.autoCommit && inst.consumed.size > 0 && now - inst.lastCommit >= inst.settings.autoCommitIntervalMs) {
          this.flushConsumed(name, inst).catch(this.onError);
        }
      }
    }
  }
}
