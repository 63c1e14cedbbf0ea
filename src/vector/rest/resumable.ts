// Resumable queries: a query whose results are handed out in pieces. A session keeps the
// query and the ids already returned; each next piece runs the query for the k best among
// the vectors not yet returned (VectorIndex.query), so a piece never repeats one. A session idle
// for longer than its maxIdle seconds is gone, and past `max` sessions the one used longest ago
// goes (a client could otherwise grow them without end; maxIdle may be any number).
// Not safe for concurrent use; the server's JS thread owns it.

import { randomUUID } from 'node:crypto';

export interface ResumableQuery<Q> {
  readonly ns: string;
  /** The query as first asked, include flags and all. */
  readonly query: Q;
  readonly maxIdleMs: number;
  readonly returned: Set<string>;
  lastUsed: number;
}

export class ResumableQueries<Q> {
  /** In the order they were last used, the one used longest ago first. */
  private readonly sessions = new Map<string, ResumableQuery<Q>>();

  constructor(
    private readonly now: () => number,
    private readonly max: number,
  ) {}

  start(q: Omit<ResumableQuery<Q>, 'lastUsed' | 'returned'>): { uuid: string; session: ResumableQuery<Q> } {
    this.sweep();
    if (this.sessions.size >= this.max) this.sessions.delete(this.sessions.keys().next().value!);
    const uuid = randomUUID();
    const session: ResumableQuery<Q> = { ...q, returned: new Set(), lastUsed: this.now() };
    this.sessions.set(uuid, session);
    return { uuid, session };
  }

  get(uuid: string): ResumableQuery<Q> | undefined {
    this.sweep();
    const s = this.sessions.get(uuid);
    if (s === undefined) return undefined;
    s.lastUsed = this.now();
    this.sessions.delete(uuid);
    this.sessions.set(uuid, s);
    return s;
  }

  end(uuid: string): boolean {
    return this.sessions.delete(uuid);
  }

  private sweep(): void {
    const now = this.now();
    for (const [uuid, s] of this.sessions) if (now - s.lastUsed > s.maxIdleMs) this.sessions.delete(uuid);
  }
}
