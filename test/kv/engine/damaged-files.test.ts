// What `larder start` does with damaged files in its data dir. A log whose tail was cut,
// flipped, overwritten with garbage or zero-filled is cut back to its last whole frame, with
// a warning in the log, and the server starts with every earlier write; the next start finds
// nothing to cut (no crash loop). A damaged snapshot stops the start with one clear line and
// is left untouched, every time.

import assert from 'node:assert/strict';
import { appendFileSync, cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { encodeCommands } from '../../../src/kv/engine/command-codec.js';
import { frame } from '../../../src/storage/frames.js';
import { launchLarder, spawnLarder } from '../../support/larder-process.js';
import { kvClient } from '../../support/larder.js';

const KEYS = 20;
const LAST: [string, string] = ['last', 'lost-if-cut'];
const LAST_FRAME = frame(encodeCommands([['set', ...LAST]])).length;
const LOG = join('kv', 'default', 'log-00000000000000000000.aof');

interface Damage {
  name: string;
  damage(logPath: string): void;
  /** Whether the last write is lost with the cut tail. */
  losesLast: boolean;
}

const DAMAGES: Damage[] = [
  { name: 'a few bytes cut off the end', damage: (p) => truncateSync(p, statSync(p).size - 3), losesLast: true },
  {
    name: 'a cut inside the last frame header',
    damage: (p) => truncateSync(p, statSync(p).size - LAST_FRAME + 5),
    losesLast: true,
  },
  {
    name: 'a flipped byte in the last frame',
    damage: (p) => {
      const bytes = readFileSync(p);
      bytes[bytes.length - 4] ^= 0x40;
      writeFileSync(p, bytes);
    },
    losesLast: true,
  },
  { name: 'garbage appended', damage: (p) => appendFileSync(p, Buffer.from('\x07garbage\xff after the last frame', 'latin1')), losesLast: false },
  { name: 'a zero-filled tail', damage: (p) => appendFileSync(p, Buffer.alloc(4096)), losesLast: false },
];

interface LogLine {
  level: number;
  msg: string;
  cutBytes?: number;
}
const logLines = (stderr: string): LogLine[] =>
  stderr
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as LogLine);

async function start(dataDir: string, kv: Record<string, unknown> = { fsync: 'always' }) {
  const p = await spawnLarder({ config: { kv }, dataDir });
  const db = p.info.databases.get('default')!;
  return { p, client: kvClient(db.url, db.token, db.readOnlyToken) };
}

describe('damaged data files', () => {
  const root = mkdtempSync(join(tmpdir(), 'larder-damaged-'));
  const pristine = join(root, 'pristine');
  let logSize = 0;
  after(() => rmSync(root, { recursive: true, force: true }));

  before(async () => {
    const { p, client } = await start(pristine);
    for (let i = 0; i < KEYS; i++) assert.equal((await client.command(['set', `k${i}`, `v${i}`])).status, 200);
    assert.equal((await client.command(['set', ...LAST])).status, 200);
    assert.equal((await p.stop()).code, 0);
    logSize = statSync(join(pristine, LOG)).size;
  });

  for (const d of DAMAGES) {
    it(`cuts a log tail with ${d.name}, warns, and starts with every earlier write, twice`, async () => {
      const dir = join(root, d.name.replace(/\W+/g, '-'));
      cpSync(pristine, dir, { recursive: true });
      d.damage(join(dir, LOG));
      const cut = statSync(join(dir, LOG)).size - (d.losesLast ? logSize - LAST_FRAME : logSize);

      const first = await start(dir);
      for (let i = 0; i < KEYS; i++) assert.deepEqual((await first.client.command(['get', `k${i}`])).body, { result: `v${i}` });
      assert.deepEqual((await first.client.command(['get', LAST[0]])).body, { result: d.losesLast ? null : LAST[1] });
      assert.equal((await first.client.command(['set', 'after', 'the cut'])).status, 200);
      assert.equal((await first.p.stop()).code, 0);
      const warnings = logLines(first.p.stderr()).filter((l) => /torn tail/.test(l.msg));
      assert.equal(warnings.length, 1, first.p.stderr());
      assert.equal(warnings[0].level, 40, 'reported at warn level');
      assert.equal(warnings[0].cutBytes, cut);

      const second = await start(dir);
      assert.deepEqual((await second.client.command(['get', 'after'])).body, { result: 'the cut' });
      assert.deepEqual((await second.client.command(['get', `k${KEYS - 1}`])).body, { result: `v${KEYS - 1}` });
      assert.equal((await second.p.stop()).code, 0);
      assert.deepEqual(
        logLines(second.p.stderr()).filter((l) => /torn tail/.test(l.msg)),
        [],
        'the second start finds nothing to cut',
      );
    });
  }

  it('stops on a damaged snapshot with one clear line, leaving the file as it was, every time', async () => {
    const dir = join(root, 'snapshot');
    const { p, client } = await start(dir, { compactAfterBytes: 200 });
    for (let i = 0; i < 20; i++) await client.command(['set', `k${i}`, `value number ${i}`]);
    assert.equal((await p.stop()).code, 0);
    const snapshot = readdirSync(join(dir, 'kv', 'default')).find((f) => f.startsWith('snapshot-'));
    assert.ok(snapshot !== undefined, 'compaction wrote a snapshot');
    const path = join(dir, 'kv', 'default', snapshot);
    const bytes = readFileSync(path);
    bytes[bytes.length - 10] ^= 0x01;
    writeFileSync(path, bytes);

    for (let attempt = 0; attempt < 2; attempt++) {
      const failed = launchLarder({ dataDir: dir });
      const exit = await failed.exited;
      assert.equal(exit.code, 1);
      const stderr = failed.stderr();
      assert.match(stderr, new RegExp(`^larder: \\S*${snapshot} is damaged at byte \\d+ \\(checksum; a snapshot is written whole, so it is never torn\\); \\d+ bytes follow .*\\n$`));
      assert.doesNotMatch(stderr, /\n\s+at /, 'no stack trace');
      assert.deepEqual(readFileSync(path), bytes, 'the snapshot is left for the user');
    }
  });
});
