// A strict parser of the Prometheus text exposition format (version 0.0.4), for tests of
// /metrics: it throws, naming the line, on anything Prometheus would refuse or that breaks
// the format's rules, so a test that parses a scrape checks its format as well.
// https://prometheus.io/docs/instrumenting/exposition_formats/#text-based-format

export type MetricType = 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';

export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface Family {
  readonly name: string;
  type: MetricType;
  help: string | undefined;
  readonly samples: Sample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*/;
const TYPES = new Set<MetricType>(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

/** Families by name, in order of appearance; histograms are checked (see checkHistogram). */
export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const closed = new Set<string>(); // families whose lines ended: they may not come back
  const typed = new Set<string>();
  let current: Family | undefined;
  const lines = text.split('\n');
  if (text.length > 0 && !text.endsWith('\n')) throw new Error('the exposition must end with a line feed');
  lines.forEach((line, i) => {
    const fail = (why: string): never => {
      throw new Error(`line ${i + 1}: ${why}: ${JSON.stringify(line)}`);
    };
    if (line.trim() === '') return;
    const enter = (name: string): Family => {
      if (current?.name === name) return current;
      if (current !== undefined) closed.add(current.name);
      if (closed.has(name)) fail(`the lines of ${name} are not together`);
      let f = families.get(name);
      if (f === undefined) families.set(name, (f = { name, type: 'untyped', help: undefined, samples: [] }));
      return (current = f);
    };
    if (line.startsWith('#')) {
      const m = /^#[ \t]+(HELP|TYPE)[ \t]+(\S+)(?:[ \t]+(.*))?$/.exec(line);
      if (m === null) return; // any other comment
      const [, keyword, name, rest = ''] = m;
      if (METRIC_NAME.exec(name)?.[0] !== name) fail('bad metric name');
      const f = enter(name);
      if (keyword === 'HELP') {
        if (f.help !== undefined) fail('a second HELP');
        f.help = unescape(rest, false, fail);
      } else {
        if (!TYPES.has(rest as MetricType)) fail('unknown type');
        if (f.samples.length > 0 || typed.has(name)) fail('TYPE after samples or twice');
        typed.add(name);
        f.type = rest as MetricType;
      }
      return;
    }
    const sample = parseSample(line, fail);
    const family = familyOf(sample.name, current, families);
    const f = enter(family);
    for (const s of f.samples) if (s.name === sample.name && sameLabels(s.labels, sample.labels)) fail('a duplicate series');
    if (f.type === 'counter' && !(sample.value >= 0)) fail('a counter below 0 or NaN');
    f.samples.push(sample);
  });
  for (const f of families.values()) if (f.type === 'histogram') checkHistogram(f);
  return families;
}

/** The family a sample belongs to: a histogram's or summary's suffixed names go to their base. */
function familyOf(name: string, current: Family | undefined, families: Map<string, Family>): string {
  for (const suffix of ['_bucket', '_sum', '_count']) {
    if (!name.endsWith(suffix)) continue;
    const base = name.slice(0, -suffix.length);
    const f = current?.name === base ? current : families.get(base);
    if (f !== undefined && (f.type === 'histogram' || (f.type === 'summary' && suffix !== '_bucket'))) return base;
  }
  return name;
}

function parseSample(line: string, fail: (why: string) => never): Sample {
  const name = METRIC_NAME.exec(line)?.[0] ?? fail('no metric name');
  let at = name.length;
  const labels: Record<string, string> = {};
  if (line[at] === '{') {
    at++;
    while (line[at] !== '}') {
      const label = LABEL_NAME.exec(line.slice(at))?.[0] ?? fail('bad label name');
      at += label.length;
      if (line[at] !== '=' || line[at + 1] !== '"') fail(`no ="value" after ${label}`);
      at += 2;
      let raw = '';
      while (line[at] !== '"') {
        if (at >= line.length) fail('unterminated label value');
        if (line[at] === '\\') raw += line[at++];
        raw += line[at++];
      }
      at++;
      if (label in labels) fail(`label ${label} twice`);
      labels[label] = unescape(raw, true, fail);
      if (line[at] === ',') at++;
      else if (line[at] !== '}') fail('expected , or }');
    }
    at++;
  }
  const rest = line.slice(at);
  const m = /^[ \t]+(\S+)(?:[ \t]+(-?\d+))?[ \t]*$/.exec(rest) ?? fail('expected a value (and an optional timestamp)');
  return { name, labels, value: parseValue(m[1], fail) };
}

/** As Prometheus reads values (Go's strconv.ParseFloat): Inf and NaN in any case (prom-client writes `Nan`). */
function parseValue(text: string, fail: (why: string) => never): number {
  if (/^\+?inf(inity)?$/i.test(text)) return Infinity;
  if (/^-inf(inity)?$/i.test(text)) return -Infinity;
  if (/^[+-]?nan$/i.test(text)) return NaN;
  if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text)) fail(`bad value ${text}`);
  return Number(text);
}

/** HELP text escapes \\ and \n; label values also \". */
function unescape(raw: string, quotes: boolean, fail: (why: string) => never): string {
  return raw.replace(/\\(.?)/g, (_, c: string) => {
    if (c === '\\') return '\\';
    if (c === 'n') return '\n';
    if (c === '"' && quotes) return '"';
    return fail(`bad escape \\${c}`);
  });
}

function sameLabels(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

const withoutLe = (labels: Readonly<Record<string, string>>) => Object.fromEntries(Object.entries(labels).filter(([k]) => k !== 'le'));

/**
 * Each series of a histogram has buckets in rising `le` order with counts that never fall,
 * ending with le="+Inf", whose count is the series' _count; and a _sum.
 */
function checkHistogram(f: Family): void {
  const series = f.samples.filter((s) => s.name === `${f.name}_count`);
  for (const count of series) {
    const buckets = f.samples.filter((s) => s.name === `${f.name}_bucket` && sameLabels(withoutLe(s.labels), count.labels));
    const where = `${f.name}${JSON.stringify(count.labels)}`;
    if (buckets.length === 0) throw new Error(`${where}: no buckets`);
    let le = -Infinity;
    let n = 0;
    for (const b of buckets) {
      const bound = b.labels.le === undefined ? NaN : parseValue(b.labels.le, (why) => { throw new Error(`${where}: ${why}`); });
      if (!(bound > le)) throw new Error(`${where}: le ${b.labels.le} out of order`);
      if (!(b.value >= n)) throw new Error(`${where}: bucket le=${b.labels.le} holds ${b.value}, fewer than the ${n} below it`);
      le = bound;
      n = b.value;
    }
    if (le !== Infinity) throw new Error(`${where}: no le="+Inf" bucket`);
    if (n !== count.value) throw new Error(`${where}: le="+Inf" holds ${n}, _count ${count.value}`);
    if (!f.samples.some((s) => s.name === `${f.name}_sum` && sameLabels(s.labels, count.labels))) throw new Error(`${where}: no _sum`);
  }
  if (f.samples.some((s) => s.name === `${f.name}_bucket`) && series.length === 0) throw new Error(`${f.name}: buckets without _count`);
}

/** The value of the sample `name` with exactly `labels`, or undefined when absent. */
export function sampleValue(families: ReadonlyMap<string, Family>, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const f of families.values()) {
    for (const s of f.samples) if (s.name === name && sameLabels(s.labels, labels)) return s.value;
  }
  return undefined;
}
