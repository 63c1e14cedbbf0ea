// URL groups (`/v2/topics`): named lists of endpoints. A publish to a group's name fans out
// to one message per endpoint, each carrying the group's name (Upstash-Topic-Name) and the
// endpoint's name. Adding an endpoint whose URL or name is already there replaces it;
// removing the last endpoint deletes the group, as the service does.
// Not safe for concurrent use; one JS thread owns it.

import { invalidEndpoints, invalidUrlGroupName, isError, unknownUrlGroup, urlGroupInUse, type QueueError } from './errors.js';
import type { Draft } from './store/message.js';
import type { QueueStore } from './store/queue-store.js';
import type { Endpoint, UrlGroup } from './store/url-group.js';

/** Group names as the service allows them. */
export const isUrlGroupName = (name: string) => /^[A-Za-z0-9._-]+$/.test(name);

export class UrlGroups {
  constructor(
    private readonly store: QueueStore,
    private readonly now: () => number,
  ) {}

  get(name: string): UrlGroup | QueueError {
    return this.store.urlGroup(name) ?? unknownUrlGroup(name);
  }

  list(): UrlGroup[] {
    return [...this.store.urlGroups()].sort((a, b) => a.name.localeCompare(b.name));
  }

  /** Creates the group if needed; an endpoint with the same URL or name is replaced. */
  addEndpoints(name: string, endpoints: readonly Endpoint[]): QueueError | null {
    if (!isUrlGroupName(name)) return invalidUrlGroupName(name);
    if (endpoints.length === 0) return invalidEndpoints('at least one endpoint is needed');
    const now = this.now();
    const old = this.store.urlGroup(name);
    // By URL, in order (a replaced endpoint goes to the end), and the URL of each name: a
    // lookup per endpoint, where filtering the whole list for each took time n * m.
    const byUrl = new Map<string, Endpoint>();
    const urlOfName = new Map<string, string>();
    const drop = (url: string | undefined) => {
      const x = url === undefined ? undefined : byUrl.get(url);
      if (x === undefined) return;
      byUrl.delete(x.url);
      if (x.name !== undefined) urlOfName.delete(x.name);
    };
    const add = (e: Endpoint) => {
      drop(e.url);
      if (e.name !== undefined) drop(urlOfName.get(e.name));
      byUrl.set(e.url, e.name === undefined ? { url: e.url } : { url: e.url, name: e.name });
      if (e.name !== undefined) urlOfName.set(e.name, e.url);
    };
    for (const e of old?.endpoints ?? []) add(e);
    for (const e of endpoints) add(e);
    this.store.putUrlGroup({ name, createdAt: old?.createdAt ?? now, updatedAt: now, endpoints: [...byUrl.values()] });
    return null;
  }

  /**
   * Removes the endpoints matching any given name or URL; the group goes with its last endpoint,
   * so not while a schedule sends to it, as `delete`.
   */
  removeEndpoints(name: string, endpoints: readonly Partial<Endpoint>[]): QueueError | null {
    const old = this.store.urlGroup(name);
    if (old === undefined) return unknownUrlGroup(name);
    const urls = new Set(endpoints.map((e) => e.url));
    const names = new Set(endpoints.map((e) => e.name));
    const gone = (x: Endpoint) => urls.has(x.url) || (x.name !== undefined && names.has(x.name));
    const list = old.endpoints.filter((x) => !gone(x));
    if (list.length === 0) return this.delete(name);
    this.store.putUrlGroup({ ...old, updatedAt: this.now(), endpoints: list });
    return null;
  }

  /** Deletes a group; messages already published to it are still delivered. */
  delete(name: string): QueueError | null {
    if (this.store.urlGroup(name) === undefined) return unknownUrlGroup(name);
    for (const s of this.store.schedules()) if (s.destination === name) return urlGroupInUse(name, s.id);
    this.store.removeUrlGroup(name);
    return null;
  }

  /** One draft per endpoint of the group, made by `make` for the endpoint's URL. */
  fanOut(name: string, make: (url: string) => Draft | QueueError): Draft[] | QueueError {
    const group = this.store.urlGroup(name);
    if (group === undefined) return unknownUrlGroup(name);
    const out: Draft[] = [];
    for (const e of group.endpoints) {
      const d = make(e.url);
      if (isError(d)) return d;
      d.message.topicName = name;
      if (e.name !== undefined) d.message.endpointName = e.name;
      // A deduplication id names one publish, which is one message per endpoint.
      if (d.dedupKey !== undefined) d.dedupKey += `\n${e.url}`;
      out.push(d);
    }
    return out;
  }
}
