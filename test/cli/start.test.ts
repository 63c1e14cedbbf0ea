// `larder start` as a user runs it: what it prints, that the printed lines configure the
// official SDK as they are, that generated tokens survive a restart, and one-line errors.

import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Redis } from '@upstash/redis';
import { LAUNCHER, launchLarder, spawnLarder, TEST_RUNTIME } from '../support/larder-process.js';

const root = mkdtempSync(join(tmpdir(), 'larder-cli-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** The KEY=value lines, as a .env file would give them to process.env. */
function envOf(lines: readonly string[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const line of lines) {
    const m = /^([A-Z_]+)=(.*)$/.exec(line);
    if (m !== null) env[m[1]] = m[2];
  }
  return env;
}

const BUN = fileURLToPath(new URL('../../../node_modules/.bin/bun', import.meta.url));

/** Runs `file args` in `cwd` with no UPSTASH_* variables of its own; resolves to its trimmed stdout. */
function run(file: string, args: string[], cwd: string): Promise<string> {
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('UPSTASH_') && !k.startsWith('KV_')));
  return new Promise((resolve, reject) => {
    execFile(file, args, { cwd, env }, (err, stdout, stderr) => (err === null ? resolve(stdout.trim()) : reject(new Error(`${file} ${args.join(' ')}: ${stderr}`))));
  });
}

describe('larder start', () => {
  it('prints the real port for --port 0 and env lines that Redis.fromEnv reads as they are', async () => {
    const p = await spawnLarder({ dataDir: join(root, 'from-env'), flags: ['--port', '0'] });
    const [listening] = p.stdout();
    const port = Number(new RegExp(`^Larder listening on http://127\\.0\\.0\\.1:(\\d+) \\(${TEST_RUNTIME}\\)$`).exec(listening)?.[1]);
    assert.ok(port > 0, listening);
    const env = envOf(p.stdout());
    assert.equal(env.UPSTASH_REDIS_REST_URL, `http://127.0.0.1:${port}/redis/default`);
    assert.equal(env.KV_REST_API_URL, env.UPSTASH_REDIS_REST_URL);
    assert.equal(env.KV_REST_API_TOKEN, env.UPSTASH_REDIS_REST_TOKEN);
    assert.equal(env.KV_REST_API_READ_ONLY_TOKEN, env.UPSTASH_REDIS_REST_READ_ONLY_TOKEN);

    const saved = { ...process.env };
    try {
      Object.assign(process.env, { UPSTASH_REDIS_REST_URL: env.UPSTASH_REDIS_REST_URL, UPSTASH_REDIS_REST_TOKEN: env.UPSTASH_REDIS_REST_TOKEN });
      const redis = Redis.fromEnv({ enableTelemetry: false });
      assert.equal(await redis.set('from', 'env'), 'OK');
      assert.equal(await redis.get('from'), 'env');
      // The Vercel KV names alone work too.
      delete process.env.UPSTASH_REDIS_REST_URL;
      delete process.env.UPSTASH_REDIS_REST_TOKEN;
      Object.assign(process.env, { KV_REST_API_URL: env.KV_REST_API_URL, KV_REST_API_TOKEN: env.KV_REST_API_TOKEN });
      assert.equal(await Redis.fromEnv({ enableTelemetry: false }).get('from'), 'env');
    } finally {
      process.env = saved;
    }
    assert.equal((await p.stop()).code, 0);
  });

  it("prints lines that, pasted into .env, configure an app run by `node --env-file=.env` or by bun, which reads .env itself", async () => {
    const p = await spawnLarder({ dataDir: join(root, 'dotenv'), flags: ['--port', '0'] });
    try {
      const app = mkdtempSync(join(root, 'app-'));
      writeFileSync(join(app, '.env'), p.stdout().slice(1).join('\n') + '\n');
      const sdk = pathToFileURL(createRequire(import.meta.url).resolve('@upstash/redis'));
      writeFileSync(
        join(app, 'app.mjs'),
        `const { Redis } = await import(${JSON.stringify(sdk.href)});\n` +
          `const redis = Redis.fromEnv({ enableTelemetry: false });\n` +
          `await redis.incr('runs');\nconsole.log(await redis.get('runs'));\n`,
      );
      assert.equal(await run(process.execPath, ['--env-file=.env', 'app.mjs'], app), '1');
      assert.equal(await run(BUN, ['app.mjs'], app), '2');
    } finally {
      await p.stop();
    }
  });

  it('prints every database under its own suffix and keeps generated tokens across restarts', async () => {
    const dataDir = join(root, 'two-databases');
    const config = { kv: { databases: { default: {}, 'app-cache': { token: 'configured-token' } } } };
    const first = await spawnLarder({ dataDir, config });
    const env = envOf(first.stdout());
    assert.match(env.UPSTASH_REDIS_REST_URL_APP_CACHE, /\/redis\/app-cache$/);
    assert.equal(env.UPSTASH_REDIS_REST_TOKEN_APP_CACHE, 'configured-token');
    assert.equal(env.KV_REST_API_TOKEN_APP_CACHE, 'configured-token');
    assert.notEqual(env.UPSTASH_REDIS_REST_TOKEN, env.UPSTASH_REDIS_REST_READ_ONLY_TOKEN);
    assert.equal((await first.stop()).code, 0);

    const second = await spawnLarder({ dataDir, config });
    const again = envOf(second.stdout());
    for (const name of ['UPSTASH_REDIS_REST_TOKEN', 'UPSTASH_REDIS_REST_READ_ONLY_TOKEN', 'UPSTASH_REDIS_REST_READ_ONLY_TOKEN_APP_CACHE']) {
      assert.equal(again[name], env[name], name);
    }
    assert.equal((await second.stop()).code, 0);
  });

  it('run as a program, starts Node with the flags `npm run start:node` gives it', async () => {
    const repo = fileURLToPath(new URL('../../../', import.meta.url));
    const script = (JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts['start:node'];
    const flags = /\bnode ((?:--\S+ )*)bin\/larder\.js start$/.exec(script)?.[1].trim().split(' ') ?? [];
    assert.ok(flags.length > 0, script);
    const child = spawn(join(repo, 'bin', 'larder.js'), ['start', '--host', '127.0.0.1', '--port', '0', '--data-dir', join(root, 'as-program')], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      let out = '';
      for await (const chunk of child.stdout.setEncoding('utf8')) if ((out += chunk as string).includes('Larder listening')) break;
      assert.match(out, /\(node\)/);
      // The shebang's `env -S` replaces itself with Node, so the child's command line is Node's.
      const argv = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0');
      assert.deepEqual(argv.slice(1, 1 + flags.length), flags);
    } finally {
      child.kill('SIGTERM');
    }
  });

  it('refuses a Node without require() of ES modules (before 20.19) with one clear line and exit code 2', async () => {
    const dataDir = join(root, 'old-node');
    // Node 20.20 without the feature is Node before 20.19 as far as Larder can tell.
    const out = await new Promise<{ code: number | null; stderr: string }>((resolve) =>
      // A Larder that starts anyway is stopped after 30 s, failing the test rather than hanging it.
      execFile(process.execPath, ['--no-experimental-require-module', LAUNCHER, 'start', '--port', '0', '--data-dir', dataDir], { timeout: 30_000 }, (err, _stdout, stderr) =>
        resolve({ code: err === null ? 0 : Number(err.code), stderr }),
      ),
    );
    assert.deepEqual(out, {
      code: 2,
      stderr: `larder: Node ${process.versions.node} cannot require() ES modules, which Larder needs (its Lua VM loads so at a database's first script): run it on Node 20.19 or later, or on Bun\n`,
    });
    assert.equal(existsSync(dataDir), false, 'nothing was written');
  });

  it('refuses a bad setting with one clear line and exit code 2', async () => {
    const p = launchLarder({ dataDir: join(root, 'bad'), config: { kv: { fsync: 'sometimes' } } });
    const exit = await p.exited;
    assert.equal(exit.code, 2);
    assert.match(p.stderr(), /^larder: invalid configuration:\n {2}kv\.fsync: /);
    assert.doesNotMatch(p.stderr(), /\n\s+at /);
  });

  for (const [file, remedy] of [
    ['secrets.json', 'restore it from a backup (removed, it is made again with new tokens'],
    [join('kv', 'default', 'acl.json'), 'restore it from a backup (removed, the users and tokens made at run time are gone'],
    [join('streams', 'default', 'topics.json'), 'restore it from a backup, or write each topic'],
    [join('vector', 'created-indexes.json'), 'fix or remove it'],
  ] as const) {
    it(`stops with one line naming a damaged ${file}, and changes nothing`, async () => {
      const dataDir = join(root, `damaged-${file.replaceAll('/', '-')}`);
      const path = join(dataDir, file);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, '{"version":1,"cut');
      const p = launchLarder({ dataDir, config: {} });
      p.ready.then(() => p.stop(), () => undefined);
      const exit = await p.exited;
      assert.equal(exit.code, 1);
      assert.match(p.stderr(), new RegExp(`^larder: ${escape(path)} is damaged \\(.+\\); ${escape(remedy)}`));
      assert.doesNotMatch(p.stderr(), /\n\s+at /);
      assert.equal(readFileSync(path, 'utf8'), '{"version":1,"cut');
    });
  }

  it('stops with one line naming a created vector index whose settings are not valid', async () => {
    const dataDir = join(root, 'invalid-created-index');
    const path = join(dataDir, 'vector', 'created-indexes.json');
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, JSON.stringify({ docs: { dimension: -3 } }));
    const p = launchLarder({ dataDir, config: {} });
    p.ready.then(() => p.stop(), () => undefined);
    const exit = await p.exited;
    assert.equal(exit.code, 1);
    assert.match(p.stderr(), new RegExp(`^larder: ${escape(path)} is not a valid list of created vector indexes \\(docs: dimension .+\\); fix or remove it`));
    assert.doesNotMatch(p.stderr(), /\n\s+at /);
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

