// fengari (Lua 5.3 in JavaScript), loaded to print numbers as Redis's Lua 5.1 does: "%.14g" as
// glibc prints it (format-g.ts), without 5.3's ".0" on integral floats, so tostring(10/2) is
// "5", 2^53 "9.007199254741e+15" and 1/0 "inf" in tostring, concatenation and string.format's
// %s alike. fengari's modules read both settings from its luaconf.js as they load, so they are
// set there before fengari itself is required; every other module takes fengari from here (a
// dependency rule, .dependency-cruiser.cjs, keeps it so).

import { createRequire } from 'node:module';
import type Fengari from 'fengari';
import { formatG } from './format-g.js';

interface LuaConf {
  LUA_COMPAT_FLOATSTRING: boolean;
  lua_number2str(n: number): string;
}

const require = createRequire(import.meta.url);
// luaconf.js and defs.js require each other: defs.js first, as fengari loads them itself.
require('fengari/src/defs.js');
const luaconf = require('fengari/src/luaconf.js') as LuaConf;
luaconf.LUA_COMPAT_FLOATSTRING = true;
luaconf.lua_number2str = (n) => formatG(n, 14);

const fengari = require('fengari') as typeof Fengari;
export default fengari;
