// Scripts as a remote Redis 7.0 takes them, with the embedded engine's meaning kept.
//
// A read-only token runs EVAL, EVALSHA and FCALL in their read-only forms (the table's
// readOnlyForm): the server then refuses the script's writes, as the embedded engine does;
// sent as they are, they would write.
//
// A shebang may carry Upstash's allow-key-locking flag (@upstash/ratelimit's scripts do), which
// Redis 7.0 refuses ("Unexpected flag in script shebang"): it is dropped from the body sent, a
// flag that changes nothing on one server. The server then knows the script by the adapted
// body's SHA1: SCRIPT LOAD answers that one, and EVALSHA of the original answers NOSCRIPT, on
// which clients such as @upstash/ratelimit send EVAL.

import type { Args, Caller, Command } from '../commands/spec.js';

const KEY_LOCKING = 'allow-key-locking';

/** The argv to send for an admitted command: `argv` itself unless a script needs adapting. */
export function remoteForm(cmd: Command, argv: Args, caller: Caller): Args {
  let out = argv;
  if (caller.readOnly && cmd.readOnlyForm !== undefined) out = [cmd.readOnlyForm, ...argv.slice(1)];
  const at = cmd.scriptBodyAt;
  if (at !== undefined && at < argv.length) {
    const body = withoutKeyLocking(argv[at]);
    if (body !== argv[at]) {
      if (out === argv) out = [...argv];
      (out as string[])[at] = body;
    }
  }
  return out;
}

/** The body with allow-key-locking dropped from its shebang's flags; the same string if absent. */
function withoutKeyLocking(body: string): string {
  if (!body.startsWith('#!')) return body;
  let end = body.indexOf('\n');
  if (end === -1) end = body.length;
  const shebang = body.slice(0, end);
  if (!shebang.includes(KEY_LOCKING)) return body;
  const parts: string[] = [];
  for (const part of shebang.split(' ')) {
    if (!part.startsWith('flags=')) {
      parts.push(part);
      continue;
    }
    const flags = part.slice(6).split(',').filter((f) => f !== KEY_LOCKING);
    if (flags.length > 0) parts.push(`flags=${flags.join(',')}`);
  }
  return parts.join(' ') + body.slice(end);
}
