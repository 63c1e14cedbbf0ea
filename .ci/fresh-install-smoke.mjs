// Run by .ci/fresh-install in the freshly installed copy: starts `larder start` under Bun and
// under Node (port 0, a new data dir each), and through @upstash/vector upserts three vectors
// and asks for the nearest one; exits non-zero on any difference or a start that fails.

import { Index } from '@upstash/vector';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const RUNTIMES = { bun: 'node_modules/.bin/bun', node: process.execPath };
const READY_MS = 60_000;

for (const [runtime, executable] of Object.entries(RUNTIMES)) {
  const dataDir = mkdtempSync(join(tmpdir(), 'larder-fresh-'));
  const server = spawn(executable, ['bin/larder.js', 'start', '--port', '0', '--data-dir', dataDir, '--log-level', 'warn'], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const env = await printedLines(server);
    const index = new Index({ url: env.UPSTASH_VECTOR_REST_URL, token: env.UPSTASH_VECTOR_REST_TOKEN, enableTelemetry: false });
    await index.upsert([
      { id: 'north', vector: [0, 1, 0] },
      { id: 'east', vector: [1, 0, 0] },
      { id: 'up', vector: [0, 0, 1] },
    ]);
    const [nearest] = await index.query({ vector: [0.9, 0.1, 0], topK: 1 });
    if (nearest?.id !== 'east') throw new Error(`query answered ${JSON.stringify(nearest)}, not east`);
    console.log(`fresh install: Larder on ${runtime} answered a vector upsert and query`);
  } finally {
    server.kill('SIGTERM');
    await new Promise((resolve) => server.once('close', resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The KEY=value lines the server prints, once it has printed the vector index's. */
function printedLines(server) {
  return new Promise((resolve, reject) => {
    const env = {};
    const timer = setTimeout(() => reject(new Error(`no vector env lines within ${READY_MS} ms`)), READY_MS);
    server.once('exit', (code, signal) => reject(new Error(`larder exited (${code ?? signal}) before it was ready`)));
    createInterface({ input: server.stdout }).on('line', (line) => {
      const m = /^([A-Z_]+)=(.*)$/.exec(line);
      if (m === null) return;
      env[m[1]] = m[2];
      if (m[1] === 'UPSTASH_VECTOR_REST_READONLY_TOKEN') {
        clearTimeout(timer);
        resolve(env);
      }
    });
  });
}
