// One streaming client (SUBSCRIBE, PSUBSCRIBE, SSUBSCRIBE or MONITOR) as a server-sent event
// stream, in the format the @upstash/redis Subscriber parses: each event is one line
// `data: <kind>,<field>,...` (`data: message,<channel>,<payload>`) and a blank line.
//
// Payloads are byte strings and go out as the bytes they are: a UTF-8 payload arrives as the
// same text. The Upstash-Encoding header does not apply: the SDK never decodes a stream. A
// payload with line breaks is sent as several `data:` lines, as SSE says (EventSource joins
// them); no payload can forge an event of its own.
//
// Slow clients: the publisher hands events over synchronously and never waits. What the
// connection has not taken yet is queued here, up to `maxBytes`; a client that falls further
// behind is disconnected, as Redis disconnects a pub/sub client past its output buffer limit:
// its subscriptions end at once and the queue is freed, and the connection is cut (the
// iterator throws) when the adapter next asks for a chunk, which it does as soon as the socket
// drains. A client that never reads again holds only its socket's buffers until it goes away.
// Memory stays bounded and the other clients are not held up. Used only from the JS thread.

import type { PubSubClient } from '../backend.js';

/** Thrown into the adapter to cut the connection of a client that fell too far behind. */
export class FellBehind extends Error {}

export class EventStream implements PubSubClient, AsyncIterableIterator<Uint8Array> {
  /** Frames (byte strings) the connection has not taken yet. */
  private queue: string[] = [];
  private queued = 0;
  private waiter: ((next: IteratorResult<Uint8Array>) => void) | null = null;
  private state: 'open' | 'ending' | 'done' | 'fell-behind' = 'open';
  /** Ends the client's subscriptions; set once they are made. */
  private unsubscribe: (() => void) | null = null;

  constructor(private readonly maxBytes: number) {}

  /** Called once the backend has subscribed this client. */
  opened(unsubscribe: () => void): void {
    if (this.state === 'open' || this.state === 'ending') this.unsubscribe = unsubscribe;
    else unsubscribe();
  }

  send(event: readonly string[]): void {
    if (this.state !== 'open') return;
    const frame = frameOf(event);
    if (this.waiter !== null) {
      const resolve = this.waiter;
      this.waiter = null;
      resolve({ done: false, value: Buffer.from(frame, 'latin1') });
      return;
    }
    this.queued += frame.length;
    if (this.queued > this.maxBytes) {
      this.queue = [];
      this.queued = 0;
      this.stop('fell-behind');
      return;
    }
    this.queue.push(frame);
  }

  /** The database is closing: what is queued still goes out, then the stream ends. */
  end(): void {
    if (this.state !== 'open') return;
    this.state = 'ending';
    this.wake();
  }

  next(): Promise<IteratorResult<Uint8Array>> {
    if (this.queue.length > 0) {
      // Everything queued goes out as one chunk.
      const chunk = Buffer.from(this.queue.length === 1 ? this.queue[0] : this.queue.join(''), 'latin1');
      this.queue = [];
      this.queued = 0;
      return Promise.resolve({ done: false, value: chunk });
    }
    if (this.state === 'fell-behind') return Promise.reject(new FellBehind('the client fell behind its event stream'));
    if (this.state !== 'open') {
      this.stop('done');
      return Promise.resolve(DONE);
    }
    return new Promise((resolve) => (this.waiter = resolve));
  }

  /** The connection closed (the client went away, or the server is stopping). */
  return(): Promise<IteratorResult<Uint8Array>> {
    this.queue = [];
    this.queued = 0;
    this.stop('done');
    return Promise.resolve(DONE);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private stop(state: 'done' | 'fell-behind'): void {
    if (this.state === 'done' || this.state === 'fell-behind') return;
    this.state = state;
    const unsubscribe = this.unsubscribe;
    this.unsubscribe = null;
    unsubscribe?.();
    this.wake();
  }

  /** Settles a waiting `next` once the stream is over. */
  private wake(): void {
    const resolve = this.waiter;
    if (resolve === null) return;
    this.waiter = null;
    void this.next().then(resolve, () => resolve(DONE));
  }
}

const DONE: IteratorResult<Uint8Array> = { done: true, value: undefined };

// The hub hands the same event array to every receiver of one PUBLISH: it is framed once.
let lastEvent: readonly string[] | null = null;
let lastFrame = '';

function frameOf(event: readonly string[]): string {
  if (event !== lastEvent) {
    lastFrame = sseFrame(event.join(','));
    lastEvent = event;
  }
  return lastFrame;
}

/** One event: each line of the text as a `data:` line (CR, LF and CRLF all end lines in SSE). */
export function sseFrame(text: string): string {
  if (text.indexOf('\n') === -1 && text.indexOf('\r') === -1) return `data: ${text}\n\n`;
  return text
    .split(/\r\n|\r|\n/)
    .map((line) => `data: ${line}\n`)
    .join('') + '\n';
}
