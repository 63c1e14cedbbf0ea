// Frame format of every durable file Larder writes:
//   [u32 LE payload length][u32 LE crc32 of payload][payload]
// Recovery keeps the longest prefix of valid frames; whatever follows (a torn write, a bit
// flip, garbage) is reported and cut, never thrown. A payload is never empty: a file that
// grew but was not written (a crash can leave a zero-filled tail) reads as length 0 with
// crc32 0, which would otherwise pass as a valid frame.

import { crc32 } from './crc32.js';

export const FRAME_HEADER = 8;

export function frame(payload: Uint8Array): Buffer {
  if (payload.length === 0) throw new Error('a frame payload must not be empty');
  const out = Buffer.allocUnsafe(FRAME_HEADER + payload.length);
  out.writeUInt32LE(payload.length, 0);
  out.writeUInt32LE(crc32(payload), 4);
  out.set(payload, FRAME_HEADER);
  return out;
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
  let stop: StopReason | undefined;
  while (at < data.length) {
    if (at + FRAME_HEADER > data.length) {
      stop = 'torn';
      break;
    }
    const len = data.readUInt32LE(at);
    const end = at + FRAME_HEADER + len;
    if (len === 0) stop = 'empty';
    else if (end > data.length) stop = 'torn';
    else if (crc32(data, at + FRAME_HEADER, end) !== data.readUInt32LE(at + 4)) stop = 'checksum';
    if (stop !== undefined) break;
    frames.push(data.subarray(at + FRAME_HEADER, end));
    at = end;
  }
  return stop === undefined ? { frames, validBytes: at } : { frames, validBytes: at, stop };
}
