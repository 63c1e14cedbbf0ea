// Every error text the key-value service answers. Handlers and engine ops return these as
// values; `throw` is kept for bugs and I/O failures. Texts are Redis's own (7.x), or
// Upstash's where the REST service has its own.

export class ReplyError {
  constructor(readonly text: string) {}
}

export const isError = (r: unknown): r is ReplyError => r instanceof ReplyError;

// The REST surface's own refusals, before any command runs (status codes in rest/routes.ts).
export const UNAUTHORIZED = new ReplyError('Unauthorized');
export const NO_COMMAND = new ReplyError('ERR no command: put one in the path, or POST it as a JSON array');
export const NOT_A_COMMAND = new ReplyError('ERR a command must be a non-empty JSON array of strings and numbers');
export const NOT_A_BATCH = new ReplyError('ERR a pipeline or transaction body must be a non-empty JSON array of commands');
export const RESP2_WITH_BASE64 = new ReplyError('ERR resp2 response format cannot be combined with base64 encoding');
export const RESP2_MULTI_EXEC = new ReplyError('ERR resp2 response format is not supported with multi-exec');
export const badJson = (at: number) => new ReplyError(`ERR failed to parse the request body as JSON at byte ${at}`);
export const badArgument = (kind: string) => new ReplyError(`ERR command arguments must be strings or numbers, got ${kind}`);
export const bodyTooLarge = (limit: number) => new ReplyError(`ERR request body exceeds the limit of ${limit} bytes`);
export const unknownDatabase = (name: string) => new ReplyError(`ERR database '${name}' not found`);
export const methodNotAllowed = (method: string) =>
  new ReplyError(`ERR method ${method} is not allowed; use GET, HEAD, POST or PUT`);
export const unsupportedEncoding = (value: string) =>
  new ReplyError(`ERR unsupported encoding '${value}'; the only encoding is base64`);
export const unsupportedFormat = (value: string) =>
  new ReplyError(`ERR unsupported response format '${value}'; use json or resp2`);

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
export const NOPERM_CHANNEL = new ReplyError('NOPERM this user has no permissions to access one of the channels used as arguments');
export const WRONG_PASS = new ReplyError('WRONGPASS invalid username-password pair or user is disabled.');
/** ACL RESTTOKEN's refusal, in the words of Upstash's REST API page (a user that is off too). */
export const restTokenRefused = (name: string) => new ReplyError(`ERR Wrong password or user "${name}" does not exist`);
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

// Lists (Redis t_list.c).
export const INDEX_OUT_OF_RANGE = new ReplyError('ERR index out of range');
export const LPOS_RANK_ZERO = new ReplyError(
  "ERR RANK can't be zero: use 1 to start from the first match, 2 from the second ... or use negative to start from the end of the list",
);
export const LPOS_COUNT_NEGATIVE = new ReplyError("ERR COUNT can't be negative");
export const LPOS_MAXLEN_NEGATIVE = new ReplyError("ERR MAXLEN can't be negative");

// Sets (Redis t_set.c).
export const NUMKEYS_OVER_ARGS = new ReplyError("ERR Number of keys can't be greater than number of args");

// Bitmaps (Redis bitops.c).
export const BIT_OFFSET = new ReplyError('ERR bit offset is not an integer or out of range');
export const BIT_VALUE = new ReplyError('ERR bit is not an integer or out of range');
export const BITPOS_BIT = new ReplyError('ERR The bit argument must be 1 or 0.');
export const BITOP_NOT_ONE_KEY = new ReplyError('ERR BITOP NOT must be called with a single source key.');
export const BITFIELD_TYPE = new ReplyError(
  'ERR Invalid bitfield type. Use something like i16 u8. Note that u64 is not supported but i64 is.',
);
export const BITFIELD_OVERFLOW = new ReplyError('ERR Invalid OVERFLOW type specified');
export const BITFIELD_RO_WRITE = new ReplyError('ERR BITFIELD_RO only supports the GET subcommand');
/** `op` as the client spelled it, upper-cased, as Redis 8.2 quotes it. */
export const bitopTwoKeys = (op: string) =>
  new ReplyError(`ERR BITOP ${op.toUpperCase()} must be called with at least two source keys.`);

// HyperLogLog (Redis hyperloglog.c).
export const NOT_HLL = new ReplyError('WRONGTYPE Key is not a valid HyperLogLog string value.');
export const HLL_CORRUPT = new ReplyError('INVALIDOBJ Corrupted HLL object detected');

// Hashes (Redis t_hash.c).
export const HASH_NOT_INTEGER = new ReplyError('ERR hash value is not an integer');
export const HASH_NOT_FLOAT = new ReplyError('ERR hash value is not a float');
export const INCREMENT_NAN_OR_INF = new ReplyError('ERR value is NaN or Infinity');
export const OUT_OF_RANGE = new ReplyError('ERR value is out of range');
export const NOT_A_LONG = new ReplyError(
  'ERR value is out of range, value must between -9223372036854775807 and 9223372036854775807',
);
export const FIELDS_MISSING = new ReplyError('ERR Mandatory argument FIELDS is missing or not at the right position');
export const NUMFIELDS_NOT_POSITIVE = new ReplyError('ERR Number of fields must be a positive integer');
export const NUMFIELDS_NOT_ABOVE_ZERO = new ReplyError('ERR Parameter `numFields` should be greater than 0');
export const NUMFIELDS_MISMATCH = new ReplyError('ERR The `numfields` parameter must match the number of arguments');
export const INVALID_NUMFIELDS = new ReplyError('ERR invalid number of fields');
export const NEGATIVE_EXPIRE_TIME = new ReplyError('ERR invalid expire time, must be >= 0');
export const MISSING_EXPIRE_TIME = new ReplyError('ERR missing expire time');
export const HSETEX_FNX_AND_FXX = new ReplyError('ERR Only one of FXX or FNX arguments can be specified');
export const HSETEX_EXPIRY_TWICE = new ReplyError('ERR Only one of EX, PX, EXAT, PXAT or KEEPTTL arguments can be specified');
export const unknownArgument = (arg: string) => new ReplyError(`ERR unknown argument: ${arg}`);
/** Larder's own: Redis would build a reply of any size, which the REST answer could not carry. */
export const tooManyPicks = (limit: number) =>
  new ReplyError(`ERR count is too large: at most ${limit} random elements are answered at once`);

export const wrongArity = (name: string) => new ReplyError(`ERR wrong number of arguments for '${name}' command`);
export const configUnknownOption = (name: string) => new ReplyError(`ERR Unknown option or number of arguments for CONFIG SET - '${name}'`);
export const configSetFailed = (name: string, why: string) =>
  new ReplyError(`ERR CONFIG SET failed (possibly related to argument '${name}') - ${why}`);
export const invalidExpireTime = (name: string) => new ReplyError(`ERR invalid expire time in '${name}' command`);
export const noPermCommand = (name: string) =>
  new ReplyError(`NOPERM this user has no permissions to run the '${name}' command or its subcommand`);
export const unsupported = (name: string) =>
  new ReplyError(`ERR Command is not available: '${name}'. See https://upstash.com/docs/redis/overall/rediscompatibility for details`);
export const clientUnknownAttr = (attr: string) => new ReplyError(`ERR Unrecognized option '${attr}'`);
export const clientAttrInvalid = (attr: string) => new ReplyError(`ERR ${attr} cannot contain spaces, newlines or special characters.`);
export const unsupportedOption = (option: string) => new ReplyError(`ERR Unsupported option ${option}`);
/** A command only the embedded engine has (SEARCH.*), sent to a database on a remote Redis. */
export const needsEmbeddedEngine = (name: string) =>
  new ReplyError(`ERR ${name.toUpperCase()} needs Larder's embedded engine; this database uses engine: redis`);
export const unknownSubcommand = (sub: string, name: string) =>
  new ReplyError(`ERR unknown subcommand '${sub}'. Try ${name.toUpperCase()} HELP.`);
export const maxRequestSize = (limit: number, actual: number) =>
  new ReplyError(`ERR max request size exceeded. Limit: ${limit} bytes, Actual: ${actual} bytes`);
/** Larder's own: the reply was made (a write took effect) but one response cannot carry it. */
export const replyTooLarge = (limit: number) =>
  new ReplyError(`ERR reply too large: its strings hold over ${limit} bytes (maxReplyBytes); read it in parts, as GETRANGE, LRANGE or SCAN do`);
export const dailyLimit = (limit: number) =>
  new ReplyError(`ERR max daily request limit exceeded. Limit: ${limit}, Usage: ${limit}`);

/** Redis quotes the first arguments of an unknown command, each cut to 128 bytes. */
export function unknownCommand(argv: readonly string[]): ReplyError {
  let args = '';
  for (let i = 1; i < argv.length && args.length < 128; i++) args += `'${argv[i].slice(0, 128)}' `;
  return new ReplyError(`ERR unknown command '${argv[0].slice(0, 128)}', with args beginning with: ${args}`);
}

// ACL (Redis acl.c).
export const ACL_BAD_USERNAME = new ReplyError("ERR Usernames can't contain spaces or null characters");
export const ACL_DELETE_DEFAULT = new ReplyError("ERR The 'default' user cannot be removed");
export const ACL_GENPASS_BITS = new ReplyError(
  'ERR ACL GENPASS argument must be the number of bits for the output password, a positive number up to 4096',
);
/** Larder's words: Upstash's ACL GENTOKEN page says a weak password is refused, not how. */
export const ACL_WEAK_PASSWORD = new ReplyError(
  'ERR ACL GENTOKEN password is too weak: give one of at least 64 bits (say 12 random letters and digits), or none to have one generated',
);
export const aclNoSuchUser = (name: string) => new ReplyError(`ERR User '${name}' not found`);
export const aclNoSuchCommand = (name: string) => new ReplyError(`ERR Command '${name}' not found`);
export const aclUnknownCategory = (name: string) => new ReplyError(`ERR Unknown category '${name}'`);
export const aclUnmatchedParenthesis = (op: string) =>
  new ReplyError(`ERR Unmatched parenthesis in acl selector starting at '${op}'.`);
export const subcommandSyntax = (sub: string, name: string) =>
  new ReplyError(`ERR unknown subcommand or wrong number of arguments for '${sub}'. Try ${name.toUpperCase()} HELP.`);

/** Why ACL SETUSER refused one rule (Redis ACLSetUserStringError). */
export const AclRule = {
  SYNTAX: 'Syntax error',
  UNKNOWN: 'Unknown command or category name in ACL',
  KEYS_AFTER_ALL:
    "Adding a pattern after the * pattern (or the 'allkeys' flag) is not valid and does not have any effect. Try 'resetkeys' to start with an empty list of patterns",
  CHANNELS_AFTER_ALL:
    "Adding a pattern after the * pattern (or the 'allchannels' flag) is not valid and does not have any effect. Try 'resetchannels' to start with an empty list of channels",
  NO_SUCH_PASSWORD: 'The password you are trying to remove from the user does not exist',
  BAD_HASH: 'The password hash must be exactly 64 characters and contain only lowercase hexadecimal characters',
  SUBCOMMAND_FIRST_ARG: 'Allowing first-arg of a subcommand is not supported',
} as const;
export type AclRuleReason = (typeof AclRule)[keyof typeof AclRule];
export const aclRuleError = (op: string, reason: AclRuleReason) =>
  new ReplyError(`ERR Error in ACL SETUSER modifier '${op}': ${reason}`);

// Sorted sets (Redis t_zset.c).
export const ZADD_NX_AND_XX = new ReplyError('ERR XX and NX options at the same time are not compatible');
export const ZADD_GT_LT_NX = new ReplyError('ERR GT, LT, and/or NX options at the same time are not compatible');
export const ZADD_INCR_PAIRS = new ReplyError('ERR INCR option supports a single increment-element pair');
export const SCORE_NAN = new ReplyError('ERR resulting score is not a number (NaN)');
export const MIN_MAX_NOT_FLOAT = new ReplyError('ERR min or max is not a float');
export const MIN_MAX_NOT_LEX = new ReplyError('ERR min or max not valid string range item');
export const WEIGHT_NOT_FLOAT = new ReplyError('ERR weight value is not a float');
export const LIMIT_NEGATIVE = new ReplyError("ERR LIMIT can't be negative");
export const NOT_POSITIVE = new ReplyError('ERR value is out of range, must be positive');
export const NUMKEYS_NOT_POSITIVE = new ReplyError('ERR numkeys should be greater than 0');
export const COUNT_NOT_POSITIVE = new ReplyError('ERR count should be greater than 0');
export const ZRANGE_LIMIT_NEEDS_BY = new ReplyError(
  'ERR syntax error, LIMIT is only supported in combination with either BYSCORE or BYLEX',
);
export const ZRANGE_WITHSCORES_BYLEX = new ReplyError('ERR syntax error, WITHSCORES not supported in combination with BYLEX');
export const atLeastOneKey = (name: string) => new ReplyError(`ERR at least 1 input key is needed for '${name}' command`);

// SORT (Redis sort.c).
export const SORT_SCORE_NOT_DOUBLE = new ReplyError("ERR One or more scores can't be converted into double");
// BY and GET read keys named by the data: Redis allows them only to a user who may read any key.
export const SORT_BY_DENIED = new ReplyError('ERR BY option of SORT denied due to insufficient ACL permissions.');
export const SORT_GET_DENIED = new ReplyError('ERR GET option of SORT denied due to insufficient ACL permissions.');

// GEO (geo.c)
export const GEO_UNIT = new ReplyError('ERR unsupported unit provided. please use M, KM, FT, MI');
export const GEO_MEMBER = new ReplyError('ERR could not decode requested zset member');
export const GEO_RADIUS_NEGATIVE = new ReplyError('ERR radius cannot be negative');
export const GEO_BOX_NEGATIVE = new ReplyError('ERR height or width cannot be negative');
export const GEO_NEED_RADIUS = new ReplyError('ERR need numeric radius');
export const GEO_NEED_WIDTH = new ReplyError('ERR need numeric width');
export const GEO_NEED_HEIGHT = new ReplyError('ERR need numeric height');
export const GEO_COUNT = new ReplyError('ERR COUNT must be > 0');
export const GEO_ANY_COUNT = new ReplyError('ERR the ANY argument requires COUNT argument');
export const geoBadPair = (lon: string, lat: string) => new ReplyError(`ERR invalid longitude,latitude pair ${lon},${lat}`);
export const geoStoreWith = (what: string) =>
  new ReplyError(`ERR ${what} is not compatible with WITHDIST, WITHHASH and WITHCOORD options`);
export const geoFrom = (cmd: string) => new ReplyError(`ERR exactly one of FROMMEMBER or FROMLONLAT can be specified for ${cmd}`);
export const geoBy = (cmd: string) => new ReplyError(`ERR exactly one of BYRADIUS and BYBOX can be specified for ${cmd}`);

// JSON documents (RedisJSON 2.x: commands.rs, manager.rs, redis-module's rediserror.rs).
// Some texts have no error code, as RedisJSON sends them.
export const JSON_NEW_AT_ROOT = new ReplyError('ERR new objects must be created at the root');
export const JSON_NO_KEY = new ReplyError("ERR could not perform this operation on a key that doesn't exist");
export const JSON_INDEX_OUT_OF_RANGE = new ReplyError('ERR array index out of range');
export const JSON_INDEX_OUT_OF_BOUNDS = new ReplyError('ERR index out of bounds');
export const JSON_NOT_STATIC_PATH = new ReplyError('Err wrong static path');
export const JSON_BAD_NUMBER = new ReplyError('bad input number');
export const JSON_NOT_A_NUMBER = new ReplyError('result is not a number');
export const jsonPathMissing = (path: string) => new ReplyError(`ERR Path '${path}' does not exist`);
export const jsonPathMissingOr = (path: string, or: string) => new ReplyError(`ERR Path '${path}' does not exist or ${or}`);
export const jsonExpected = (expected: string, found: string) =>
  new ReplyError(`WRONGTYPE wrong type of path value - expected ${expected} but found ${found}`);
/** A JSON parse failure in serde_json's words, as RedisJSON answers it (`prefixed`: where it adds ERR). */
export const jsonSyntax = (message: string, prefixed: boolean) => new ReplyError(prefixed ? `ERR ${message}` : message);
/** A JSONPath that does not parse (RedisJSON quotes the position, 1-based). */
export const jsonBadPath = (message: string) => new ReplyError(message);
export const JSON_TOO_DEEP = new ReplyError('ERR the document would nest deeper than 1024 levels');
/** Larder's own bound on a JSON command's work (engine/json/json-work.ts). */
export const jsonTooCostly = (limit: number, base: number, perValue: number) =>
  new ReplyError(`ERR the JSON command would touch more than ${limit} values (${base} plus ${perValue} for each value of the documents it reads); narrow its paths`);

// Scripting (Redis eval.c, script.c, script_lua.c, functions.c).
export const NOSCRIPT = new ReplyError('NOSCRIPT No matching script. Please use EVAL.');
export const NUMKEYS_NEGATIVE = new ReplyError("ERR Number of keys can't be negative");
export const BAD_NUMKEYS = new ReplyError('ERR Bad number of keys provided');
export const NUMKEYS_TOO_MANY = new ReplyError("ERR Number of keys can't be greater than number of args");
export const SCRIPT_UNKNOWN_COMMAND = new ReplyError('ERR Unknown Redis command called from script');
export const SCRIPT_WRONG_ARITY = new ReplyError('ERR Wrong number of args calling Redis command from script');
export const SCRIPT_NOT_ALLOWED = new ReplyError('ERR This Redis command is not allowed from script');
export const SCRIPT_WRITE_IN_READONLY = new ReplyError('ERR Write commands are not allowed from read-only scripts.');
export const SCRIPT_ACL_COMMAND = new ReplyError("ERR The user executing the script can't run this command or subcommand");
export const SCRIPT_ACL_KEY = new ReplyError(
  "ERR The user executing the script can't access at least one of the keys mentioned in the command arguments",
);
export const SCRIPT_ACL_CHANNEL = new ReplyError("ERR The user executing the script can't publish to the channel mentioned in the command");
export const SCRIPT_FLUSH_OPTION = new ReplyError('ERR SCRIPT FLUSH only support SYNC|ASYNC option');
export const FUNCTION_FLUSH_OPTION = new ReplyError('ERR FUNCTION FLUSH only supports SYNC|ASYNC option');
export const FUNCTION_NOT_FOUND = new ReplyError('ERR Function not found');
export const LIBRARY_NOT_FOUND = new ReplyError('ERR Library not found');
export const LIBRARY_NAME_MISSING = new ReplyError('ERR library name argument was not given');
export const FUNCTION_BAD_PAYLOAD = new ReplyError('ERR DUMP payload version or checksum are wrong');
export const FUNCTION_RESTORE_POLICY = new ReplyError(
  'ERR Wrong restore policy given, value should be either FLUSH, APPEND or REPLACE.',
);
export const NOTBUSY = new ReplyError('NOTBUSY No scripts in execution right now.');
// An error reply is one line: Redis turns line breaks in the argument into spaces.
export const functionUnknownOption = (arg: string) => new ReplyError(`ERR Unknown option given: ${arg.replace(/[\r\n]/g, ' ')}`);
export const functionUnknownArgument = (arg: string) => new ReplyError(`ERR Unknown argument ${arg}`);

// Streams (Redis t_stream.c).
export const INVALID_STREAM_ID = new ReplyError('ERR Invalid stream ID specified as stream command argument');
export const XADD_ID_ZERO = new ReplyError('ERR The ID specified in XADD must be greater than 0-0');
export const XADD_ID_TOO_SMALL = new ReplyError('ERR The ID specified in XADD is equal or smaller than the target stream top item');
export const STREAM_EXHAUSTED = new ReplyError('ERR The stream has exhausted the last possible ID, unable to add more items');
export const MAXLEN_NEGATIVE = new ReplyError('ERR The MAXLEN argument must be >= 0.');
export const STREAM_LIMIT_NEGATIVE = new ReplyError('ERR The LIMIT argument must be >= 0.');
export const MAXLEN_AND_MINID = new ReplyError('ERR syntax error, MAXLEN and MINID options at the same time are not compatible');
export const LIMIT_WITHOUT_TRIM = new ReplyError('ERR syntax error, LIMIT cannot be used without specifying a trimming strategy');
export const LIMIT_WITHOUT_APPROX = new ReplyError('ERR syntax error, LIMIT cannot be used without the special ~ option');
export const XTRIM_NO_STRATEGY = new ReplyError('ERR syntax error, XTRIM must be called with a trimming strategy');
export const INVALID_START_ID = new ReplyError('ERR invalid start ID for the interval');
export const INVALID_END_ID = new ReplyError('ERR invalid end ID for the interval');
export const XREAD_UNBALANCED = new ReplyError(
  "ERR Unbalanced XREAD list of streams: for each stream key an ID or '$' must be specified.",
);
export const TIMEOUT_NOT_INTEGER = new ReplyError('ERR timeout is not an integer or out of range');
export const TIMEOUT_NEGATIVE = new ReplyError('ERR timeout is negative');
export const XREAD_GROUP_OPTION = new ReplyError('ERR The GROUP option is only supported by XREADGROUP. You called XREAD instead.');
export const XREAD_NOACK_OPTION = new ReplyError('ERR The NOACK option is only supported by XREADGROUP. You called XREAD instead.');
export const XREADGROUP_NO_GROUP = new ReplyError('ERR Missing GROUP option for XREADGROUP');
export const XREAD_GT_WITHOUT_GROUP = new ReplyError(
  'ERR The > ID can be specified only when calling XREADGROUP using the GROUP <group> <consumer> option.',
);
export const XREADGROUP_DOLLAR = new ReplyError(
  'ERR The $ ID is meaningless in the context of XREADGROUP: you want to read the history of this consumer by specifying a proper ID, or use the > ID to get new messages. The $ ID would just return an empty result set.',
);
export const BUSYGROUP = new ReplyError('BUSYGROUP Consumer Group name already exists');
export const XGROUP_NO_KEY = new ReplyError(
  'ERR The XGROUP subcommand requires the key to exist. Note that for CREATE you may want to use the MKSTREAM option to create an empty stream automatically.',
);
export const ENTRIESREAD_INVALID = new ReplyError('ERR value for ENTRIESREAD must be positive or -1');
export const XSETID_SMALLER_THAN_TOP = new ReplyError('ERR The ID specified in XSETID is smaller than the target stream top item');
export const XSETID_SMALLER_THAN_MAXDELETED = new ReplyError(
  'ERR The ID specified in XSETID is smaller than the provided max_deleted_entry_id',
);
export const XSETID_ENTRIES_ADDED_SMALL = new ReplyError(
  'ERR The entries_added specified in XSETID is smaller than the target stream length',
);
export const ENTRIES_ADDED_NEGATIVE = new ReplyError('ERR entries_added must be positive');
export const XCLAIM_MIN_IDLE = new ReplyError('ERR Invalid min-idle-time argument for XCLAIM');
export const XAUTOCLAIM_MIN_IDLE = new ReplyError('ERR Invalid min-idle-time argument for XAUTOCLAIM');
export const XCLAIM_IDLE = new ReplyError('ERR Invalid IDLE option argument for XCLAIM');
export const XCLAIM_TIME = new ReplyError('ERR Invalid TIME option argument for XCLAIM');
export const XCLAIM_RETRYCOUNT = new ReplyError('ERR Invalid RETRYCOUNT option argument for XCLAIM');
export const XAUTOCLAIM_COUNT = new ReplyError('ERR COUNT must be > 0');
export const xclaimUnknownOption = (opt: string) => new ReplyError(`ERR Unrecognized XCLAIM option '${opt.split('\x00', 1)[0]}'`);
/** Redis formats these names with %s, which ends at a NUL byte. */
const cStr = (s: string) => s.split('\x00', 1)[0];
export const noGroupForKey = (key: string, group: string) =>
  new ReplyError(`NOGROUP No such consumer group '${cStr(group)}' for key name '${cStr(key)}'`);
export const noKeyOrGroup = (key: string, group: string) =>
  new ReplyError(`NOGROUP No such key '${cStr(key)}' or consumer group '${cStr(group)}'`);
export const noKeyOrGroupRead = (key: string, group: string) =>
  new ReplyError(`NOGROUP No such key '${cStr(key)}' or consumer group '${cStr(group)}' in XREADGROUP with GROUP option`);
export const NUMIDS_NOT_POSITIVE = new ReplyError('ERR Number of IDs must be a positive integer');
export const NUMIDS_MISMATCH = new ReplyError('ERR The `numids` parameter must match the number of arguments');

/**
 * The data cannot be kept now: the remote server cannot be reached, or the disk refuses the
 * log. rest/ answers 503, not 400; either heals by itself (the gateway reconnects, the log
 * writes again once the disk has room).
 */
export class UnavailableError extends ReplyError {}
/** Writes while the log cannot be written (persistence.ts); Redis's text, strerror's cause. */
export const diskWriteFailed = (reason: string) => new UnavailableError(`MISCONF Errors writing to the AOF file: ${reason}`);

// Vector indexes (VECTOR.*): the texts Upstash documents, and Larder's own for the limits it leaves unworded.
export const vectorIndexExists = (key: string) => new ReplyError(`ERR Index ${key} already exists`);
export const vectorIndexOtherwise = (key: string) => new ReplyError(`ERR Index ${key} already exists with a different configuration`);
export const vectorIndexNotFound = (key: string) => new ReplyError(`ERR Index ${key} is not found`);
export const vectorDimensionMismatch = (expected: number, got: number) =>
  new ReplyError(`ERR vector dimension mismatch: expected ${expected}, got ${got}`);
export const VECTOR_BAD_DIM = new ReplyError('ERR DIM must be an integer between 1 and 32768');
export const VECTOR_BAD_METRIC = new ReplyError('ERR METRIC must be COSINE, EUCLIDEAN or DOT');
export const VECTOR_BAD_TOPK = new ReplyError('ERR TOPK must be an integer between 1 and 1000');
export const VECTOR_BAD_ELEMENT = new ReplyError('ERR vector elements must be finite numbers');
export const VECTOR_BAD_BLOB = new ReplyError('ERR FP32 blob length must be a non-zero multiple of 4');
export const VECTOR_EMPTY_ID = new ReplyError('ERR id cannot be empty');

// Arrays (AR*): the texts Upstash documents, and Larder's own for the limits it leaves unworded.
export const ARRAY_INVALID_INDEX = new ReplyError('ERR invalid array index');
export const ARRAY_RANGE_TOO_LARGE = new ReplyError('ERR range exceeds maximum of 1000000 items');
export const ARRAY_INSERT_OVERFLOW = new ReplyError('ERR insert index overflow');
export const ARRAY_REVERSED_RANGE = new ReplyError('ERR start must not be greater than end');
export const ARRAY_BAD_LIMIT = new ReplyError('ERR LIMIT must be greater than 0');
export const ARRAY_BAD_SIZE = new ReplyError('ERR ring size must be an integer greater than 0');
export const ARRAY_BAD_COUNT = new ReplyError('ERR count must be an integer greater than 0');
export const ARRAY_TOO_MANY_PREDICATES = new ReplyError('ERR at most 250 predicates are allowed');
export const ARRAY_BAD_REGEX = new ReplyError('ERR invalid regular expression (RE2 syntax, at most 2048 bytes, no backreferences)');

// The remote Redis backend (kv/redis/).
export const backendUnavailable = (where: string, why: string) =>
  new UnavailableError(`ERR the Redis backend at ${where} is unavailable (${why}); retry later`);
export const scriptUserRefused = (user: string, why: string) =>
  new ReplyError(`ERR the scripts of ACL user '${user}' run on the server as a Redis user of their own, which could not be made ready (${why})`);
/** RESTORE on a remote server that may read the payload without checking it in full (`why`: what its sanitize-dump-payload is). */
export const restoreUnchecked = (why: string) =>
  new ReplyError(`ERR RESTORE is refused unless the Redis server checks payloads in full (sanitize-dump-payload 'yes' or 'clients'): ${why}`);
export const REMOTE_MONITOR = new ReplyError('ERR MONITOR is not available on a remote Redis backend');
export const CROSSSLOT = new ReplyError("CROSSSLOT Keys in request don't hash to the same slot");
