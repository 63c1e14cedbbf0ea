// The math library's functions as Redis's Lua 5.1 has them where fengari's 5.3 differs:
// math.random and math.randomseed are Redis's own (redisLrand48, the 48-bit generator of
// drand48, so a seeded script draws the numbers it draws on Redis); math.log takes no base; and
// the functions 5.3 dropped are back (pow, atan2, cosh, sinh, tanh, frexp, ldexp, log10, and
// mod, 5.1's old name of fmod).

import type { JsFunction, LuaState } from 'fengari';
import fengari from './lua.js';

const { lua, lauxlib } = fengari;

/** REDIS_LRAND48_MAX: a draw is taken modulo it and divided by it. */
const LRAND48_MAX = 0x7fffffff;
const MULTIPLIER = 0x5deece66dn;
const INCREMENT = 0xbn;
const MASK48 = (1n << 48n) - 1n;

/** Redis's rand.c: drand48's generator, seeded as srand48 seeds it (its default state until then). */
class Lrand48 {
  private state = 0x1234abcd330en;

  seed(value: number): void {
    this.state = (BigInt.asUintN(32, BigInt(value)) << 16n) | 0x330en;
  }

  /** The next 31-bit draw. */
  next(): number {
    this.state = (this.state * MULTIPLIER + INCREMENT) & MASK48;
    return Number(this.state >> 17n);
  }
}


const unary = (f: (x: number) => number): JsFunction => (L) => {
  lua.lua_pushnumber(L, f(lauxlib.luaL_checknumber(L, 1)));
  return 1;
};
const binary = (f: (x: number, y: number) => number): JsFunction => (L) => {
  lua.lua_pushnumber(L, f(lauxlib.luaL_checknumber(L, 1), lauxlib.luaL_checknumber(L, 2)));
  return 1;
};

/** math's functions that 5.1 has otherwise than 5.3, by name; random and randomseed share a generator of their own. */
export function mathFunctions(): Record<string, JsFunction> {
  const random = new Lrand48();
  return {
    pow: (L) => {
      // The exponent is checked first, as Redis's build of 5.1 evaluates pow's arguments.
      const y = lauxlib.luaL_checknumber(L, 2);
      lua.lua_pushnumber(L, Math.pow(lauxlib.luaL_checknumber(L, 1), y));
      return 1;
    },
    log: unary(Math.log),
    log10: unary(Math.log10),
    cosh: unary(Math.cosh),
    sinh: unary(Math.sinh),
    tanh: unary(Math.tanh),
    atan2: binary(Math.atan2),
    mod: binary((x, y) => x % y),
    ldexp: (L) => {
      lua.lua_pushnumber(L, ldexp(lauxlib.luaL_checknumber(L, 1), lauxlib.luaL_checkinteger(L, 2)));
      return 1;
    },
    frexp: (L) => {
      const [m, e] = frexp(lauxlib.luaL_checknumber(L, 1));
      lua.lua_pushnumber(L, m);
      lua.lua_pushnumber(L, e);
      return 2;
    },
    random: (L) => drawRandom(L, random),
    randomseed: (L) => {
      random.seed(checkInt(L, 1));
      return 0;
    },
  };
}

/** Redis's redis_math_random: a number in [0, 1), or an integer in [1, u] or [l, u]. */
function drawRandom(L: LuaState, random: Lrand48): number {
  const r = (random.next() % LRAND48_MAX) / LRAND48_MAX;
  switch (lua.lua_gettop(L)) {
    case 0:
      lua.lua_pushnumber(L, r);
      return 1;
    case 1: {
      const u = checkInt(L, 1);
      if (!(1 <= u)) lauxlib.luaL_argerror(L, 1, 'interval is empty');
      lua.lua_pushnumber(L, Math.floor(r * u) + 1);
      return 1;
    }
    case 2: {
      const l = checkInt(L, 1);
      const u = checkInt(L, 2);
      if (!(l <= u)) lauxlib.luaL_argerror(L, 2, 'interval is empty');
      lua.lua_pushnumber(L, Math.floor(r * (u - l + 1)) + l);
      return 1;
    }
    default:
      return lauxlib.luaL_error(L, 'wrong number of arguments');
  }
}

/**
 * 5.1's luaL_checkint: the number as C casts it to a 64-bit integer (truncated; out of range, or
 * NaN, the lowest), then to int (its low 32 bits): math.randomseed(2^40) seeds 0.
 */
function checkInt(L: LuaState, arg: number): number {
  const n = Math.trunc(lauxlib.luaL_checknumber(L, arg));
  return Number.isFinite(n) && Math.abs(n) < 2 ** 63 ? Number(BigInt.asIntN(32, BigInt(n))) : 0;
}

/** C's frexp: x as m * 2^e with |m| in [0.5, 1); zero, infinities and NaN as they are, with e 0. */
export function frexp(x: number): [number, number] {
  if (x === 0 || !Number.isFinite(x)) return [x, 0];
  const bits = new DataView(new ArrayBuffer(8));
  bits.setFloat64(0, x);
  let e = 0;
  if ((bits.getUint16(0) & 0x7ff0) === 0) {
    bits.setFloat64(0, x * 2 ** 64); // a subnormal, made normal
    e = -64;
  }
  const high = bits.getUint16(0);
  e += ((high >> 4) & 0x7ff) - 1022;
  bits.setUint16(0, (high & 0x800f) | (1022 << 4));
  return [bits.getFloat64(0), e];
}

/** C's ldexp: m * 2^e rounded once, past the range of one power of two. */
export function ldexp(m: number, e: number): number {
  if (m === 0 || !Number.isFinite(m)) return m;
  for (let i = 0; i < 2 && e > 1023; i++) {
    m *= 2 ** 1023;
    e -= 1023;
  }
  // Past two steps m * 2^e overflows (2 ** 1024 is Infinity).
  if (e >= -1022) return m * 2 ** Math.min(e, 1024);
  // Scaled into the normals first (exactly, unless the result is zero anyway), so that the last
  // step alone rounds into the subnormals.
  return e < -2200 ? m * 0 : m * 2 ** (e + 1074) * 2 ** -1074;
}
