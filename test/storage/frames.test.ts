import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FRAME_HEADER, frame, isTornTail, readFrames } from '../../src/storage/frames.js';

const ALL_BYTES = Uint8Array.from({ length: 256 }, (_, i) => i);
const payloads = [Buffer.from('a'), Buffer.from(ALL_BYTES), Buffer.alloc(70_000, 0xab)];
const file = Buffer.concat(payloads.map(frame));

describe('frames', () => {
  it('lays a frame out as length, crc32, payload', () => {
    const f = frame(Buffer.from('123456789'));
    assert.equal(f.length, FRAME_HEADER + 9);
    assert.equal(f.readUInt32LE(0), 9);
    assert.equal(f.readUInt32LE(4), 0xcbf43926);
    assert.equal(f.toString('latin1', FRAME_HEADER), '123456789');
  });

  it('reads back every payload of a whole file', () => {
    const scan = readFrames(file);
    assert.deepEqual(scan.frames, payloads);
    assert.equal(scan.validBytes, file.length);
    assert.equal(scan.stop, undefined);
  });

  it('refuses to write an empty payload', () => {
    assert.throws(() => frame(Buffer.alloc(0)), /empty/);
  });

  it('keeps the valid prefix when the tail is cut anywhere', () => {
    const lastStart = file.length - FRAME_HEADER - payloads[2].length;
    for (const cut of [1, FRAME_HEADER - 1, FRAME_HEADER, FRAME_HEADER + 1, payloads[2].length + FRAME_HEADER - 1]) {
      const scan = readFrames(file.subarray(0, file.length - cut));
      assert.equal(scan.frames.length, 2, `cut ${cut}`);
      assert.equal(scan.validBytes, lastStart);
      assert.equal(scan.stop, 'torn');
    }
  });

  it('stops at a flipped bit in the last frame, header or payload', () => {
    for (const at of [file.length - 1, file.length - payloads[2].length - 4]) {
      const bad = Buffer.from(file);
      bad[at] ^= 0x10;
      const scan = readFrames(bad);
      assert.equal(scan.frames.length, 2);
      assert.equal(scan.stop, 'checksum');
    }
  });

  it('stops at garbage and at a zero-filled tail', () => {
    const garbage = readFrames(Buffer.concat([file, Buffer.from('not a frame at all, just text')]));
    assert.equal(garbage.frames.length, 3);
    assert.equal(garbage.validBytes, file.length);
    const zeros = readFrames(Buffer.concat([file, Buffer.alloc(4096)]));
    assert.equal(zeros.frames.length, 3);
    assert.equal(zeros.validBytes, file.length);
    assert.equal(zeros.stop, 'empty');
  });

  it('stops at a length that runs past the end', () => {
    const bad = Buffer.from(file);
    bad.writeUInt32LE(0xffffffff, 0);
    assert.deepEqual(readFrames(bad), { frames: [], validBytes: 0, stop: 'torn' });
  });

  it('calls what a crash leaves a torn tail: a cut frame, a bad last frame, zeros, bytes holding no frame', () => {
    const lastStart = file.length - FRAME_HEADER - payloads[2].length;
    const flippedLast = Buffer.from(file);
    flippedLast[file.length - 1] ^= 0x10;
    for (const [name, data, validBytes] of [
      ['cut', file.subarray(0, file.length - 5), lastStart],
      ['bad last frame', flippedLast, lastStart],
      ['zeros', Buffer.concat([file, Buffer.alloc(4096)]), file.length],
      ['text', Buffer.concat([file, Buffer.from('not a frame at all, just text')]), file.length],
    ] as const) {
      assert.equal(readFrames(data).validBytes, validBytes, name);
      assert.equal(isTornTail(data, validBytes), true, name);
    }
  });

  it('calls a bad frame with a valid one anywhere after it damage, whichever header byte was hit', () => {
    const secondStart = FRAME_HEADER + payloads[0].length;
    for (const at of [secondStart, secondStart + 3, secondStart + 5, secondStart + FRAME_HEADER + 100]) {
      const bad = Buffer.from(file);
      bad[at] ^= 0x80;
      const scan = readFrames(bad);
      assert.equal(scan.validBytes, secondStart, `byte ${at}`);
      assert.equal(isTornTail(bad, scan.validBytes), false, `byte ${at}`);
    }
  });
});
