// The filter language: every operator parsed and evaluated, precedence, paths, quoting, and
// syntax errors pointing at the offending position.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Filter } from '../../../src/vector/filter/ast.js';
import { matches } from '../../../src/vector/filter/evaluate.js';
import { FilterSyntaxError, parseFilter } from '../../../src/vector/filter/parser.js';

const META = {
  city: 'Istanbul',
  population: 15_460_000,
  is_capital: false,
  area: 5461.5,
  currency: { code: 'TRY', name: "Turkish 'lira'" },
  languages: ['turkish', 'kurdish', 'arabic'],
  geography: { continent: 'Asia', coordinates: { latitude: 41.0082, longitude: 28.9784 } },
  tags: [{ name: 'old' }, { name: 'big' }],
};

function parse(src: string): Filter {
  const f = parseFilter(src, 128);
  if (f instanceof FilterSyntaxError) throw new Error(`${src}: ${f.message}`);
  return f;
}

const holds = (src: string) => matches(parse(src), META);

describe('vector filter: operators', () => {
  const cases: [string, boolean][] = [
    ["city = 'Istanbul'", true],
    ["city = 'Ankara'", false],
    ['is_capital = false', true],
    ['is_capital = TRUE', false],
    ['population = 15460000', true],
    ["city != 'Ankara'", true],
    ["city != 'Istanbul'", false],
    ['population < 20000000', true],
    ['population < 15460000', false],
    ['population <= 15460000', true],
    ['area > 5461', true],
    ['area > 5461.5', false],
    ['area >= 5461.5', true],
    ['area >= 5.4615e3', true],
    ['population > -1', true],
    ["city GLOB 'I*bul'", true],
    ["city GLOB '?stanbul'", true],
    ["city GLOB '[A-J]stanbul'", true],
    ["city GLOB '[^I]stanbul'", false],
    ["city NOT GLOB 'A*'", true],
    ["city NOT GLOB 'I*'", false],
    ["city IN ('Istanbul', 'Ankara')", true],
    ["city IN ('Izmir')", false],
    ["city NOT IN ('Izmir', 'Ankara')", true],
    ["city NOT IN ('Istanbul')", false],
    ['population IN (1, 15460000)', true],
    ["languages CONTAINS 'kurdish'", true],
    ["languages CONTAINS 'greek'", false],
    ["languages NOT CONTAINS 'greek'", true],
    ["languages NOT CONTAINS 'turkish'", false],
    ['HAS FIELD currency', true],
    ['HAS FIELD currency.symbol', false],
    ['HAS NOT FIELD currency.symbol', true],
    ['HAS NOT FIELD city', false],
  ];
  for (const [src, expected] of cases) it(`${src} -> ${expected}`, () => assert.equal(holds(src), expected));

  it('compares only values of the same type; a missing field matches no condition', () => {
    assert.equal(holds("population = '15460000'"), false);
    assert.equal(holds("missing != 'x'"), false);
    assert.equal(holds("missing NOT IN ('x')"), false);
    assert.equal(holds("missing NOT GLOB 'x'"), false);
    assert.equal(holds("city CONTAINS 'I'"), false);
  });
});

describe('vector filter: structure', () => {
  it('binds AND tighter than OR, and parentheses override', () => {
    assert.equal(holds("city = 'Ankara' AND population > 0 OR is_capital = false"), true);
    assert.equal(holds("city = 'Ankara' AND (population > 0 OR is_capital = false)"), false);
    assert.equal(holds("is_capital = false OR city = 'Ankara' AND population < 0"), true);
    assert.deepEqual(parse('a = 1 or b = 2 and c = 3'), {
      kind: 'or',
      left: { kind: 'compare', path: ['a'], op: '=', value: 1 },
      right: { kind: 'and', left: { kind: 'compare', path: ['b'], op: '=', value: 2 }, right: { kind: 'compare', path: ['c'], op: '=', value: 3 } },
    });
  });

  it('follows nested paths and array indexes from either end', () => {
    assert.equal(holds("currency.code = 'TRY'"), true);
    assert.equal(holds('geography.coordinates.latitude >= 41'), true);
    assert.equal(holds("languages[0] = 'turkish'"), true);
    assert.equal(holds("languages[#-1] = 'arabic'"), true);
    assert.equal(holds("languages[#-3] = 'turkish'"), true);
    assert.equal(holds("languages[5] = 'turkish'"), false);
    assert.equal(holds("tags[1].name = 'big'"), true);
    assert.deepEqual(parse('a.b[2][#-1].c = 1'), { kind: 'compare', path: ['a', 'b', 2, { fromEnd: 1 }, 'c'], op: '=', value: 1 });
  });

  it('reads single and double quotes, escapes, and keywords in any case', () => {
    assert.equal(holds(`currency.name = "Turkish 'lira'"`), true);
    assert.equal(holds("currency.name = 'Turkish \\'lira\\''"), true);
    assert.equal(holds("city glob 'I*' and languages contains 'arabic' or has not field city"), true);
    assert.equal(holds('is_capital = False'), true);
  });
});

describe('vector filter: syntax errors point at the position', () => {
  const errors: [string, number, string][] = [
    ['', 0, 'a field name'],
    ["city = ", 7, 'a value'],
    ["city == 'x'", 6, 'a value'],
    ["city 'x'", 5, 'an operator'],
    ["city = 'x' AND", 14, 'a field name'],
    ["city = 'x' city = 'y'", 11, 'AND, OR or the end of the filter'],
    ["(city = 'x'", 11, "')'"],
    ["city = 'unterminated", 7, 'a closing quote'],
    ["city IN 'x'", 8, "'('"],
    ["city IN ('x' 'y')", 13, "',' or ')'"],
    ["city NOT = 'x'", 9, 'GLOB, IN or CONTAINS'],
    ['city GLOB 5', 10, 'a quoted pattern'],
    ['arr[x] = 1', 4, 'an array index'],
    ['arr[#1] = 1', 5, "'-'"],
    ['arr[0 = 1', 6, "']'"],
    ['a. = 1', 3, 'a field name'],
    ['HAS FIELD 5', 10, 'a field name'],
    ['city = @', 7, 'a token'],
  ];
  for (const [src, position, expected] of errors) {
    it(JSON.stringify(src), () => {
      const e = parseFilter(src, 128);
      assert.ok(e instanceof FilterSyntaxError, `${src} parsed`);
      assert.deepEqual({ position: e.position, expected: e.expected }, { position, expected });
      const problem = expected === 'a token' ? `token recognition error at: '${src[position]}'` : `expected ${expected}`;
      assert.equal(e.message, `Invalid filter. At line 1:${position} ${problem}`);
    });
  }
});
