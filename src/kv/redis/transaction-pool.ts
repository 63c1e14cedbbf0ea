// A few connections kept for transactions: each /multi-exec request holds one from MULTI to
// EXEC, so no other request's commands can come between them, and waits when all are taken.
// Touched only from the JS thread.

import type { Redis } from 'ioredis';

export class TransactionPool {
  private readonly idle: Redis[] = [];
  private readonly waiting: ((c: Redis) => void)[] = [];
  private opened = 0;

  constructor(
    private readonly size: number,
    private readonly open: () => Redis,
  ) {}

  async use<T>(fn: (c: Redis) => Promise<T>): Promise<T> {
    const c = await this.acquire();
    try {
      return await fn(c);
    } finally {
      this.release(c);
    }
  }

  private acquire(): Promise<Redis> {
    const c = this.idle.pop();
    if (c !== undefined) return Promise.resolve(c);
    if (this.opened < this.size) {
      this.opened++;
      return Promise.resolve(this.open());
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  private release(c: Redis): void {
    const next = this.waiting.shift();
    if (next !== undefined) next(c);
    else this.idle.push(c);
  }
}
