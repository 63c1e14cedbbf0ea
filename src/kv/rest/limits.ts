// Per-database request limits of the REST API: the size of one command and the number of
// commands a day (UTC). Both optional. Not safe for concurrent use; the JS thread is one.

import type { Args } from '../commands/spec.js';
import { dailyLimit, maxRequestSize, type ReplyError } from '../errors.js';

const DAY_MS = 86_400_000;

export interface LimitSettings {
  maxRequestSize?: number | undefined;
  dailyRequestLimit?: number | undefined;
}

export class Limits {
  private day = -1;
  private used = 0;

  constructor(
    private readonly settings: LimitSettings,
    private readonly now: () => number = Date.now,
  ) {}

  /** Checks and counts one command; the error to answer instead of running it, if any. */
  admit(argv: Args): ReplyError | null {
    return this.sizeOf(argv) ?? this.count(1);
  }

  /**
   * Checks a transaction's commands as one: any refusal discards them all, and then none of
   * them is counted.
   */
  admitAll(commands: readonly Args[]): ReplyError | null {
    for (const argv of commands) {
      const refusal = this.sizeOf(argv);
      if (refusal !== null) return refusal;
    }
    return this.count(commands.length);
  }

  private sizeOf(argv: Args): ReplyError | null {
    const max = this.settings.maxRequestSize;
    if (max === undefined) return null;
    let size = 0;
    for (let i = 0; i < argv.length; i++) size += argv[i].length;
    return size > max ? maxRequestSize(max, size) : null;
  }

  private count(n: number): ReplyError | null {
    const daily = this.settings.dailyRequestLimit;
    if (daily === undefined) return null;
    const today = Math.floor(this.now() / DAY_MS);
    if (today !== this.day) {
      this.day = today;
      this.used = 0;
    }
    if (this.used + n > daily) return dailyLimit(daily);
    this.used += n;
    return null;
  }
}
