// Frame format of every durable file Larder writes:
//   [u32 LE payload length][u32 LE crc32 of payload][payload]
// Recovery keeps the longest prefix of valid frames; whatever follows (a torn write, a bit
// flip) is reported and cut, never thrown.

import { crc32 } from './crc32.js';

export const FRAME_HEADER = 8;

export function frame(payload: Uint8Array): Buffer {
  const out = Buffer.allocUnsafe(FRAME_HEADER + payload.length);
  out.writeUInt32LE(payload.length, 0);
  out.writeUInt32LE(crc32(payload), 4);
  out.set(payload, FRAME_HEADER);
  return out;
}

export interface Scan {
  /** Payloads of the valid frames, in order (views into the input). */
  frames: Buffer[];
  /** Length of the valid prefix; bytes past it are invalid. */
  validBytes: number;
}

export function readFrames(data: Buffer): Scan {
  const frames: Buffer[] = [];
  let at = 0;
  while (at + FRAME_HEADER <= data.length) {
    const len = data.readUInt32LE(at);
    const end = at + FRAME_HEADER + len;
    if (end > data.length) break;
    if (crc32(data, at + FRAME_HEADER, end) !== data.readUInt32LE(at + 4)) break;
    frames.push(data.subarray(at + FRAME_HEADER, end));
    at = end;
  }
  return { frames, validBytes: at };
}
