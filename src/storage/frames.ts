// Frame format of every durable file Larder writes:
//   [u32 LE payload length][u32 LE crc32 of payload][payload]
// A scan keeps the longest prefix of valid frames. A payload is never empty: a file that grew
// but was not written (a crash can leave a zero-filled tail) reads as length 0 with crc32 0,
// which would otherwise pass as a valid frame.
//
// What follows the valid prefix is either a torn tail or damage, and only a torn tail may be cut:
//   torn tail  no valid frame starts at any byte after the start of the first invalid one: the
//              rest is a frame cut short, a last frame that fails its checksum, zeros, or bytes
//              holding no frame. A crash mid-write leaves exactly this; cutting it loses no record.
//   damage     a valid frame starts somewhere after it, so records follow the bad spot (a flipped
//              byte, a bad sector). Cutting would drop them: the open refuses (DamagedFileError)
//              and `larder repair` (repair.ts) moves everything from the bad spot on to a
//              quarantine file. A file never appended to again (a snapshot, a segment before the
//              last) has no torn tail: any invalid byte in it is damage.
// When in doubt (stray bytes that happen to form a frame, pages a power loss wrote out of order)
// the rule says damage: a start that stops costs a repair, a wrong cut costs records.

import { crc32 } from './crc32.js';

export const FRAME_HEADER = 8;

export function frame(payload: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(FRAME_HEADER + payload.length);
  writeFrame(out, 0, payload);
  return out;
}

/** Writes `payload`'s frame into `out` at `at`, which must have room for it; returns the bytes written. */
export function writeFrame(out: Buffer, at: number, payload: Uint8Array): number {
  if (payload.length === 0) throw new Error('a frame payload must not be empty');
  out.writeUInt32LE(payload.length, at);
  out.writeUInt32LE(crc32(payload), at + 4);
  out.set(payload, at + FRAME_HEADER);
  return FRAME_HEADER + payload.length;
}

/** Why a scan stopped before the end of its input. */
export type StopReason = 'torn' | 'checksum' | 'empty';

export interface Scan {
  /** Payloads of the valid frames, in order (views into the input). */
  frames: Buffer[];
  /** Length of the valid prefix; bytes past it are invalid. */
  validBytes: number;
  /** Set when bytes follow the valid prefix. */
  stop?: StopReason;
}

export function readFrames(data: Buffer): Scan {
  const frames: Buffer[] = [];
  let at = 0;
  while (at < data.length) {
    const end = frameEnd(data, at);
    if (typeof end !== 'number') return { frames, validBytes: at, stop: end };
    frames.push(data.subarray(at + FRAME_HEADER, end));
    at = end;
  }
  return { frames, validBytes: at };
}

/** Whether the bytes after `validBytes` (where a scan stopped) are a torn tail: no valid frame starts in them. */
export function isTornTail(data: Buffer, validBytes: number): boolean {
  for (let at = validBytes + 1; at + FRAME_HEADER < data.length; at++) {
    if (typeof frameEnd(data, at) === 'number') return false;
  }
  return true;
}

/** Where the valid frame at `at` ends, or why there is none. */
function frameEnd(data: Buffer, at: number): number | StopReason {
  if (at + FRAME_HEADER > data.length) return 'torn';
  const len = data.readUInt32LE(at);
  const end = at + FRAME_HEADER + len;
  if (len === 0) return 'empty';
  if (end > data.length) return 'torn';
  return crc32(data, at + FRAME_HEADER, end) === data.readUInt32LE(at + 4) ? end : 'checksum';
}
