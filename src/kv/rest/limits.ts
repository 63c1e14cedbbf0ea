// Per-database limits of the REST API: the size of one command and the number of commands a
// day (UTC), both optional, and the size of what one request answers. Not safe for concurrent
// use; the JS thread is one.

import type { Args } from '../commands/spec.js';
import { dailyLimit, maxRequestSize, replyTooLarge, type ReplyError } from '../errors.js';
import type { Reply } from '../reply.js';

const DAY_MS = 86_400_000;

export interface LimitSettings {
  maxRequestSize?: number | undefined;
  dailyRequestLimit?: number | undefined;
  /** The bytes of strings one request's replies may hold, summed. */
  maxReplyBytes: number;
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

  /** `reply`, or the error answered in its place when it holds more than maxReplyBytes. */
  bound(reply: Reply): Reply {
    const max = this.settings.maxReplyBytes;
    return replyBytes(reply, max) > max ? replyTooLarge(max) : reply;
  }

  /** A pipeline's replies, each that would take the whole past maxReplyBytes replaced by the error. */
  boundAll(replies: readonly Reply[]): Reply[] {
    const max = this.settings.maxReplyBytes;
    let left = max;
    return replies.map((r) => {
      const bytes = replyBytes(r, left);
      if (bytes > left) return replyTooLarge(max);
      left -= bytes;
      return r;
    });
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

/**
 * The bytes of a reply's strings, summed, with a little for every other item; counting stops
 * once past `limit`. A GET's reply, one string, costs one comparison.
 */
function replyBytes(r: Reply, limit: number): number {
  if (typeof r === 'string') return r.length;
  if (!Array.isArray(r)) return 16; // a number, nil, a status or an error: short
  let bytes = 2;
  for (let i = 0; i < r.length && bytes <= limit; i++) bytes += replyBytes(r[i], limit - bytes) + 1;
  return bytes;
}
