// The hot path of the shared standalone connection: a single command is written as RESP by
// Larder and put on ioredis's own reply queue as a small entry, in place of an ioredis Command
// (its object, its promise, its copy of the arguments and the RESP it builds, and the promise
// Larder chained to it).
//
// ioredis still owns the connection: it connects, authenticates, selects the database,
// reconnects, decodes the replies (resp2-decoder.ts) and hands each reply to the head of its
// queue, whoever queued it, so entries from here and ioredis's own commands answer in the order
// their bytes left. What ioredis reads of an entry is `name` and `args` (the context of an error
// reply), `resolve` and `reject` (a reply, an error reply, or the connection lost: flushQueue);
// ioredis special-cases no command that Larder admits to the shared connection (SELECT, QUIT
// and the subscriptions are refused or run elsewhere: backend.ts).
//
// Taken only while the connection is ready and writable (ioredis queues commands offline
// otherwise) and while nobody traces ioredis's commands (its trace covers its own Commands
// only). Used from the JS thread only.

import diagnostics from 'node:diagnostics_channel';
import type { Redis } from 'ioredis';
import type { Args } from '../commands/spec.js';
import { isAscii } from '../bytes.js';

/** ioredis's reply queue (a denque of these entries), which it does not type publicly. */
interface ReplyQueue {
  push(entry: QueueEntry): void;
}

interface QueueEntry {
  readonly command: QueuedCommand;
  readonly stream: undefined;
  readonly select: number;
}

/** What ioredis calls on a queued command; `answer` is called exactly once, with the reply or the error. */
class QueuedCommand {
  constructor(
    readonly name: string,
    private readonly argv: Args,
    private readonly answer: (value: unknown, failed: boolean) => void,
  ) {}

  /** The arguments after the name, as ioredis reports them with an error reply. */
  get args(): readonly string[] {
    return this.argv.slice(1);
  }

  resolve(value: unknown): void {
    this.answer(value, false);
  }

  reject(error: Error): void {
    this.answer(error, true);
  }
}

const tracer = diagnostics.tracingChannel('ioredis:command') as unknown as { readonly hasSubscribers: boolean };

export class DirectSend {
  constructor(private readonly conn: Redis) {}

  /** Whether a command may take this path now; ioredis's own otherwise. */
  ready(): boolean {
    const stream = this.conn.stream;
    return this.conn.status === 'ready' && stream !== undefined && stream.writable && !tracer.hasSubscribers;
  }

  /** Writes `argv` (byte strings) and queues its entry; `answer` receives the reply, or the error with `failed`. */
  send(argv: Args, answer: (value: unknown, failed: boolean) => void): void {
    const conn = this.conn as unknown as { stream: { write(chunk: string | Buffer): boolean }; commandQueue: ReplyQueue; condition: { select: number } };
    conn.stream.write(encode(argv));
    conn.commandQueue.push({ command: new QueuedCommand(argv[0], argv, answer), stream: undefined, select: conn.condition.select });
  }
}

/**
 * RESP for a command of byte strings (latin1: one character per byte, so a length is the
 * string's). A socket writes a string as UTF-8, the same bytes while every character is ASCII;
 * a command with any other byte goes as its latin1 Buffer.
 */
function encode(argv: Args): string | Buffer {
  let out = `*${argv.length}\r\n`;
  for (const arg of argv) out += `$${arg.length}\r\n${arg}\r\n`;
  return isAscii(out) ? out : Buffer.from(out, 'latin1');
}
