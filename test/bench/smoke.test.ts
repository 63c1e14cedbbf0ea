// Runs every bench workload for about a second with tiny sizes, so the bench code cannot rot
// unnoticed. Measures nothing: it checks that each workload runs to the end, gets only correct
// answers (the runner exits 2 otherwise) and writes its section between its markers. The
// families run in-process only here (their HTTP mode takes whole seconds per cell). The KV
// workload needs wrk; its webdis and redis-benchmark rows are skipped where those tools are
// absent, except under CI, where redis-server (and with it redis-benchmark) is installed and
// that row must have figures. The queue's PostgreSQL rows must have figures wherever PostgreSQL
// is installed (always under CI).

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { findPostgres } from '../support/postgres.js';

const ROOT = resolve(fileURLToPath(import.meta.url), '../../../..'); // dist/test/bench -> repo
const RUNNER = join(ROOT, 'dist/bench/run.js');
const ON_CI = process.env.CI !== undefined;
const hasTool = (name: string) => ['/usr/bin', '/usr/local/bin', '/bin'].some((dir) => existsSync(join(dir, name)));

const SMOKE: Record<string, string[]> = {
  kv: ['--duration', '1', '--warmup', '0', '--rounds', '1', '--only', 'larder-bun,webdis,redis-benchmark'],
  families: ['--modes', 'engine', '--sizes', '100,1000', '--cell', '0.02'],
  streams: ['--run-seconds', '0.2', '--warmup', '0', '--rounds', '1'],
  vector: ['--vectors', '500', '--queries', '20', '--run-seconds', '0.2', '--rounds', '1'],
  queue: ['--run-seconds', '0.2', '--warmup', '0', '--rounds', '1', '--queue-pending', '2000'],
  'vector-scale': ['--scale-sizes', '500,2000', '--scale-queries', '20', '--scale-direct-max', '500', '--run-seconds', '0.2', '--rounds', '1'],
  workflow: ['--run-seconds', '0.2', '--warmup', '0', '--rounds', '1'],
  search: ['--search-sizes', '500,2000', '--run-seconds', '0.2', '--rounds', '1'],
  'kv-scale': ['--compaction-keys', '20000', '--memory-scale', '0.01', '--duration', '1', '--warmup', '0'],
  'kv-calls': ['--calls-items', '300'],
};

function runBench(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((done) => {
    const child = spawn(process.execPath, [RUNNER, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk));
    child.on('close', (code) => done({ code, out }));
  });
}

describe('bench smoke', { concurrency: true }, () => {
  for (const [workload, args] of Object.entries(SMOKE)) {
    const needsWrk = workload === 'kv' || workload === 'kv-scale';
    test(workload, { skip: needsWrk && !hasTool('wrk') ? 'wrk not installed' : false }, async () => {
      const dir = mkdtempSync(join(tmpdir(), 'larder-bench-smoke-'));
      try {
        const doc = join(dir, 'benchmarks.md');
        const { code, out } = await runBench([workload, ...args, '--doc', doc]);
        assert.equal(code, 0, out);
        const text = readFileSync(doc, 'utf8');
        const section = text.slice(text.indexOf(`<!-- bench:${workload} begin`), text.indexOf(`<!-- bench:${workload} end -->`));
        assert.match(section, /Load average/);
        assert.doesNotMatch(section, /FAILED|failed:/);
        if (workload === 'kv') {
          assert.match(section, /\| GET \(req\/s\) +\| Larder \(bun\) +\| [\d,]+ /);
          for (const [tool, row] of [['webdis', 'webdis \\+ redis-server'], ['redis-benchmark', 'redis-benchmark, redis-server']]) {
            if ((ON_CI && tool === 'redis-benchmark') || hasTool(tool)) assert.match(section, new RegExp(`\\| GET \\(req/s\\) +\\| ${row} +\\| [\\d,]+ `), `${tool} row measured`);
          }
        }
        if (workload === 'vector') assert.match(section, /\| query recall@10 \(recall\) +\| Larder \(bun\), HTTP +\| [01]\.\d{3} /);
        if (workload === 'queue') {
          assert.match(section, /\| deliveries, 1 in 10 failing once \(msg\/s\) +\| Larder \(node\) +\| [\d,]+ /);
          assert.match(section, /\| publish-to-delivery p99 \(ms\) +\| Larder \(bun\) +\| [\d.]+ /);
          if (ON_CI || findPostgres() !== undefined) {
            assert.match(section, /\| deliveries \(msg\/s\) +\| Larder \(bun\), PostgreSQL, 2 processes +\| [\d,]+ /);
            assert.match(section, /\| deliveries CPU \(µs\) +\| Larder \(bun\), PostgreSQL, 1 process +\| [\d.]+ /);
          }
        }
        if (workload === 'vector-scale') {
          assert.equal(section.match(/\| query recall@10 \(recall\) +\| 500 +\| [01]\.\d{3} /g)?.length, 2, 'recall at 500 of Larder and of its ANN graph');
          assert.equal(section.match(/\| query recall@10 \(recall\) +\| 2k +\| [01]\.\d{3} /g)?.length, 1, 'recall at 2k of Larder alone (--scale-direct-max 500)');
          assert.match(section, /Issue 20 target, recall@10 at 2k: [01]\.\d{3} against 0\.95: (met|NOT met)\./);
        }
        if (workload === 'workflow') assert.match(section, /\| latency per step, one run p50 \(ms\) +\| Larder \(node\) +\| [\d.]+ /);
        if (workload === 'search') assert.match(section, /\| term p99 \(ms\) +\| Larder \(bun\), HTTP +\| [\d.]+ /);
        if (workload === 'kv-scale') {
          assert.match(section, /\| GET p99 \(ms\) +\| Larder \(bun\), compaction running +\| [\d.]+ /);
          if (ON_CI || hasTool('redis-server')) assert.match(section, /, per key \(B\) +\| Larder \(node\) +\| [\d,]+ /);
        }
        if (workload === 'streams') assert.match(section, /\| produce-to-consume p99 \(ms\) +\| Larder \(node\) +\| [\d.]+ /);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
