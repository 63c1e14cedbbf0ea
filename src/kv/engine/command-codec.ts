// How logged commands are laid out in a log frame's payload:
//   [u32 command count] then per command [u32 argc] then per argument [u32 length][bytes]
// Arguments are byte strings (see kv/bytes.ts), so latin1 is their exact byte form.

import type { Args } from '../argv.js';

export function encodeCommands(commands: readonly Args[]): Buffer {
  let size = 4;
  for (const argv of commands) {
    size += 4;
    for (const a of argv) size += 4 + a.length;
  }
  const out = Buffer.allocUnsafe(size);
  let at = out.writeUInt32LE(commands.length, 0);
  for (const argv of commands) {
    at = out.writeUInt32LE(argv.length, at);
    for (const a of argv) {
      at = out.writeUInt32LE(a.length, at);
      at += out.write(a, at, 'latin1');
    }
  }
  return out;
}

/**
 * The commands of one payload. Throws when the payload is not exactly one encoding: its frame
 * checksum matched, so that is a bug or a foreign file, never a torn write.
 */
export function decodeCommands(payload: Buffer): Args[] {
  let at = 0;
  const u32 = () => {
    if (at + 4 > payload.length) throw new Error(`ends inside a length at byte ${at}`);
    const n = payload.readUInt32LE(at);
    at += 4;
    return n;
  };
  const commands: Args[] = [];
  for (let c = u32(); c > 0; c--) {
    const argv: string[] = [];
    for (let n = u32(); n > 0; n--) {
      const len = u32();
      if (at + len > payload.length) throw new Error(`ends inside an argument at byte ${at}`);
      argv.push(payload.toString('latin1', at, at + len));
      at += len;
    }
    if (argv.length === 0) throw new Error('holds a command without a name');
    commands.push(argv);
  }
  if (at !== payload.length) throw new Error(`has ${payload.length - at} bytes after its last command`);
  return commands;
}
