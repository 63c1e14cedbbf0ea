// One database's pub/sub state (Redis pubsub.c): who listens to which channel, pattern and
// shard channel, and who monitors. Touched only from the JS thread, synchronously: PUBLISH
// hands each event to its receivers before it returns, and a receiver never blocks it (each
// client queues, and disconnects itself when it falls too far behind; see rest/event-stream.ts).

import type { Args } from '../../commands/spec.js';
import { globMatch } from '../../../text/glob.js';

/** A streaming client (an SSE connection): events are Redis's push replies, e.g. ['message', channel, payload]. */
export interface PubSubClient {
  /** Takes one event at once; must not block or throw. */
  send(event: readonly string[]): void;
  /** The database is closing: the client's stream ends. */
  end(): void;
}

export type SubscriptionKind = 'channel' | 'pattern' | 'shard';

/** The confirmation each kind of subscription sends (Redis's subscribe/psubscribe/ssubscribe replies). */
const CONFIRMATION: Record<SubscriptionKind, string> = { channel: 'subscribe', pattern: 'psubscribe', shard: 'ssubscribe' };

/** What one client is subscribed to, to count its subscriptions and drop them at once. */
interface Subscriptions {
  readonly channel: Set<string>;
  readonly pattern: Set<string>;
  readonly shard: Set<string>;
}

export class PubSubHub {
  private readonly byKind: Record<SubscriptionKind, Map<string, Set<PubSubClient>>> = {
    channel: new Map(),
    pattern: new Map(),
    shard: new Map(),
  };
  private readonly clients = new Map<PubSubClient, Subscriptions>();
  /** null while nobody monitors, so the command path pays one comparison. */
  monitors: Set<PubSubClient> | null = null;

  /** Subscribes `client` to `name` and confirms it with the client's subscription count. */
  subscribe(kind: SubscriptionKind, name: string, client: PubSubClient): void {
    let subs = this.clients.get(client);
    if (subs === undefined) this.clients.set(client, (subs = { channel: new Set(), pattern: new Set(), shard: new Set() }));
    if (!subs[kind].has(name)) {
      subs[kind].add(name);
      const map = this.byKind[kind];
      let listeners = map.get(name);
      if (listeners === undefined) map.set(name, (listeners = new Set()));
      listeners.add(client);
    }
    // Shard subscriptions are counted apart from the others, as Redis does.
    const count = kind === 'shard' ? subs.shard.size : subs.channel.size + subs.pattern.size;
    client.send([CONFIRMATION[kind], name, String(count)]);
  }

  /** Ends every subscription of `client` and its monitoring, if any. */
  drop(client: PubSubClient): void {
    const subs = this.clients.get(client);
    if (subs !== undefined) {
      this.clients.delete(client);
      for (const kind of ['channel', 'pattern', 'shard'] as const) {
        const map = this.byKind[kind];
        for (const name of subs[kind]) {
          const listeners = map.get(name)!;
          listeners.delete(client);
          if (listeners.size === 0) map.delete(name);
        }
      }
    }
    if (this.monitors?.delete(client) && this.monitors.size === 0) this.monitors = null;
  }

  /** Drops and ends every client (shutdown). */
  dropAll(): void {
    for (const client of [...this.clients.keys(), ...(this.monitors ?? [])]) {
      this.drop(client);
      client.end();
    }
  }

  /** PUBLISH: the number of receivers, a client counted once per channel or pattern that matched. */
  publish(channel: string, message: string): number {
    let receivers = 0;
    const listeners = this.byKind.channel.get(channel);
    // Counted as sent: a client that falls behind on this very event still counts, as in Redis
    // (and a send may drop its client from the set being walked, which a Set allows).
    if (listeners !== undefined) {
      const event = ['message', channel, message];
      for (const client of listeners) {
        client.send(event);
        receivers++;
      }
    }
    for (const [pattern, clients] of this.byKind.pattern) {
      if (!globMatch(pattern, channel)) continue;
      const event = ['pmessage', pattern, channel, message];
      for (const client of clients) {
        client.send(event);
        receivers++;
      }
    }
    return receivers;
  }

  /** SPUBLISH: shard channels have no patterns. */
  spublish(channel: string, message: string): number {
    const listeners = this.byKind.shard.get(channel);
    if (listeners === undefined) return 0;
    const event = ['smessage', channel, message];
    let receivers = 0;
    for (const client of listeners) {
      client.send(event);
      receivers++;
    }
    return receivers;
  }

  /** Active channels (those with a subscriber) matching `pattern`, if given. */
  names(kind: 'channel' | 'shard', pattern: string | undefined): string[] {
    const names = [...this.byKind[kind].keys()];
    return pattern === undefined ? names : names.filter((name) => globMatch(pattern, name));
  }

  /** Subscribers of one channel, pattern subscriptions left out. */
  count(kind: 'channel' | 'shard', name: string): number {
    return this.byKind[kind].get(name)?.size ?? 0;
  }

  /** PUBSUB NUMPAT: distinct patterns subscribed to. */
  get patternCount(): number {
    return this.byKind.pattern.size;
  }

  monitor(client: PubSubClient): void {
    (this.monitors ??= new Set()).add(client);
  }

  /** Sends one MONITOR line to every monitor; called only while there are some. */
  feed(line: string): void {
    const event = [line];
    for (const client of this.monitors!) client.send(event);
  }
}

/**
 * Redis's MONITOR line: `<seconds>.<micros> [<db> <client>] "arg" ...`, each argument quoted
 * as sdscatrepr does. Over HTTP there is no client address; the client is shown as `http`.
 */
export function monitorLine(nowMs: number, argv: Args): string {
  let line = `${Math.floor(nowMs / 1000)}.${String((nowMs % 1000) * 1000).padStart(6, '0')} [0 http]`;
  for (const arg of argv) line += ' ' + quote(arg);
  return line;
}

const ESCAPES: Record<number, string> = { 10: '\\n', 13: '\\r', 9: '\\t', 7: '\\a', 8: '\\b', 34: '\\"', 92: '\\\\' };

/** sdscatrepr: printable ASCII as is, the usual escapes, every other byte as \xhh. */
function quote(arg: string): string {
  let out = '"';
  for (let i = 0; i < arg.length; i++) {
    const c = arg.charCodeAt(i);
    const escape = ESCAPES[c];
    if (escape !== undefined) out += escape;
    else if (c >= 0x20 && c < 0x7f) out += arg[i];
    else out += '\\x' + c.toString(16).padStart(2, '0');
  }
  return out + '"';
}
