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
//
// A reply is counted as it arrives, as the REST layer bounds replies (rest/limits.ts, the
// database's maxReplyBytes): one past twice the largest bound of the open databases is answered
// (and past 1 MiB, which ioredis' INFO at connect stays within) at once with the REST layer's
// error and read through without keeping it, a long bulk string skipped as its bytes come. A user's LRANGE of a 50M-item list otherwise had the gateway build
// it whole, and run out of memory, before the REST layer could refuse it. Twice, so that a
// transaction's replies (one EXEC array) are refused one by one by the REST layer, as on the
// embedded engine, unless together they pass twice the bound.
// Used from the JS thread only, one per connection.

import { createRequire } from 'node:module';
import { replyTooLarge } from '../errors.js';
import { OK, Status } from '../reply.js';

const MAX_DEPTH = 1000;
const LF = 10;
/** What limits.ts counts for an item that is not a string or an array, and for an array's brackets. */
const SCALAR_BYTES = 16;
const ARRAY_BYTES = 2;
/** Replies below this are always kept: ioredis' own INFO and CLUSTER SLOTS at connect, whatever the bound. */
const MIN_READ_THROUGH = 1 << 20;

interface Handlers {
  onReply(reply: unknown): void;
  onErrorReply(error: Error): void;
}

/** An array being read: its items so far, or null when it is deeper than MAX_DEPTH or not kept. */
interface Frame {
  items: unknown[] | null;
  filled: number;
  readonly length: number;
}

const require = createRequire(import.meta.url);
const { SimpleError } = require('ioredis/built/resp/errors.js') as { SimpleError: new (message: string) => Error };
const tooDeep = () => new SimpleError('ERR reached lua stack limit');

/** maxReplyBytes of each open remote database (as many entries as databases with that bound). */
const bounds: number[] = [];
/** Replies counted past this are read through; the error they stand as. */
let readThroughPast = Infinity;
let tooLargeText = '';

/** Counts `maxReplyBytes` among the open databases' bounds until the returned function is called. */
export function boundReplies(maxReplyBytes: number): () => void {
  bounds.push(maxReplyBytes);
  setReadThrough();
  let released = false;
  return () => {
    if (released) return;
    released = true;
    bounds.splice(bounds.indexOf(maxReplyBytes), 1);
    setReadThrough();
  };
}

function setReadThrough(): void {
  const largest = bounds.length === 0 ? Infinity : Math.max(...bounds);
  readThroughPast = Math.max(2 * largest, MIN_READ_THROUGH);
  tooLargeText = largest === Infinity ? '' : replyTooLarge(largest).text;
}

export class Resp2Decoder {
  /** Bytes received and not decoded yet, and how many must be there before decoding goes on. */
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private need = 1;
  private readonly stack: Frame[] = [];
  /** The reply being read so far, counted as limits.ts counts it. */
  private replyBytes = 0;
  /** The reply being read is past the bound: answered already, read through to its end. */
  private readingThrough = false;
  /** Bytes of a skipped bulk string (with its CRLF) still to come. */
  private skip = 0;

  constructor(private readonly handlers: Handlers) {}

  write(chunk: Buffer): void {
    if (this.skip > 0) {
      if (chunk.length < this.skip) {
        this.skip -= chunk.length;
        return;
      }
      chunk = chunk.subarray(this.skip);
      this.skip = 0;
      this.emit(null);
      if (chunk.length === 0) return;
    }
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
        if (n < 0) {
          this.fits(SCALAR_BYTES);
          this.emit(null);
        } else {
          const end = lf + 1 + n + 2;
          // Counted at its header: a bulk string past the bound is skipped as it comes, never gathered.
          const kept = this.fits(n);
          if (!kept && end > buf.length) {
            this.skip = end - buf.length;
            this.need = 1;
            return buf.length;
          }
          if (end > buf.length) {
            this.replyBytes -= n; // counted again when its bytes are there
            this.need = end - pos;
            return pos;
          }
          this.emit(kept ? buf.toString('latin1', lf + 1, lf + 1 + n) : null);
          pos = end;
          continue;
        }
      } else if (type === 0x2a /* * */) {
        const n = lineInteger(buf, pos + 1, lf - 1);
        if (n < 0) {
          this.fits(SCALAR_BYTES);
          this.emit(null);
        } else if (n === 0) {
          this.fits(ARRAY_BYTES);
          this.emit([]);
        } else {
          // Its items' separators are counted here, so an array that cannot fit is refused before it is made.
          const kept = this.fits(ARRAY_BYTES + n);
          const deep = !kept || this.stack.length >= MAX_DEPTH || (this.stack.length > 0 && this.stack[this.stack.length - 1].items === null);
          this.stack.push({ items: deep ? null : new Array(n), filled: 0, length: n });
        }
      } else {
        this.fits(SCALAR_BYTES);
        if (type === 0x2b /* + */) this.emit(simpleString(buf, pos + 1, lf - 1));
        else if (type === 0x3a /* : */) this.emit(integerReply(buf, pos + 1, lf - 1));
        else if (type === 0x2d /* - */) this.emit(new SimpleError(buf.toString('utf8', pos + 1, lf - 1)));
        else throw new Error(`protocol error: unexpected reply type byte ${type}`);
      }
      pos = lf + 1;
    }
    this.need = 1;
    return pos;
  }

  /**
   * Counts `bytes` into the reply being read; whether it is still kept. The first count past the
   * bound answers the reply with the REST layer's error and drops what was kept of it.
   */
  private fits(bytes: number): boolean {
    if (this.readingThrough) return false;
    this.replyBytes += bytes;
    if (this.replyBytes <= readThroughPast) return true;
    this.readingThrough = true;
    for (const frame of this.stack) frame.items = null;
    this.handlers.onErrorReply(new SimpleError(tooLargeText));
    return false;
  }

  /** Puts a value in the array being read, completing arrays upwards; a whole reply goes out. */
  private emit(value: unknown): void {
    for (;;) {
      const top = this.stack[this.stack.length - 1];
      if (top === undefined) {
        this.replyBytes = 0;
        if (this.readingThrough) this.readingThrough = false; // answered when it passed the bound
        else if (value instanceof Error) this.handlers.onErrorReply(value);
        else this.handlers.onReply(value);
        return;
      }
      if (top.items !== null) top.items[top.filled] = value;
      if (++top.filled < top.length) return;
      this.stack.pop();
      value = top.items ?? (this.readingThrough ? null : tooDeep());
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
