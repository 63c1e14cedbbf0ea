// ioredis wraps each command in a diagnostics_channel trace unless its TracingChannel says
// nobody listens (`hasSubscribers === false`). Bun's TracingChannel has no `hasSubscribers`
// (Node's has since 20.13), so on Bun every command paid for a traced promise and a copy of
// its arguments, about a tenth of the gateway's CPU per GET. This gives Bun's TracingChannel the
// getter as Node defines it: true while any of its five channels has a subscriber, so a tracer
// that subscribes still sees every command.

import diagnostics from 'node:diagnostics_channel';

type Channels = Record<'start' | 'end' | 'asyncStart' | 'asyncEnd' | 'error', { readonly hasSubscribers: boolean }>;

/** Adds `hasSubscribers` to the runtime's TracingChannel where it lacks it (Bun); a no-op on Node. */
export function completeTracingChannel(): void {
  const proto = Object.getPrototypeOf(diagnostics.tracingChannel('larder:probe')) as object;
  if ('hasSubscribers' in proto) return;
  Object.defineProperty(proto, 'hasSubscribers', {
    configurable: true,
    // Read for every command: plain property reads, no array or closure.
    get(this: Channels) {
      const c = this;
      return c.start.hasSubscribers || c.end.hasSubscribers || c.asyncStart.hasSubscribers || c.asyncEnd.hasSubscribers || c.error.hasSubscribers;
    },
  });
}
