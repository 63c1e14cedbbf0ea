// What the random sequences are made of: a small key space, so commands collide on the same
// keys, and values chosen for edge cases (numbers near the int64 limits, float forms, empty,
// multi-byte UTF-8, bytes that are not UTF-8, NUL). Everything is a byte string.

import type { Rng } from './prng.js';

const utf8 = (text: string) => Buffer.from(text, 'utf8').toString('latin1');

export const KEYS: readonly string[] = ['a', 'b', 'c', 'k:1', 'k:2', '{t}x', utf8('ké'), 'bin\x00\xff'];

export const VALUES: readonly string[] = [
  '', '0', '1', '-1', '7', '42', '-100', '007', '+1', ' 1', '1 ', '0x10',
  '3.5', '-0.25', '1e3', '10.50', '.5', '5.', 'inf', '-inf', 'nan',
  '9223372036854775806', '9223372036854775807', '-9223372036854775807', '-9223372036854775808',
  '9223372036854775808', '18446744073709551616',
  'abc', 'abcabc', 'hello world', 'Hello', 'ohmytext', 'mynewtext', utf8('é'), utf8('aé€😀'),
  '\x00', 'ab\x00cd', '\xff\xfe', '\x80abc',
];

/** Integer arguments (INCRBY, GETRANGE, SETRANGE offsets, counts): edges and junk. */
export const INTEGERS: readonly string[] = [
  '0', '1', '-1', '2', '3', '-2', '5', '10', '-10', '100', '-100',
  '9223372036854775807', '-9223372036854775808', '9223372036854775806', '-9223372036854775807',
  '9223372036854775808', '1.5', 'abc', '', ' 3', '+3', '0x1',
];

export const FLOATS: readonly string[] = [
  '0', '0.1', '-2.5', '1e3', '3.0e-5', '1.5', '-0', '10', '-7', '5.0e3', '1e308', '-1e308', '1e-310',
  'inf', '-inf', '+inf', 'nan', 'abc', '', ' 1', '1 ', '0x10', '.5', '2.',
];

export const PATTERNS: readonly string[] = [
  '*', 'a', '?', 'k:*', 'k:?', '*:*', '[ab]', '[^a]*', '[a-c]', '{t}*', '\\{t}x', 'b*', '*\x00*', utf8('k*'), 'nomatch*', '[',
];

/** Relative and absolute times, far enough apart that no comparison between them can race. */
export class Times {
  /** Seconds since the epoch when the run started. */
  readonly base = Math.floor(Date.now() / 1000);

  /** Seconds from now: none expires during a run. */
  relSeconds(rng: Rng): string {
    return rng.pick(['5000', '6000', '50000']);
  }

  relMillis(rng: Rng): string {
    return rng.pick(['5000000', '6000123', '50000000']);
  }

  /** Absolute Unix seconds: mostly far in the future, sometimes in the past (the key is deleted). */
  absSeconds(rng: Rng): string {
    if (rng.chance(0.1)) return rng.pick(['1', String(this.base - 1000)]);
    return String(this.base + rng.pick([100000, 200000, 300000, 400000]));
  }

  absMillis(rng: Rng): string {
    if (rng.chance(0.1)) return rng.pick(['1', String(this.base * 1000 - 1000000)]);
    return String(this.base * 1000 + rng.pick([100000000, 150000500, 200000000, 300000999]));
  }

  /** Invalid or edge expiry arguments. */
  badTime(rng: Rng): string {
    return rng.pick(['0', '-1', 'abc', '', '1.5', '9223372036854775807', '-9223372036854775808', '9223372036854775']);
  }
}

/** `word` in a random letter case: command names and options are case-insensitive. */
export function anyCase(rng: Rng, word: string): string {
  const r = rng.next();
  if (r < 0.6) return word;
  if (r < 0.85) return word.toLowerCase();
  return [...word].map((c) => (rng.chance(0.5) ? c.toLowerCase() : c.toUpperCase())).join('');
}
