// The house rules of ARCHITECTURE.md that a reader could break without noticing: imports
// flow adapter -> server -> service rest/ -> engine -> storage, only adapters know a runtime,
// and only config/ reads the environment.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
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

describe('architecture', () => {
  it('finds the sources it checks', () => {
    assert.ok(FILES.length > 10);
    assert.ok(FILES.some((f) => f.path === join('kv', 'engine', 'database.ts')));
  });

  it('keeps engines and commands free of HTTP and REST', () => {
    const engineSide = (p: string) => /^(kv[/\\](engine|commands|acl)|streams[/\\](log|groups)|vector[/\\](index|filter|embedding))[/\\]/.test(p) || p.startsWith('storage');
    assert.deepEqual(
      violations(engineSide, (spec) => /(^|\/)(server|rest)\//.test(spec) && !spec.endsWith('server/log.js')),
      [],
    );
  });

  it('keeps the queue engine free of HTTP and REST', () => {
    const queueEngine = (p: string) => /^queue[/\\](store|delivery|schedules|signing|workflow)[/\\]/.test(p) || /^queue[/\\](engine|url-groups)\.ts$/.test(p);
    // Deliveries go out through server/http-client.ts, the outbound client, not the server's HTTP.
    const http = (spec: string) => /(^|\/)(server|rest)\//.test(spec) && !/server\/(log|http-client)\.js$/.test(spec);
    // Issue 22 point 2 moves these REST handlers under rest/ and publish options out of rest/;
    // delete a name from the list when its file no longer imports HTTP.
    const known = ['dlq-api', 'events-api', 'runs-api', 'run-dlq', 'run-publish', 'waits'].map((f) => join('queue', 'workflow', `${f}.ts`));
    assert.ok(FILES.some((f) => queueEngine(f.path) && f.path.endsWith('scheduler.ts')));
    assert.deepEqual(violations((p) => queueEngine(p) && !known.includes(p), http), []);
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

  it('keeps command names out of code outside the table', () => {
    const rest = FILES.filter((f) => /^kv[/\\]rest[/\\]/.test(f.path) && /===\s*'(keys|scan|set|get|multi|exec)'/.test(f.text));
    assert.deepEqual(rest.map((f) => f.path), []);
  });
});
