// The cases where Larder follows Upstash instead of Redis: steps the differential runs do not
// send (each is a `deviates` entry of the command table; differential.test.ts checks the lists agree).

import { INT64_MAX } from '../../../src/kv/commands/args.js';
import { MAX_RANDOM_PICKS } from '../../../src/kv/commands/random-picks.js';
import type { Exclusion } from './harness.js';
import { WRITING_FUNCTIONS } from './scripting-steps.js';

/** ZRANGE-style options after the range arguments (from argv[at] on) hold LIMIT but no BYSCORE/BYLEX. */
const limitWithIndexRange = (at: number) => (argv: readonly string[]) => {
  const opts = argv.slice(at).map((a) => a.toLowerCase());
  return opts.includes('limit') && !opts.includes('byscore') && !opts.includes('bylex');
};

export const EXCLUSIONS: readonly Exclusion[] = [
  {
    command: 'copy',
    reason: 'COPY with the same source and destination returns 0 (Upstash), where Redis errors',
    applies: (argv) => argv[1] === argv[2],
  },
  { command: 'zrange', reason: 'ZRANGE pages an index range with LIMIT (Upstash)', applies: limitWithIndexRange(4) },
  { command: 'zrangestore', reason: 'ZRANGESTORE pages an index range with LIMIT (Upstash)', applies: limitWithIndexRange(5) },
  ...['eval', 'eval_ro'].map((command) => ({
    command,
    reason: "a shebang with Upstash's allow-key-locking flag runs (Redis 7.0 refuses the flag)",
    applies: (argv: readonly string[]) => /^#!lua[^\n]*allow-key-locking/.test(argv[1] ?? ''),
  })),
  {
    command: 'fcall_ro',
    reason: 'FCALL_RO runs a function without the no-writes flag (Upstash), where Redis refuses to',
    applies: (argv) => WRITING_FUNCTIONS.has(argv[1]),
  },
  ...['xadd', 'xtrim'].map((command) => ({
    command,
    reason: 'MAXLEN ~ and MINID ~ trim exactly (Upstash), where Redis removes whole nodes only',
    applies: (argv: readonly string[]) => argv.some((a, i) => a === '~' && /^(maxlen|minid)$/i.test(argv[i - 1])),
  })),
  ...['hexpire', 'hpexpire', 'hexpireat', 'hpexpireat', 'hgetex', 'hsetex'].map((command) => ({
    command,
    reason: "a field expiry time past Redis 7.4's 2^46 ms is taken, as EXPIREAT takes it (Upstash)",
    applies: fieldTimePastRedisLimit,
  })),
  { command: 'zrank', reason: 'ZRANK takes WITHSCORE (Redis 7.2)', applies: (argv) => argv.length > 3 },
  { command: 'zrevrank', reason: 'ZREVRANK takes WITHSCORE (Redis 7.2)', applies: (argv) => argv.length > 3 },
  // The random-element commands: the word that makes the reply pairs, if the command has one.
  ...(
    [
      ['hrandfield', 'withvalues'],
      ['srandmember', undefined],
      ['zrandmember', 'withscores'],
    ] as const
  ).map(([command, pairs]) => ({
    command,
    reason: `${command.toUpperCase()} with a negative count beyond ${MAX_RANDOM_PICKS} is refused, where Redis builds a reply of any size`,
    applies: (argv: readonly string[]) => {
      const withPairs = pairs !== undefined && argv.length === 4 && argv[3].toLowerCase() === pairs;
      if ((argv.length !== 3 && !withPairs) || !/^-\d+$/.test(argv[2])) return false;
      const n = BigInt(argv[2]);
      // Past these bounds Redis refuses the count itself, as Larder does.
      const bound = withPairs ? INT64_MAX / 2n : INT64_MAX;
      return n < -BigInt(MAX_RANDOM_PICKS) && n >= -bound;
    },
  })),
];

/** The time unit of a field-expiry command or option, and whether it is relative. */
const FIELD_TIME_UNITS: Readonly<Record<string, [bigint, boolean]>> = {
  hexpire: [1000n, true], hpexpire: [1n, true], hexpireat: [1000n, false], hpexpireat: [1n, false],
  ex: [1000n, true], px: [1n, true], exat: [1000n, false], pxat: [1n, false],
};

/** Whether a field-expiry command's time, made absolute, is past Redis 7.4's limit (2^46 - 1 ms). */
function fieldTimePastRedisLimit(argv: readonly string[]): boolean {
  // HGETEX and HSETEX: the time follows EX, PX, EXAT or PXAT; the HEXPIRE family: argv[2].
  const option = argv.findIndex((a, i) => i > 1 && FIELD_TIME_UNITS[a.toLowerCase()] !== undefined);
  const [unitWord, time] = option > 0 ? [argv[option], argv[option + 1]] : [argv[0], argv[2]];
  const [unit, relative] = FIELD_TIME_UNITS[unitWord.toLowerCase()] ?? [1n, false];
  if (!/^\d+$/.test(time ?? '')) return false;
  return BigInt(time) * unit + (relative ? BigInt(Date.now()) : 0n) > 2n ** 46n - 1n;
}
