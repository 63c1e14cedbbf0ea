// Auto-pipelining for the shared connections: the commands that requests send during one turn
// of the event loop leave in one write per connection, so the server reads them, and answers
// them, in one go. Without it every request cost a write on Larder's side and a read and a write
// on the server's, which was most of the CPU either spent per GET.
//
// Only when bytes leave changes. The first command of a turn holds each connection: what is
// written to its socket (ioredis's commands, a pipeline, a MULTI..EXEC, Larder's own single
// commands from direct-send.ts, as strings or Buffers) is kept in order, and goes out as one
// write once the turn's I/O callbacks have all run
// (setImmediate; process.nextTick would release after every request on Node, which drains it
// between callbacks). The socket's own write is shadowed rather than corked: Bun's sockets
// write a corked buffer back chunk by chunk, a call into the runtime each, which cost more than
// the commands themselves. Every writer of the socket goes through the shadow, so the order in
// which ioredis queued the commands is the order of their bytes. The connections of blocking
// reads, subscribers and standalone transactions are never held. Used from the JS thread only.

import type { Socket } from 'node:net';
import { Cluster, type Redis } from 'ioredis';

type Chunk = string | Buffer;

interface Held {
  readonly socket: Socket;
  readonly chunks: Chunk[];
}

export class WriteBatching {
  private held: Held[] = [];
  private pending = false;

  constructor(private readonly main: Redis | Cluster) {}

  /** Holds the writes to the shared connections until the end of this turn of the event loop. */
  hold(): void {
    if (this.pending) return;
    this.pending = true;
    const conns = this.main instanceof Cluster ? this.main.nodes('all') : [this.main];
    for (const c of conns) {
      // Absent or closed while (re)connecting: ioredis queues the command rather than writing it.
      const socket = c.stream as Socket | undefined;
      if (socket === undefined || !socket.writable) continue;
      const chunks: Chunk[] = [];
      socket.write = (chunk: Chunk) => chunks.push(chunk) > 0;
      this.held.push({ socket, chunks });
    }
    setImmediate(this.release);
  }

  private readonly release = (): void => {
    const held = this.held;
    this.held = [];
    this.pending = false;
    for (const { socket, chunks } of held) {
      delete (socket as Partial<Socket>).write; // the prototype's again
      // A socket closed meanwhile: ioredis has failed the commands it was sent.
      if (chunks.length > 0 && socket.writable) socket.write(joined(chunks));
    }
  };
}

/** The chunks as one string, or one Buffer when any is bytes (a string counts as its UTF-8, as the socket writes it). */
function joined(chunks: readonly Chunk[]): Chunk {
  if (chunks.length === 1) return chunks[0];
  if (chunks.every((c) => typeof c === 'string')) return chunks.join('');
  return Buffer.concat(chunks.map((c) => (typeof c === 'string' ? Buffer.from(c) : c)));
}
