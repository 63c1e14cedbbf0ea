// Committed offsets of every consumer group of a cluster, in one append log of JSON frames
// `{"g":group,"t":topic,"p":partition,"o":offset}`; the last frame for a (group, topic,
// partition) wins. At open the log is replayed and, when it holds many more frames than
// live entries, rewritten atomically with one frame per entry. A commit is acknowledged only
// after its fdatasync. A torn tail is cut at open and reported; damage before it stops the open
// (storage/frames.ts). Not safe for concurrent use; one JS thread owns it.

import { AppendLog } from '../../storage/append-log.js';
import { replaceFile } from '../../storage/atomic-file.js';
import type { LogFailedError } from '../../storage/errors.js';
import { frame } from '../../storage/frames.js';
import type { Position, TopicPartition } from '../backend.js';

const COMPACT_ABOVE = 1000;

interface Entry {
  g: string;
  t: string;
  p: number;
  o: number;
}

const keyOf = (group: string, tp: TopicPartition) => `${group}\0${tp.topic}\0${tp.partition}`;

export class OffsetStore {
  private readonly offsets = new Map<string, Entry>();
  private log: AppendLog;
  /** Frames in the log file at open. */
  private frames = 0;

  /** `warn` hears of a torn tail cut at open. */
  constructor(
    private readonly path: string,
    private readonly warn: (msg: string, cutBytes: number) => void,
  ) {
    this.log = this.replay();
    if (this.frames > COMPACT_ABOVE && this.frames > 2 * this.offsets.size) {
      this.log.close();
      replaceFile(path, (write) => {
        for (const e of this.offsets.values()) write(frame(Buffer.from(JSON.stringify(e))));
      });
      this.log = this.replay();
    }
  }

  private replay(): AppendLog {
    this.offsets.clear();
    const { log, recovered } = AppendLog.open(this.path, 'everysec');
    this.frames = recovered.frames.length;
    if (recovered.cutBytes > 0) this.warn(`${this.path}: cut a torn tail (${recovered.stop})`, recovered.cutBytes);
    for (const f of recovered.frames) {
      const e = JSON.parse(f.toString('utf8')) as Entry;
      this.offsets.set(keyOf(e.g, { topic: e.t, partition: e.p }), e);
    }
    return log;
  }

  get(group: string, tp: TopicPartition): number | undefined {
    return this.offsets.get(keyOf(group, tp))?.o;
  }

  /** Visible to `get` at once; resolves once durable. Refused, changing nothing, while the log cannot be written. */
  commit(group: string, positions: readonly Position[]): Promise<void> {
    if (positions.length === 0) return Promise.resolve();
    const failure = this.writeFailure();
    if (failure !== null) return Promise.reject(failure);
    for (const pos of positions) {
      const e: Entry = { g: group, t: pos.topic, p: pos.partition, o: pos.offset };
      this.offsets.set(keyOf(group, pos), e);
      this.log.append(Buffer.from(JSON.stringify(e)));
    }
    return this.log.sync();
  }

  /** Writes what a failure held back, if it can now; the failure that still holds, or null. */
  writeFailure(): LogFailedError | null {
    return this.log.retry();
  }

  close(): void {
    this.log.close();
  }
}
