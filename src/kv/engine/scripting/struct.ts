// The `struct` library scripts get in Redis (deps/lua/src/lua_struct.c, Roberto Ierusalimschy's
// struct 0.2 as Redis patched it): struct.pack(format, ...) packs values into a binary string,
// struct.unpack(format, data[, pos]) reads them back (then the position after them), and
// struct.size(format) is a format's size. Formats as there: '<' and '>' set little and big
// endian, '!n' the largest alignment, ' ' is skipped; 'b'/'B' char, 'h'/'H' short, 'l'/'L'
// long, 'T' size_t, 'i'/'I' an int of n bytes (4 by default, up to 32), 'f' float, 'd' double,
// 'x' a zero byte, 's' a zero-terminated string, 'cn' n characters (c0: all of the string; in
// unpack, the length read just before). Sizes are x86-64 Linux's, where Redis runs; integers
// are 64-bit as there (bytes past the eighth are zero).

import type { LuaState } from 'fengari';
import { pushBytes, toBytes } from './lua-bytes.js';
import fengari from './lua.js';

const { lua, lauxlib } = fengari;

const MAX_INT_SIZE = 32;
/** The largest alignment: a double's on x86-64. */
const MAX_ALIGN = 8;
const SIZES: Record<string, number> = { b: 1, B: 1, h: 2, H: 2, l: 8, L: 8, T: 8, f: 4, d: 8, x: 1 };
const INTEGERS = new Set(['b', 'B', 'h', 'H', 'l', 'L', 'T', 'i', 'I']);

/** A format read one option at a time, with the endianness and alignment its options set. */
class Format {
  private at = 0;
  littleEndian = true;
  align = 1;

  constructor(
    private readonly L: LuaState,
    private readonly text: string,
  ) {}

  /** The next option, or null at the end. */
  next(): string | null {
    return this.at < this.text.length ? this.text[this.at++] : null;
  }

  /** The option's size (and reads its count: 'i4', 'c3'); 0 for options that take no room. */
  size(option: string): number {
    if (option === 'c') return this.count(1);
    if (option === 'i' || option === 'I') {
      const size = this.count(4);
      if (size > MAX_INT_SIZE) lauxlib.luaL_error(this.L, 'integral size %d is larger than limit of %d', size, MAX_INT_SIZE);
      return size;
    }
    return SIZES[option] ?? 0;
  }

  /** Zero bytes to put before an option of `size` at `pos`. */
  padding(pos: number, option: string, size: number): number {
    if (size === 0 || option === 'c') return 0;
    const align = Math.min(size, this.align);
    return (align - (pos & (align - 1))) & (align - 1);
  }

  /** An option that is no value: endianness, alignment, a space; any other is refused. */
  control(option: string): void {
    if (option === ' ') return;
    if (option === '<' || option === '>') {
      this.littleEndian = option === '<';
      return;
    }
    if (option === '!') {
      const align = this.count(MAX_ALIGN);
      if ((align & (align - 1)) !== 0) lauxlib.luaL_error(this.L, 'alignment %d is not a power of 2', align);
      this.align = align;
      return;
    }
    lauxlib.luaL_argerror(this.L, 1, `invalid format option '${option}'`);
  }

  /** The digits after an option, or `fallback` without any. */
  private count(fallback: number): number {
    if (!isDigit(this.text.charCodeAt(this.at))) return fallback;
    let n = 0;
    while (isDigit(this.text.charCodeAt(this.at))) {
      const digit = this.text.charCodeAt(this.at++) - 0x30;
      if (n > (0x7fffffff - digit) / 10) lauxlib.luaL_error(this.L, 'integral size overflow');
      n = n * 10 + digit;
    }
    return n;
  }
}

const isDigit = (c: number) => c >= 0x30 && c <= 0x39;

function format(L: LuaState): Format {
  lauxlib.luaL_checklstring(L, 1);
  return new Format(L, toBytes(L, 1)!);
}

// struct.pack(format, value, ...)
function pack(L: LuaState): number {
  const f = format(L);
  // lua_struct.c pushes a nil after the arguments first: a missing value is "got nil", not "no value".
  lua.lua_pushnil(L);
  const out: Buffer[] = [];
  let total = 0;
  let arg = 2;
  for (let option = f.next(); option !== null; option = f.next()) {
    let size = f.size(option);
    const padding = f.padding(total, option, size);
    out.push(Buffer.alloc(padding));
    total += padding;
    if (INTEGERS.has(option)) out.push(integerBytes(lauxlib.luaL_checknumber(L, arg++), size, f.littleEndian));
    else if (option === 'x') out.push(Buffer.alloc(1));
    else if (option === 'f' || option === 'd') out.push(floatBytes(lauxlib.luaL_checknumber(L, arg++), size, f.littleEndian));
    else if (option === 'c' || option === 's') {
      lauxlib.luaL_checklstring(L, arg);
      const s = Buffer.from(toBytes(L, arg++)!, 'latin1');
      if (size === 0) size = s.length;
      if (s.length < size) lauxlib.luaL_argerror(L, arg, 'string too short');
      out.push(s.subarray(0, size));
      if (option === 's') {
        out.push(Buffer.alloc(1));
        size++;
      }
    } else f.control(option);
    total += size;
  }
  pushBytes(L, Buffer.concat(out).toString('latin1'));
  return 1;
}

/** An integer's bytes as C's struct writes them: the number cast to 64 bits (out of range: C's x86 result). */
function integerBytes(n: number, size: number, littleEndian: boolean): Buffer {
  let value = toUint64(n);
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i++) {
    bytes[littleEndian ? i : size - 1 - i] = Number(value & 0xffn);
    value >>= 8n;
  }
  return bytes;
}

/** (Uinttype)n for n >= 0, (Uinttype)(Inttype)n below: truncated, and what x86-64 gives out of range. */
function toUint64(n: number): bigint {
  const t = Math.trunc(n);
  if (n < 0) return t >= -(2 ** 63) ? BigInt.asUintN(64, BigInt(t)) : 1n << 63n;
  return t < 2 ** 64 ? BigInt(t) : 0n; // NaN lands here too
}

function floatBytes(n: number, size: number, littleEndian: boolean): Buffer {
  const bytes = Buffer.alloc(size);
  if (size === 4) bytes.writeFloatLE(n);
  else bytes.writeDoubleLE(n);
  return littleEndian ? bytes : bytes.reverse();
}

// struct.unpack(format, data[, pos]): the values, then the position after them
function unpack(L: LuaState): number {
  const f = format(L);
  lauxlib.luaL_checklstring(L, 2);
  const data = Buffer.from(toBytes(L, 2)!, 'latin1');
  let pos = lauxlib.luaL_optinteger(L, 3, 1);
  // C reads the position as a size_t: a negative one passes this check, and no data fits it.
  if (pos === 0) lauxlib.luaL_argerror(L, 3, 'offset must be 1 or greater');
  pos--;
  let n = 0;
  const fits = (size: number) => {
    if (pos < 0 || size > data.length || pos > data.length - size) lauxlib.luaL_argerror(L, 2, 'data string too short');
  };
  for (let option = f.next(); option !== null; option = f.next()) {
    let size = f.size(option);
    pos += f.padding(pos, option, size);
    fits(size);
    if (!lua.lua_checkstack(L, 2)) lauxlib.luaL_error(L, 'stack overflow (%s)', 'too many results');
    if (INTEGERS.has(option)) {
      lua.lua_pushnumber(L, readInteger(data.subarray(pos, pos + size), f.littleEndian, option === option.toLowerCase()));
      n++;
    } else if (option === 'f') {
      lua.lua_pushnumber(L, f.littleEndian ? data.readFloatLE(pos) : data.readFloatBE(pos));
      n++;
    } else if (option === 'd') {
      lua.lua_pushnumber(L, f.littleEndian ? data.readDoubleLE(pos) : data.readDoubleBE(pos));
      n++;
    } else if (option === 'c') {
      if (size === 0) {
        if (n === 0 || lua.lua_type(L, -1) !== lua.LUA_TNUMBER) lauxlib.luaL_error(L, "format 'c0' needs a previous size");
        size = lua.lua_tonumber(L, -1);
        lua.lua_pop(L, 1);
        n--;
        fits(size);
      }
      pushBytes(L, data.toString('latin1', pos, pos + size));
      n++;
    } else if (option === 's') {
      const end = data.indexOf(0, pos);
      if (end === -1) lauxlib.luaL_error(L, 'unfinished string in data');
      pushBytes(L, data.toString('latin1', pos, end));
      size = end - pos + 1;
      n++;
    } else if (option !== 'x') f.control(option);
    pos += size;
  }
  lua.lua_pushnumber(L, pos + 1);
  return n + 1;
}

/** An integer's value from its bytes: the last eight count, as in C's 64-bit accumulator; signed by its top bit. */
function readInteger(bytes: Buffer, littleEndian: boolean, signed: boolean): number {
  let value = 0n;
  for (let i = 0; i < bytes.length; i++) value = ((value << 8n) | BigInt(bytes[littleEndian ? bytes.length - 1 - i : i])) & 0xffffffffffffffffn;
  if (!signed) return Number(value);
  // C's mask ~0 << (size*8 - 1), whose shift x86 takes modulo 64.
  const mask = BigInt.asUintN(64, ~0n << BigInt((bytes.length * 8 - 1) & 63));
  return Number(BigInt.asIntN(64, value & mask ? value | mask : value));
}

// struct.size(format): the bytes pack would write
function size(L: LuaState): number {
  const f = format(L);
  let pos = 0;
  for (let option = f.next(); option !== null; option = f.next()) {
    const size = f.size(option);
    pos += f.padding(pos, option, size);
    if (option === 's') lauxlib.luaL_argerror(L, 1, "option 's' has no fixed size");
    else if (option === 'c' && size === 0) lauxlib.luaL_argerror(L, 1, "option 'c0' has no fixed size");
    if (!/[0-9A-Za-z]/.test(option)) f.control(option);
    pos += size;
  }
  lua.lua_pushnumber(L, pos);
  return 1;
}

export function openStruct(L: LuaState): number {
  lua.lua_createtable(L, 0, 3);
  lauxlib.luaL_setfuncs(L, { pack, unpack, size }, 0);
  return 1;
}
