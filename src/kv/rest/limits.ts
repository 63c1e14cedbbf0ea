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
    const max = this.settings.maxRequestSize;
    if (max !== undefined) {
      let size = 0;
      for (let i = 0; i < argv.length; i++) size += argv[i].length;
      if (size > max) return maxRequestSize(max, size);
    }
    const daily = this.settings.dailyRequestLimit;
    if (daily !== undefined) {
      const today = Math.floor(this.now() / DAY_MS);
      if (today !== this.day) {
        this.day = today;
        this.used = 0;
      }
      if (this.used >= daily) return dailyLimit(daily);
      this.used++;
    }
    return null;
  }
}
