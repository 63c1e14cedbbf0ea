// Loads one data set (kv-datasets.ts) into a fresh embedded database and prints, as one JSON
// line, how much the heap grew, measured after a full collection before and after: what the
// engine holds for the data, without the garbage its loading left. Run under node with
// --expose-gc, or under bun.
//   <runtime> dist/bench/kv-memory-worker.js <dataset id> <scale>

import { AclRegistry } from '../src/kv/acl/registry.js';
import { COMMANDS } from '../src/kv/commands/table.js';
import { Database, SYSTEM_CALLER } from '../src/kv/database.js';
import { ReplyError } from '../src/kv/errors.js';
import { datasets } from './kv-datasets.js';

declare const Bun: { gc(force: boolean): void } | undefined;
const runtime = typeof Bun === 'undefined' ? 'node' : 'bun';

function collect(): void {
  if (typeof Bun !== 'undefined') Bun.gc(true);
  else (globalThis as { gc?: () => void }).gc!();
}

/** The heap, with typed arrays' backing stores: V8 keeps those outside heapUsed, JavaScriptCore inside. */
function heapBytes(): number {
  collect();
  collect();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return runtime === 'node' ? heapUsed + arrayBuffers : heapUsed;
}

const [id, scale] = process.argv.slice(2);
const dataset = datasets(Number(scale)).find((d) => d.id === id);
if (dataset === undefined) throw new Error(`unknown data set '${id}'`);
const db = new Database('default', new AclRegistry('token', 'read-only-token', COMMANDS), runtime, Date.now);
const before = heapBytes();
const rssBefore = process.memoryUsage().rss;
for (const built of dataset.commands()) {
  // Parsed from JSON as the server parses a request body: flat strings of their own, not the
  // ropes and shared constants the generator builds them from.
  const argv = JSON.parse(JSON.stringify(built)) as string[];
  const reply = db.execute(argv, SYSTEM_CALLER);
  if (reply instanceof ReplyError) throw new Error(`${argv[0]}: ${reply.text}`);
}
const after = heapBytes();
console.log(JSON.stringify({ heapBytes: after - before, rssBytes: process.memoryUsage().rss - rssBefore, keys: db.ks.size }));
