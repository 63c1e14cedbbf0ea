// Every error text the key-value service answers. Handlers and engine ops return these as
// values; `throw` is kept for bugs and I/O failures. Texts are Redis's own (7.x), or
// Upstash's where the REST service has its own.

export class ReplyError {
  constructor(readonly text: string) {}
}

export const isError = (r: unknown): r is ReplyError => r instanceof ReplyError;

export const WRONGTYPE = new ReplyError('WRONGTYPE Operation against a key holding the wrong kind of value');
export const NOT_INTEGER = new ReplyError('ERR value is not an integer or out of range');
export const NOT_FLOAT = new ReplyError('ERR value is not a valid float');
export const SYNTAX = new ReplyError('ERR syntax error');
export const NO_SUCH_KEY = new ReplyError('ERR no such key');
export const OVERFLOW = new ReplyError('ERR increment or decrement would overflow');
export const DECREMENT_OVERFLOW = new ReplyError('ERR decrement would overflow');
export const NAN_OR_INF = new ReplyError('ERR increment would produce NaN or Infinity');
export const STRING_TOO_LONG = new ReplyError('ERR string exceeds maximum allowed size (proto-max-bulk-len)');
export const OFFSET_OUT_OF_RANGE = new ReplyError('ERR offset is out of range');
export const LCS_NOT_STRINGS = new ReplyError('ERR The specified keys must contain string values');
export const LCS_LEN_AND_IDX = new ReplyError('ERR If you want both the length and indexes, please just use IDX.');
export const LCS_TABLE_TOO_BIG = new ReplyError('ERR Insufficient memory, transient memory for LCS exceeds proto-max-bulk-len');
export const LCS_NO_MEMORY = new ReplyError('ERR Insufficient memory, failed allocating transient memory for LCS');
export const INVALID_CURSOR = new ReplyError('ERR invalid cursor');
export const BAD_PAYLOAD = new ReplyError('ERR DUMP payload version or checksum are wrong');
export const BUSYKEY = new ReplyError('BUSYKEY Target key name already exists.');
export const NOPERM_KEY = new ReplyError('NOPERM this user has no permissions to access one of the keys used as arguments');
export const WRONG_PASS = new ReplyError('WRONGPASS invalid username-password pair or user is disabled.');
export const EXECABORT = new ReplyError('EXECABORT Transaction discarded because of previous errors.');
export const EXPIRE_NX_AND_OTHERS = new ReplyError('ERR NX and XX, GT or LT options at the same time are not compatible');
export const EXPIRE_GT_AND_LT = new ReplyError('ERR GT and LT options at the same time are not compatible');
export const DB_OUT_OF_RANGE = new ReplyError('ERR DB index is out of range');
export const INVALID_TTL = new ReplyError('ERR Invalid TTL value, must be >= 0');
export const INVALID_IDLETIME = new ReplyError('ERR Invalid IDLETIME value, must be >= 0');
export const INVALID_FREQ = new ReplyError('ERR Invalid FREQ value, must be >= 0 and <= 255');
export const LFU_NOT_SELECTED = new ReplyError(
  'ERR An LFU maxmemory policy is not selected, access frequency not tracked. Please note that when switching between policies at runtime LRU and LFU data will take some time to adjust.',
);

export const wrongArity = (name: string) => new ReplyError(`ERR wrong number of arguments for '${name}' command`);
export const invalidExpireTime = (name: string) => new ReplyError(`ERR invalid expire time in '${name}' command`);
export const noPermCommand = (name: string) =>
  new ReplyError(`NOPERM this user has no permissions to run the '${name}' command or its subcommand`);
export const unsupported = (name: string) =>
  new ReplyError(`ERR Command is not available: '${name}'. See https://upstash.com/docs/redis/overall/rediscompatibility for details`);
export const unsupportedOption = (option: string) => new ReplyError(`ERR Unsupported option ${option}`);
export const unknownSubcommand = (sub: string, name: string) =>
  new ReplyError(`ERR unknown subcommand '${sub}'. Try ${name.toUpperCase()} HELP.`);
export const maxRequestSize = (limit: number, actual: number) =>
  new ReplyError(`ERR max request size exceeded. Limit: ${limit} bytes, Actual: ${actual} bytes`);
export const dailyLimit = (limit: number) =>
  new ReplyError(`ERR max daily request limit exceeded. Limit: ${limit}, Usage: ${limit}`);

/** Redis quotes the first arguments of an unknown command, each cut to 128 bytes. */
export function unknownCommand(argv: readonly string[]): ReplyError {
  let args = '';
  for (let i = 1; i < argv.length && args.length < 128; i++) args += `'${argv[i].slice(0, 128)}' `;
  return new ReplyError(`ERR unknown command '${argv[0].slice(0, 128)}', with args beginning with: ${args}`);
}
