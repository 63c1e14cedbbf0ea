// Scores print as Redis 7.0's "%.17g" (reply-double.ts), and numbers a script hands to Redis or
// to cjson as "%.17g" and "%.14g" (format-g.ts): checked here against printf's definition
// worked out exactly (BigInt), for random doubles of every magnitude and for the integers and
// short exact fractions (1.5, 0.375, 12.25) that take a shortcut.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { replyDouble } from '../../../src/kv/commands/reply-double.js';
import { formatG } from '../../../src/kv/engine/scripting/format-g.js';
import { Rng } from '../differential/prng.js';

/** printf("%.17g", x) for a finite, non-zero x: the exact value rounded to 17 digits, ties to even. */
const percent17g = (x: number) => percentG(x, 17).text;

/** printf("%.<p>g", x), and whether x lay exactly halfway between two p-digit values. */
function percentG(x: number, p: number): { text: string; tie: boolean } {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, Math.abs(x));
  const raw = view.getBigUint64(0);
  const biased = Number(raw >> 52n);
  const mantissa = (raw & ((1n << 52n) - 1n)) | (biased === 0 ? 0n : 1n << 52n);
  const k = (biased === 0 ? -1074 : biased - 1075);
  // x = mantissa * 2^k = numerator / denominator, exactly.
  const numerator = k >= 0 ? mantissa << BigInt(k) : mantissa * 5n ** BigInt(-k);
  const denominator = k >= 0 ? 1n : 10n ** BigInt(-k);
  // The decimal exponent e with 10^e <= x < 10^(e+1).
  let e = numerator.toString().length - denominator.toString().length;
  if (e >= 0 ? numerator < denominator * pow10(e) : numerator * pow10(-e) < denominator) e--;
  // p significant digits: x / 10^(e-p+1), rounded half to even.
  const scale = e - p + 1;
  const [num, den] = scale >= 0 ? [numerator, denominator * pow10(scale)] : [numerator * pow10(-scale), denominator];
  let digits = num / den;
  const twice = 2n * (num % den);
  if (twice > den || (twice === den && digits % 2n === 1n)) digits++;
  if (digits === 10n ** BigInt(p)) {
    digits /= 10n;
    e++;
  }
  const text = digits.toString();
  const sign = x < 0 ? '-' : '';
  const tie = twice === den;
  if (e < -4 || e >= p) {
    const rest = text.slice(1).replace(/0+$/, '');
    return { text: `${sign}${text[0]}${rest === '' ? '' : '.' + rest}e${e < 0 ? '-' : '+'}${String(Math.abs(e)).padStart(2, '0')}`, tie };
  }
  const padded = e < 0 ? '0'.repeat(-e) + text : text;
  const point = e < 0 ? 1 : e + 1;
  const frac = padded.slice(point).replace(/0+$/, '');
  return { text: sign + padded.slice(0, point) + (frac === '' ? '' : '.' + frac), tie };
}

const pow10 = (n: number) => 10n ** BigInt(n);

describe('scores as %.17g', () => {
  it('prints random doubles of every magnitude as printf does', () => {
    const rng = new Rng(99);
    for (let i = 0; i < 20000; i++) {
      const x = rng.double();
      if (!Number.isFinite(x) || x === 0) continue;
      assert.equal(replyDouble(x), percent17g(x), String(x));
    }
  });

  it('prints short exact fractions and their neighbours as printf does', () => {
    const rng = new Rng(5);
    for (let i = 0; i < 20000; i++) {
      // m / 2^j: exact, and its decimal ends j places after the point.
      const x = (rng.int(0, 2 ** 24 - 1) * (rng.chance(0.5) ? 1 : -1)) / 2 ** rng.int(0, 23) / (rng.chance(1 / 3) ? 1000 : 1);
      if (x === 0) continue;
      for (const y of [x, nextUp(x), nextDown(x)]) assert.equal(replyDouble(y), percent17g(y), String(y));
    }
    // Ties at 17 digits: exact values of 18 digits ending in 5, which printf rounds to even.
    let ties = 0;
    for (let j = 1; ties < 300; j = (j % 70) + 1) {
      const x = (2 * rng.int(0, 2 ** 28 - 1) + 1) / 2 ** j;
      const exact = (BigInt(x * 2 ** j) * 5n ** BigInt(j)).toString().replace(/0+$/, '');
      if (exact.length !== 18) continue;
      ties++;
      assert.equal(replyDouble(x), percent17g(x), String(x));
    }
    for (const [x, printed] of [[1.5, '1.5'], [0.375, '0.375'], [-12.25, '-12.25'], [0.1, '0.10000000000000001'], [0.0001, '0.0001'], [0.00005, '5.0000000000000002e-05'], [123456789012345.5, '123456789012345.5']] as const) {
      assert.equal(replyDouble(x), printed);
    }
  });
});

function nextUp(x: number): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  view.setBigInt64(0, view.getBigInt64(0) + (x > 0 ? 1n : -1n));
  return view.getFloat64(0);
}

function nextDown(x: number): number {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  view.setBigInt64(0, view.getBigInt64(0) + (x > 0 ? -1n : 1n));
  return view.getFloat64(0);
}

describe("a script's numbers as %.17g and %.14g", () => {
  it('prints integers, short fractions and random doubles as printf does', () => {
    const rng = new Rng(11);
    const samples: number[] = [];
    for (let i = 0; i < 5000; i++) {
      samples.push(rng.double(), rng.int(0, 2 ** 24 - 1) / 2 ** rng.int(0, 19), rng.int(0, 0xffffffff) * 1000 + rng.int(0, 999), -rng.int(0, 99999) / 8);
    }
    samples.push(1e14, 99999999999999, 123456789012345, 9007199254740991, 0.0001, 0.00009765625, 1.5, -0.375, 1e15 + 0.5);
    for (const x of samples) {
      if (!Number.isFinite(x) || x === 0) continue;
      for (const p of [14, 17]) assert.equal(formatG(x, p), percentG(x, p).text, `%.${p}g of ${x}`);
    }
  });

  it('rounds exact ties to even as glibc does, fractions and integers alike', () => {
    const rng = new Rng(13);
    let ties = 0;
    for (let i = 0; i < 200_000 && ties < 2000; i++) {
      // An odd multiple of 2^-j (a fraction) or of 2^j times a power of five (an integer).
      const odd = 2 * rng.int(0, 2 ** 26 - 1) + 1;
      const x = rng.chance(0.5) ? odd / 2 ** rng.int(1, 60) : odd * 2 ** rng.int(0, 20) * 5 ** rng.int(0, 8);
      if (!Number.isFinite(x)) continue;
      for (const p of [14, 17]) {
        const expected = percentG(x, p);
        if (!expected.tie) continue;
        ties++;
        assert.equal(formatG(x, p), expected.text, `%.${p}g of ${x}`);
        assert.equal(formatG(-x, p), '-' + expected.text, `%.${p}g of ${-x}`);
      }
    }
    assert.ok(ties >= 500, `only ${ties} ties drawn`);
    for (const [x, printed] of [[12345678901234.5, '12345678901234'], [12345678901235.5, '12345678901236'], [123456789012345, '1.2345678901234e+14'], [99999999999999.5, '1e+14']] as const) {
      assert.equal(formatG(x, 14), printed);
    }
  });

  it('prints the infinities, the zeros and a NaN with its sign', () => {
    for (const [x, printed] of [[Infinity, 'inf'], [-Infinity, '-inf'], [0, '0'], [-0, '-0']] as const) assert.equal(formatG(x, 14), printed);
    // glibc prints a NaN's sign: x86 makes 0/0 with it set, which Redis's tostring(0/0) shows as -nan.
    const view = new DataView(new ArrayBuffer(8));
    view.setBigUint64(0, 0x7ff8000000000000n);
    assert.equal(formatG(view.getFloat64(0), 14), 'nan');
    view.setBigUint64(0, 0xfff8000000000000n);
    assert.equal(formatG(view.getFloat64(0), 14), '-nan');
  });
});
