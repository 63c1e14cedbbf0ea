// A string edited in place: a string value's bytes in a buffer with room to grow, for the
// commands that change part of a string (SETBIT, SETRANGE, BITFIELD, APPEND). A JS string is
// immutable, so each such write on one copies it whole: about 1 ms per SETBIT on a 1.6 MB
// bitmap, and growing a bitmap a byte at a time was quadratic, where Redis edits its sds in
// place (issue 20).
// To every command it is the string it holds (TYPE string, OBJECT ENCODING raw), and it
// serializes as that string under the string tag, so snapshots, DUMP and the journal hold
// plain strings; it is deliberately not registered, as the string tag decodes to a byte string.
// Its room is what Redis's sds would have and grows as sdsMakeRoomFor grows it (doubled up to
// 1 MB, then by 1 MB), so MEMORY USAGE counts what Redis would have allocated. Invariant: the bytes past `length` are 0.

import { ROBJ, sdsRoom, sdsSize } from './redis-memory.js';
import { STRING_TAG, type Container, type ContainerKind, type Value } from './value.js';

/** Redis's SDS_MAX_PREALLOC: past it, a string grows by this much rather than doubling. */
const MAX_PREALLOC = 1024 * 1024;

export class EditableString implements Container {
  readonly kind = EDITABLE_STRING;

  private constructor(
    /** The bytes, and room past `length` (zero) to grow into. */
    private buf: Buffer,
    /** The string's length in bytes. */
    public length: number,
  ) {}

  /** The byte string `s` (chars 0..255), with the room Redis's sds for it would have. */
  static of(s: string): EditableString {
    const e = EditableString.zeros(s.length);
    e.buf.write(s, 0, 'latin1');
    return e;
  }

  /** `length` zero bytes, with the room Redis's sds for them would have. */
  static zeros(length: number): EditableString {
    return new EditableString(Buffer.alloc(sdsRoom(length)), length);
  }

  /** The string's bytes, a view valid until it next grows. */
  bytes(): Uint8Array {
    return this.buf.subarray(0, this.length);
  }

  /** Bytes `start` up to `end` as a byte string, both within 0..length (as GETRANGE passes them). */
  slice(start = 0, end = this.length): string {
    return this.buf.toString('latin1', start, end);
  }

  /** Extends the string with zero bytes to `length` bytes, if shorter. */
  grow(length: number): void {
    if (length <= this.length) return;
    if (length > this.buf.length) {
      const room = Buffer.alloc(sdsRoom(length < MAX_PREALLOC ? length * 2 : length + MAX_PREALLOC));
      this.buf.copy(room, 0, 0, this.length);
      this.buf = room;
    }
    this.length = length;
  }

  /** Writes the byte string `s` at byte `at`, growing the string (zero-filled) to hold it. */
  write(at: number, s: string): void {
    this.grow(at + s.length);
    this.buf.write(s, at, 'latin1');
  }

  /** What Redis holds for a raw string with this room: its robj and its sds allocation. */
  memoryUsage(): number {
    return ROBJ + sdsSize(this.buf.length);
  }
}

const EDITABLE_STRING: ContainerKind = {
  type: 'string',
  tag: STRING_TAG,
  clone: (v) => EditableString.of((v as EditableString).slice()),
  encode: (v) => (v as EditableString).slice(),
  decode: (bytes) => EditableString.of(bytes),
  memoryUsage: (v) => (v as EditableString).memoryUsage(),
  encoding: () => 'raw',
};

/** A string value in either form: a byte string, or one edited in place. */
export type StringValue = string | EditableString;

/** `v` as a string value when it is one; undefined for every other type. */
export function asStringValue(v: Value): StringValue | undefined {
  return typeof v === 'string' || v.kind === EDITABLE_STRING ? (v as StringValue) : undefined;
}

/** The bytes of a string value as a byte string; undefined for every other type. */
export function textOf(v: Value): string | undefined {
  return typeof v === 'string' ? v : v.kind === EDITABLE_STRING ? (v as EditableString).slice() : undefined;
}
