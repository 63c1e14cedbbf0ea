// Auto-pipelining for the shared connections: the commands that requests send during one turn
// of the event loop leave in one write per connection, so the server reads them, and answers
// them, in one go. Without it every request cost a write on Larder's side and a read and a write
// on the server's, which was most of the CPU either spent per GET.
//
// Only when bytes leave changes: each connection's stream is corked by the first command of the
// turn and uncorked once the turn's I/O callbacks have all run (setImmediate; process.nextTick
// would release after every request on Node, which drains it between callbacks). Commands keep
// their order on the connection, a pipeline or MULTI..EXEC stays one contiguous write, and the
// connections of blocking reads, subscribers and standalone transactions are never corked.
// Used from the JS thread only.

import type { Writable } from 'node:stream';
import { Cluster, type Redis } from 'ioredis';

export class WriteBatching {
  private corked: Writable[] = [];
  private pending = false;

  constructor(private readonly main: Redis | Cluster) {}

  /** Holds the writes to the shared connections until the end of this turn of the event loop. */
  hold(): void {
    if (this.pending) return;
    this.pending = true;
    const conns = this.main instanceof Cluster ? this.main.nodes('all') : [this.main];
    for (const c of conns) {
      // Absent or closed while (re)connecting: ioredis queues the command rather than writing it.
      const stream = c.stream as Writable | undefined;
      if (stream === undefined || !stream.writable) continue;
      stream.cork();
      this.corked.push(stream);
    }
    setImmediate(this.release);
  }

  private readonly release = (): void => {
    const corked = this.corked;
    this.corked = [];
    this.pending = false;
    for (const stream of corked) stream.uncork();
  };
}
