// Reads a server-sent event stream (/subscribe, /psubscribe, /monitor) with raw fetch, one
// event at a time, as the SDK's Subscriber would.

import assert from 'node:assert/strict';
import type { KvClient } from './larder.js';

/** An open event stream: each `next()` is one event's data lines, joined by '\n'. */
export interface Events {
  readonly status: number;
  readonly headers: Headers;
  next(): Promise<string>;
  close(): void;
}

export async function openEvents(c: KvClient, path: string, init: RequestInit & { token?: string } = {}): Promise<Events> {
  const abort = new AbortController();
  const res = await c.request(path, { ...init, signal: abort.signal });
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  return {
    status: res.status,
    headers: res.headers,
    async next() {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end !== -1) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          return event
            .split('\n')
            .map((line) => (assert.ok(line.startsWith('data: '), line), line.slice(6)))
            .join('\n');
        }
        const { value, done } = await reader.read();
        if (done) throw new Error(`stream ended; unread: ${JSON.stringify(buffer)}`);
        buffer += decoder.decode(value, { stream: true });
      }
    },
    close: () => abort.abort(),
  };
}
