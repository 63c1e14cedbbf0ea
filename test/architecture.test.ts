// The house rules of ARCHITECTURE.md that a reader could break without noticing: imports
// flow adapter -> server -> service rest/ -> engine -> storage (the queue's rest/ calls engine
// methods and never the store or event log; its engine and workflow/ import nothing from rest/),
// only adapters know a runtime, and only config/ reads the environment.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

const ROOT = join(fileURLToPath(import.meta.url), '../../..');
const SRC = join(ROOT, 'src');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? sources(join(dir, d.name)) : d.name.endsWith('.ts') ? [join(dir, d.name)] : [],
  );
}

const FILES = sources(SRC).map((path) => ({
  path: relative(SRC, path),
  text: readFileSync(path, 'utf8'),
}));

function importsOf(text: string): string[] {
  return [...text.matchAll(/(?:^|\n)\s*(?:import|export)[^'"]*?from\s+'([^']+)'|import\('([^']+)'\)/g)].map((m) => m[1] ?? m[2]);
}

function violations(filter: (path: string) => boolean, forbidden: (spec: string, path: string) => boolean): string[] {
  return FILES.filter((f) => filter(f.path)).flatMap((f) =>
    importsOf(f.text)
      .filter((spec) => forbidden(spec, f.path))
      .map((spec) => `${f.path} imports ${spec}`),
  );
}

/** An import between two source files; `typeOnly` when TypeScript erases it (`import type`, or only `type` names). */
interface Edge {
  readonly to: string;
  readonly typeOnly: boolean;
}

function relativeImports(path: string, text: string): Edge[] {
  const edges: Edge[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\s+(type\s+)?([^'";]*?)\s*from\s+'(\.[^']+)'/g)) {
    const names = /^\{([^}]*)\}$/.exec(m[2].trim());
    const allTypes = names !== null && names[1].split(',').every((n) => n.trim() === '' || n.trim().startsWith('type '));
    edges.push({ to: join(dirname(path), m[3].replace(/\.js$/, '.ts')), typeOnly: m[1] !== undefined || allTypes });
  }
  return edges;
}

/** The strongly connected groups of more than one file (Tarjan): each holds an import cycle. */
function cycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (stack.includes(w)) {
        low.set(v, Math.min(low.get(v)!, index.get(w)!));
      }
    }
    if (low.get(v) !== index.get(v)) return;
    const group = stack.splice(stack.indexOf(v));
    if (group.length > 1) found.push(group.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe('architecture', () => {
  it('finds the sources it checks', () => {
    assert.ok(FILES.length > 10);
    assert.ok(FILES.some((f) => f.path === join('kv', 'database.ts')));
  });

  it('keeps engines and commands free of HTTP and REST', () => {
    const engineSide = (p: string) => /^(kv[/\\](engine|commands|acl)|streams[/\\](log|groups)|vector[/\\](engine|filter|embedding))[/\\]/.test(p) || p.startsWith('storage');
    assert.deepEqual(
      violations(engineSide, (spec) => /(^|\/)(server|rest)\//.test(spec) && !spec.endsWith('server/log.js')),
      [],
    );
  });

  it('keeps the queue one way: rest/ over the engine, the engine and workflow/ under rest/', () => {
    const queueRest = (p: string) => /^queue[/\\]rest[/\\]/.test(p);
    // rest/ may read the records' shapes (store/message.ts, ...), but not the store or the event log.
    assert.deepEqual(
      violations(queueRest, (spec) => /(^|\/)store\/(queue-store|event-log|event-file)\.js$/.test(spec) || /(^|\/)storage\//.test(spec)),
      [],
    );
    const reachesIn = FILES.filter((f) => queueRest(f.path) && /\.(store|events)\b/.test(f.text)).map((f) => f.path);
    assert.deepEqual(reachesIn, []);
    const underRest = (p: string) => /^queue[/\\]/.test(p) && !queueRest(p) && p !== join('queue', 'index.ts');
    assert.deepEqual(violations(underRest, (spec) => /(^|\/)rest\//.test(spec)), []);
  });

  it('keeps the queue engine free of HTTP and REST', () => {
    const queueEngine = (p: string) => /^queue[/\\](store|delivery|schedules|signing|workflow|options)[/\\]/.test(p) || /^queue[/\\](engine|url-groups)\.ts$/.test(p);
    // Deliveries go out through server/http-client.ts, the outbound client, not the server's HTTP.
    const http = (spec: string) => /(^|\/)(server|rest)\//.test(spec) && !/server\/(log|http-client)\.js$/.test(spec);
    assert.ok(FILES.some((f) => queueEngine(f.path) && f.path.endsWith('scheduler.ts')));
    assert.deepEqual(violations(queueEngine, http), []);
  });

  it('lets only the adapters know a runtime', () => {
    const outsideAdapters = (p: string) => !/^server[/\\]adapters[/\\]/.test(p);
    assert.deepEqual(violations(outsideAdapters, (spec) => spec === 'node:http' || spec === 'bun'), []);
    const bunMentions = FILES.filter((f) => outsideAdapters(f.path) && /\bBun\.serve\(/.test(f.text)).map((f) => f.path);
    assert.deepEqual(bunMentions, []);
  });

  it('reads the environment only in config/', () => {
    const readers = FILES.filter((f) => !f.path.startsWith('config') && /process\.env\b/.test(f.text)).map((f) => f.path);
    assert.deepEqual(readers, []);
  });

  it('has no import cycle in kv/ but type-only imports between files of one folder', () => {
    // A runtime cycle works only by the order modules happen to load in (the table and the ACL
    // selector once needed lazy initialisation); a type cycle across folders hides a layer
    // that imports the one above it.
    const kv = FILES.filter((f) => /^kv[/\\]/.test(f.path));
    const graph = new Map(
      kv.map((f) => [
        f.path,
        relativeImports(f.path, f.text)
          .filter((e) => !(e.typeOnly && dirname(e.to) === dirname(f.path)))
          .map((e) => e.to),
      ]),
    );
    assert.ok([...graph.values()].some((to) => to.includes(join('kv', 'commands', 'spec.ts'))), 'reads the imports');
    assert.deepEqual(cycles(graph), []);
  });

  it('keeps the kv engine below the command table, ACL and backends', () => {
    const above = (spec: string) => /(^|\/)(commands|acl|rest|redis)\//.test(spec) || /(^|\/)(database|backend)\.js$/.test(spec);
    assert.deepEqual(violations((p) => /^kv[/\\]engine[/\\]/.test(p), above), []);
  });

  it('keeps command names out of code outside the table', () => {
    const rest = FILES.filter((f) => /^kv[/\\]rest[/\\]/.test(f.path) && /===\s*'(keys|scan|set|get|multi|exec)'/.test(f.text));
    assert.deepEqual(rest.map((f) => f.path), []);
  });
});
