// Serializes the document model as RedisJSON does (serde_json with its RedisJsonFormatter):
// compact by default; INDENT, NEWLINE and SPACE strings lay it out, where each array element
// and object member starts on a new line indented once per level, ':' is followed by SPACE,
// and an empty container prints as [] or {}. Strings escape only '"', '\' and control
// characters. Floats print as Rust's ryu does: the shortest digits that read back the same,
// always with a '.' or an exponent ("3.0", "1.5", "1e16", "1.2e-7"), so a float never turns
// into an integer on the way out and back.

import type { JsonValue } from './json-value.js';
import { touch } from './json-work.js';

export interface Layout {
  readonly indent?: string;
  readonly newline?: string;
  readonly space?: string;
}

const COMPACT: Layout = {};

/** A value, or what a reply builds of values: a list of matches, a map of path -> matches (JSON.GET with several paths). */
export type Printable = JsonValue | readonly Printable[] | ReadonlyMap<string, Printable>;

/** `v` as JSON text (UTF-16; the caller encodes it as UTF-8). */
export function formatJson(v: Printable, layout: Layout = COMPACT): string {
  return print(v, layout, false);
}

/**
 * A read's reply as JSON text: each value printed counts within the command's work
 * (json-work.ts). A write prints only after it changed the document, where stopping would
 * leave the change unrecorded, so it prints with formatJson.
 */
export function formatReply(v: Printable, layout: Layout = COMPACT): string {
  return print(v, layout, true);
}

function print(v: Printable, layout: Layout, counted: boolean): string {
  const out: string[] = [];
  write(v as JsonValue, layout, 0, out, counted);
  return out.join('');
}

function newLine(layout: Layout, depth: number, out: string[]): void {
  if (layout.newline !== undefined) out.push(layout.newline);
  if (layout.indent !== undefined) for (let i = 0; i < depth; i++) out.push(layout.indent);
}

function write(v: JsonValue, layout: Layout, depth: number, out: string[], counted: boolean): void {
  if (counted) touch(1);
  if (v === null) out.push('null');
  else if (typeof v === 'boolean') out.push(v ? 'true' : 'false');
  else if (typeof v === 'bigint') out.push(v.toString());
  else if (typeof v === 'number') out.push(formatJsonFloat(v));
  else if (typeof v === 'string') out.push(quote(v));
  else if (Array.isArray(v)) {
    out.push('[');
    for (let i = 0; i < v.length; i++) {
      if (i > 0) out.push(',');
      newLine(layout, depth + 1, out);
      write(v[i], layout, depth + 1, out, counted);
    }
    if (v.length > 0) newLine(layout, depth, out);
    out.push(']');
  } else {
    out.push('{');
    let first = true;
    for (const [k, x] of v) {
      if (!first) out.push(',');
      first = false;
      newLine(layout, depth + 1, out);
      out.push(quote(k), ':');
      if (layout.space !== undefined) out.push(layout.space);
      write(x, layout, depth + 1, out, counted);
    }
    if (!first) newLine(layout, depth, out);
    out.push('}');
  }
}

/**
 * A string as serde_json quotes it: '"', '\\' and control characters escaped (\b \f \n \r \t,
 * else \u00xx), everything else as it is. JSON.stringify escapes exactly these too, natively,
 * and also a lone surrogate, which serde_json never sees (it holds UTF-8) and which this keeps
 * as it is for the UTF-8 encoder to replace: the few strings whose quoted form holds "\ud" take
 * the way round.
 */
function quote(s: string): string {
  const quoted = JSON.stringify(s);
  return quoted.indexOf('\\ud') === -1 ? quoted : quoteEachChar(s);
}

const ESCAPES: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\b': '\\b', '\f': '\\f', '\n': '\\n', '\r': '\\r', '\t': '\\t' };

// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /["\\\u0000-\u001f]/g;

function quoteEachChar(s: string): string {
  return '"' + s.replace(NEEDS_ESCAPE, (c) => ESCAPES[c] ?? '\\u00' + c.charCodeAt(0).toString(16).padStart(2, '0')) + '"';
}

/** A float as ryu (Rust) prints it; see the head comment. */
function formatJsonFloat(f: number): string {
  // JavaScript prints the same shortest digits, and as ryu does while it writes a '.' and no
  // exponent at 1e-5 and above (below, ryu takes the exponent where JavaScript does not yet).
  const plain = String(f);
  if (plain.indexOf('.') !== -1 && plain.indexOf('e') === -1 && (f >= 1e-5 || f <= -1e-5)) return plain;
  if (f === 0) return Object.is(f, -0) ? '-0.0' : '0.0';
  const sign = f < 0 ? '-' : '';
  const exp = f.toExponential(); // shortest round-trip digits, as ryu finds them
  const e = exp.indexOf('e');
  const digits = exp.slice(sign.length, e).replace('.', '');
  const kk = Number(exp.slice(e + 1)) + 1; // 10^(kk-1) <= |f| < 10^kk
  const length = digits.length;
  let body: string;
  if (kk >= length && kk <= 16) body = digits + '0'.repeat(kk - length) + '.0';
  else if (kk > 0 && kk <= 16) body = digits.slice(0, kk) + '.' + digits.slice(kk);
  else if (kk > -5 && kk <= 0) body = '0.' + '0'.repeat(-kk) + digits;
  else if (length === 1) body = digits + 'e' + (kk - 1);
  else body = digits[0] + '.' + digits.slice(1) + 'e' + (kk - 1);
  return sign + body;
}
