// Scripting commands (Redis eval.c, functions.c): EVAL and EVALSHA run cached scripts, FCALL
// runs functions of loaded libraries, SCRIPT and FUNCTION are containers, as Redis declares
// them. The Lua VM and its state are in engine/scripting/; a script's redis.call goes back
// through admission (admitFromScript) as the caller, and its effects are what gets logged.

import { container, family, NO_KEYS, type CommandSpec, type KeySpec } from './spec.js';
import { evalCommand, evalRoCommand, evalshaCommand, evalshaRoCommand, fcallCommand, fcallRoCommand } from './scripting/run.js';
import { scriptExistsCommand, scriptFlushCommand, scriptKillCommand, scriptLoadCommand } from './scripting/script.js';
import {
  functionDeleteCommand,
  functionDumpCommand,
  functionFlushCommand,
  functionListCommand,
  functionLoadCommand,
  functionRestoreCommand,
  functionStatsCommand,
} from './scripting/function.js';

/** argv[2] says how many keys follow. */
const NUMKEYS: KeySpec = { countAt: 2 };

const runs = (name: string, readOnly: boolean, run: CommandSpec['run'], extra: Partial<CommandSpec> = {}): CommandSpec => ({
  name,
  arity: -3,
  flags: readOnly ? ['readonly', 'noscript', 'runsScript'] : ['noscript', 'runsScript'],
  keys: NUMKEYS,
  run,
  ...extra,
});

const KEY_LOCKING = "A script's shebang may carry Upstash's allow-key-locking flag (@upstash/ratelimit's do), which Redis 7.0 refuses";

export default family('scripting', 'scripting', [
  runs('eval', false, evalCommand, { deviates: KEY_LOCKING, readOnlyForm: 'eval_ro', scriptBodyAt: 1 }),
  runs('evalsha', false, evalshaCommand, { readOnlyForm: 'evalsha_ro' }),
  runs('eval_ro', true, evalRoCommand, { deviates: KEY_LOCKING, scriptBodyAt: 1 }),
  runs('evalsha_ro', true, evalshaRoCommand),
  runs('fcall', false, fcallCommand, { readOnlyForm: 'fcall_ro' }),
  runs('fcall_ro', true, fcallRoCommand, {
    deviates: 'FCALL_RO runs a function without the no-writes flag, whose writes then fail (Upstash), where Redis refuses to call it',
  }),
  container('script', [
    // SCRIPT LOAD keeps the script across restarts: a change a read-only token may not make.
    { name: 'load', arity: 3, flags: ['noscript', 'changesServer'], keys: NO_KEYS, scriptBodyAt: 2, run: scriptLoadCommand },
    { name: 'exists', arity: -3, flags: ['noscript'], keys: NO_KEYS, run: scriptExistsCommand },
    { name: 'flush', arity: -2, flags: ['noscript', 'changesServer'], keys: NO_KEYS, run: scriptFlushCommand },
    { name: 'kill', arity: 2, flags: ['noscript', 'changesServer'], keys: NO_KEYS, run: scriptKillCommand },
  ]),
  container('function', [
    { name: 'load', arity: -3, flags: ['write', 'noscript'], keys: NO_KEYS, run: functionLoadCommand },
    { name: 'list', arity: -2, flags: ['noscript'], keys: NO_KEYS, run: functionListCommand },
    { name: 'delete', arity: 3, flags: ['write', 'noscript'], keys: NO_KEYS, run: functionDeleteCommand },
    { name: 'flush', arity: -2, flags: ['write', 'noscript'], keys: NO_KEYS, run: functionFlushCommand },
    { name: 'stats', arity: 2, flags: ['noscript'], keys: NO_KEYS, run: functionStatsCommand },
    { name: 'dump', arity: 2, flags: ['noscript'], keys: NO_KEYS, run: functionDumpCommand },
    { name: 'restore', arity: -3, flags: ['write', 'noscript'], keys: NO_KEYS, run: functionRestoreCommand },
    { name: 'kill', arity: 2, flags: ['noscript', 'changesServer'], keys: NO_KEYS, run: scriptKillCommand },
  ]),
]);
