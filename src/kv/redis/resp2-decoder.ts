// The RESP2 decoder every ioredis connection of the process uses (installed by
// reply-conversion.ts), in place of ioredis' own. Its one loop keeps nested arrays on a stack
// of its own: ioredis' recursive decoder ran out of call stack on a script's reply nested a few
// thousand deep (Redis nests a table holding itself about 8000 deep), and failed the connection
// and every request on it. Arrays deeper than MAX_DEPTH are read through and stand as the error
// Redis itself answers at its limit, as the embedded engine answers.
//
// Shapes are Larder's Reply values already, told apart by their RESP type: a bulk string is a
// byte string (latin1 JS string, null when absent), a simple string a Status, an integer a
// number (a bigint beyond 2^53), an error ioredis' ReplyError, an array an array (null when
// absent). Reading a bulk string straight into a JS string, and lengths by their digits, makes
// no small typed array per reply: on Bun (JavaScriptCore) each one costs more than the rest of
// the reply. ioredis' own uses read these shapes too: it turns replies into text with
// `toString()` (subscriber events, INFO), which a JS string answers with itself.
// Used from the JS thread only, one per connection.

import { createRequire } from 'node:module';
import { OK, Status } from '../reply.js';

const MAX_DEPTH = 1000;
const LF = 10;

interface Handlers {
  onReply(reply: unknown): void;
  onErrorReply(error: Error): void;
}

/** An array being read: its items so far, or null when it is deeper than MAX_DEPTH. */
interface Frame {
  readonly items: unknown[] | null;
  filled: number;
  readonly length: number;
}

const require = createRequire(import.meta.url);
const { SimpleError } = require('ioredis/built/resp/errors.js') as { SimpleError: new (message: string) => Error };
const tooDeep = () => new SimpleError('ERR reached lua stack limit');

export class Resp2Decoder {
  /** Bytes received and not decoded yet, and how many must be there before decoding goes on. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private need = 1;
  private readonly stack: Frame[] = [];

  constructor(private readonly handlers: Handlers) {}

  write(chunk: Buffer): void {
    this.pending.push(chunk);
    this.pendingBytes += chunk.length;
    if (this.pendingBytes < this.need) return;
    const buf = this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending, this.pendingBytes);
    const at = this.decode(buf);
    this.pending = at < buf.length ? [buf.subarray(at)] : [];
    this.pendingBytes = buf.length - at;
  }

  /** Decodes every whole value in `buf`; returns where the first incomplete one starts. */
  private decode(buf: Buffer): number {
    let pos = 0;
    while (pos < buf.length) {
      const lf = buf.indexOf(LF, pos);
      if (lf === -1) {
        this.need = buf.length - pos + 1;
        return pos;
      }
      const type = buf[pos];
      if (type === 0x24 /* $ */) {
        const n = lineInteger(buf, pos + 1, lf - 1);
        if (n < 0) this.emit(null);
        else {
          const end = lf + 1 + n + 2;
          if (end > buf.length) {
            this.need = end - pos;
            return pos;
          }
          this.emit(buf.toString('latin1', lf + 1, lf + 1 + n));
          pos = end;
          continue;
        }
      } else if (type === 0x2a /* * */) {
        const n = lineInteger(buf, pos + 1, lf - 1);
        if (n < 0) this.emit(null);
        else if (n === 0) this.emit([]);
        else {
          const deep = this.stack.length >= MAX_DEPTH || (this.stack.length > 0 && this.stack[this.stack.length - 1].items === null);
          this.stack.push({ items: deep ? null : new Array(n), filled: 0, length: n });
        }
      } else if (type === 0x2b /* + */) this.emit(simpleString(buf, pos + 1, lf - 1));
      else if (type === 0x3a /* : */) this.emit(integerReply(buf, pos + 1, lf - 1));
      else if (type === 0x2d /* - */) this.emit(new SimpleError(buf.toString('utf8', pos + 1, lf - 1)));
      else throw new Error(`protocol error: unexpected reply type byte ${type}`);
      pos = lf + 1;
    }
    this.need = 1;
    return pos;
  }

  /** Puts a value in the array being read, completing arrays upwards; a whole reply goes out. */
  private emit(value: unknown): void {
    for (;;) {
      const top = this.stack[this.stack.length - 1];
      if (top === undefined) {
        if (value instanceof Error) this.handlers.onErrorReply(value);
        else this.handlers.onReply(value);
        return;
      }
      if (top.items !== null) top.items[top.filled] = value;
      if (++top.filled < top.length) return;
      this.stack.pop();
      value = top.items ?? tooDeep();
    }
  }
}

/** The integer of a length line ($ and *), read by its digits. */
function lineInteger(buf: Buffer, from: number, to: number): number {
  const negative = buf[from] === 0x2d; /* - */
  let n = 0;
  for (let i = negative ? from + 1 : from; i < to; i++) n = n * 10 + buf[i] - 0x30;
  return negative ? -n : n;
}

/** An integer reply: a number, or a bigint when it has more digits than a double holds exactly. */
function integerReply(buf: Buffer, from: number, to: number): number | bigint {
  if (to - from <= 15) return lineInteger(buf, from, to);
  const text = buf.toString('latin1', from, to);
  const n = Number(text);
  return Number.isSafeInteger(n) ? n : BigInt(text);
}

/** A simple string ("+OK" is the commonest reply of all, so it is the one Status). */
function simpleString(buf: Buffer, from: number, to: number): Status {
  if (to - from === 2 && buf[from] === 0x4f /* O */ && buf[from + 1] === 0x4b /* K */) return OK;
  return new Status(buf.toString('utf8', from, to));
}
