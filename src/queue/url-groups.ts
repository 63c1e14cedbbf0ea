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
    let list = old?.endpoints ?? [];
    for (const e of endpoints) {
      list = list.filter((x) => x.url !== e.url && (e.name === undefined || x.name !== e.name));
      list.push(e.name === undefined ? { url: e.url } : { url: e.url, name: e.name });
    }
    this.store.putUrlGroup({ name, createdAt: old?.createdAt ?? now, updatedAt: now, endpoints: list });
    return null;
  }

  /** Removes the endpoints matching any given name or URL; the group goes with its last endpoint. */
  removeEndpoints(name: string, endpoints: readonly Partial<Endpoint>[]): QueueError | null {
    const old = this.store.urlGroup(name);
    if (old === undefined) return unknownUrlGroup(name);
    const gone = (x: Endpoint) => endpoints.some((e) => (e.url !== undefined && e.url === x.url) || (e.name !== undefined && e.name === x.name));
    const list = old.endpoints.filter((x) => !gone(x));
    if (list.length === 0) this.store.removeUrlGroup(name);
    else this.store.putUrlGroup({ ...old, updatedAt: this.now(), endpoints: list });
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
