// Commands waiting for a write to a key (XREAD BLOCK): each waiter is woken by the first
// write to one of its keys, or times out. Runs on the JS thread only; a wake-up resolves a
// promise, so the waiting command re-runs after the writing command has finished.

interface Waiter {
  readonly keys: readonly string[];
  finish(woken: boolean): void;
}

export class KeyWaiters {
  private readonly byKey = new Map<string, Set<Waiter>>();

  /** Whether anyone waits (the database skips notifying when not). */
  get idle(): boolean {
    return this.byKey.size === 0;
  }

  /** Resolves true when one of `keys` is written, false after `ms` or on `cancelAll`. */
  wait(keys: readonly string[], ms: number): Promise<boolean> {
    return new Promise((resolve) => {
      const w: Waiter = {
        keys,
        finish: (woken) => {
          clearTimeout(timer);
          for (const k of keys) {
            const set = this.byKey.get(k);
            set?.delete(w);
            if (set?.size === 0) this.byKey.delete(k);
          }
          resolve(woken);
        },
      };
      const timer = setTimeout(() => w.finish(false), ms);
      for (const k of keys) {
        let set = this.byKey.get(k);
        if (set === undefined) this.byKey.set(k, (set = new Set()));
        set.add(w);
      }
    });
  }

  /** Wakes everyone waiting for `key`. */
  notify(key: string): void {
    const set = this.byKey.get(key);
    if (set !== undefined) for (const w of [...set]) w.finish(true);
  }

  /** Times every waiter out now (the database is closing). */
  cancelAll(): void {
    for (const set of [...this.byKey.values()]) for (const w of [...set]) w.finish(false);
  }
}
