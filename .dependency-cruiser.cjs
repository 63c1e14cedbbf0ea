// The import rules of ARCHITECTURE.md, checked by dependency-cruiser in `npm test` (npm run
// test:deps). Paths are relative to the repository root. A rule's `comment` is what a violation
// prints, so it says what to do instead.
//
// Known exceptions name issue 22: imports that its other points remove (the key-value cycle by
// point 3). Whoever removes one deletes its line, so the check only ever tightens; never add a
// line here for new code.

const SERVICE = '(kv|streams|vector|queue)';
/** The console is mounted like a service, so no service imports it either. */
const MOUNTED = '(kv|streams|vector|queue|console)';

/**
 * What holds a service's durable state. rest/ may read the shapes of the records a store keeps
 * (queue/store/message.ts, record-filter.ts, ...), never the store itself.
 */
const STORES = ['^src/queue/store/(queue-store|event-log|event-file)\\.ts$', '^src/kv/engine/', '^src/streams/log/', '^src/storage/'];

module.exports = {
  forbidden: [
    {
      name: 'no-runtime-cycle',
      comment:
        'An import cycle works only by the order modules happen to load in. Break it: hand the value in, ' +
        'or move what both sides need into a module of its own. A cycle through an `import type` is allowed.',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'service-imports-no-other-service',
      comment:
        'Services meet only through their index.ts, and only where larder.ts or the console composes them. ' +
        'Move what two services share into a neutral module named for what it does (like text/glob.ts).',
      severity: 'error',
      from: { path: `^src/${SERVICE}/` },
      to: { path: `^src/${MOUNTED}/`, pathNot: '^src/$1/' },
    },
    {
      name: 'console-reads-admin-views',
      comment: "The console reads a service only through the admin view its index.ts exports, never its internals (they may carry credentials).",
      severity: 'error',
      from: { path: '^src/console/' },
      to: { path: `^src/${SERVICE}/`, pathNot: `^src/${SERVICE}/index\\.ts$` },
    },
    {
      name: 'shared-code-imports-no-service',
      comment: 'config/, server/, storage/ and the neutral modules (errors/, text/, collections/, similarity/) serve every service, so they import none (put a parser a setting needs in config/).',
      severity: 'error',
      from: { path: '^src/(config|server|storage|errors|text|collections|similarity)/' },
      to: { path: `^src/${MOUNTED}/` },
    },
    {
      name: 'engine-knows-no-http',
      comment:
        "An engine (every folder of a service but rest/, and storage/) is called by rest/ and never imports HTTP: " +
        "not server/ (its logger and the outbound client excepted) and not rest/.",
      severity: 'error',
      from: { path: [`^src/${SERVICE}/(?!rest/)[^/]+/`, '^src/storage/'] },
      to: { path: ['^src/server/', '/rest/'], pathNot: '^src/server/(log|http-client)\\.ts$' },
    },
    {
      name: 'rest-imports-no-store',
      comment: "rest/ calls the service's engine; the store, the logs behind it and storage/ are the engine's own.",
      severity: 'error',
      from: { path: `^src/${SERVICE}/rest/` },
      to: { path: STORES, pathNot: '^src/storage/names\\.ts$' },
    },
    {
      name: 'fengari-through-lua-ts',
      comment:
        "Take fengari from src/kv/engine/scripting/lua.ts: it sets how Lua prints numbers before fengari loads, " +
        "which fengari loaded first by another import would miss. `import type` from 'fengari' is fine.",
      severity: 'error',
      from: { pathNot: '^src/kv/engine/scripting/lua\\.ts$' },
      to: { path: '^node_modules/fengari/', dependencyTypesNot: ['type-only'] },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    // Reads the TypeScript sources, so `import type` is seen (and exempts a cycle).
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
