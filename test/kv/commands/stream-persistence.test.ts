// Streams survive a restart, from the log and from a snapshot, and a DUMP/RESTORE round trip:
// entries, tombstones' node layout, last id, counters, groups, PELs with their delivery times
// and counts, and consumers. The log holds what was done, as Redis propagates it: XADD '*' as
// the id picked, '~' trims as the exact trim they amounted to, XREADGROUP as XCLAIM ... TIME.
// Trims with Redis 8.2's KEEPREF, DELREF and ACKED are logged with the option, so that the
// replay drops the same entries and pending references.

import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { embeddedOnly, startTestLarder, type TestLarder } from '../../support/larder.js';
import { dumpOf, loggedCommands, RESTART_WAYS, restartWith, restoreAt } from '../../support/restarts.js';

async function writeShapes(t: TestLarder): Promise<void> {
  const run = async (argv: string[]) => {
    const { status, body } = await t.command(argv);
    assert.equal(status, 200, `${argv.join(' ')}: ${JSON.stringify(body)}`);
  };
  for (let i = 1; i <= 230; i++) await run(['xadd', 'big', `${i}-0`, 'n', String(i)]);
  await run(['xdel', 'big', '150-0', '151-0']);
  await run(['xadd', 'big', 'MAXLEN', '~', '120', 'LIMIT', '1000', '231-0', 'n', '231']);
  await run(['xadd', 'auto', '*', 'f\x00\xff', 'v\x00']);
  await run(['xadd', 'auto', 'MINID', '~', '0', '*', 'g', 'w']);
  await run(['xgroup', 'CREATE', 'auto', 'g1', '0']);
  await run(['xgroup', 'CREATE', 'auto', 'g2', '$', 'ENTRIESREAD', '2']);
  await run(['xreadgroup', 'GROUP', 'g1', 'alice', 'COUNT', '1', 'STREAMS', 'auto', '>']);
  await run(['xreadgroup', 'GROUP', 'g1', 'bob', 'STREAMS', 'auto', '>']);
  await run(['xautoclaim', 'auto', 'g1', 'carol', '0', '0', 'COUNT', '1']);
  await run(['xgroup', 'CREATECONSUMER', 'auto', 'g2', 'dave']);
  await run(['xgroup', 'CREATE', 'empty', 'g', '$', 'MKSTREAM']);
  await run(['xsetid', 'empty', '7-7', 'ENTRIESADDED', '9', 'MAXDELETEDID', '3-3']);
  await run(['xadd', 'trimmed', '1-0', 'a', '1']);
  await run(['xadd', 'trimmed', '2-0', 'a', '2']);
  await run(['xtrim', 'trimmed', 'MAXLEN', '~', '0']);
  await run(['xtrim', 'trimmed', 'MINID', '2']);
}

/**
 * Trims that keep (KEEPREF), drop (DELREF) or pass over (ACKED) entries groups still need.
 * Before the first: 2-0 and 6-0 pending in g1, 5-0 in both, 7-0 in g2 (and not given to g1),
 * 8-0 given to neither; only 1-0, 3-0 and 4-0 are free to go.
 */
const REF_WRITES = [
  ...['1-0', '2-0', '3-0', '4-0', '5-0', '6-0', '7-0', '8-0'].map((id) => ['xadd', 'refs', id, 'n', id]),
  ['xgroup', 'CREATE', 'refs', 'g1', '0'],
  ['xgroup', 'CREATE', 'refs', 'g2', '0'],
  ['xreadgroup', 'GROUP', 'g1', 'alice', 'COUNT', '6', 'STREAMS', 'refs', '>'],
  ['xack', 'refs', 'g1', '1-0', '3-0', '4-0'],
  ['xreadgroup', 'GROUP', 'g2', 'bob', 'COUNT', '7', 'STREAMS', 'refs', '>'],
  ['xack', 'refs', 'g2', '1-0', '2-0', '3-0', '4-0', '6-0'],
  ['xtrim', 'refs', 'MINID', '~', '9', 'LIMIT', '2', 'ACKED'],
  ['xadd', 'refs', 'DELREF', 'MAXLEN', '~', '5', '9-0', 'n', '9-0'],
  ['xtrim', 'refs', 'MAXLEN', '3', 'KEEPREF'],
];

/** XINFO STREAM FULL, with consumers' seen-times left out (a replay sees consumers anew). */
async function readShapes(t: TestLarder, keys = ['big', 'auto', 'empty', 'trimmed', 'big:copy', 'auto:copy']): Promise<unknown> {
  const out: Record<string, unknown> = {};
  for (const key of keys) {
    const full = (await t.command(['xinfo', 'stream', key, 'FULL', 'COUNT', '0'], { headers: { 'upstash-encoding': 'base64' } })).body;
    const groups = (full.result?.[17] ?? []) as unknown[][];
    for (const g of groups) for (const c of g[13] as unknown[][]) c[3] = 'seen';
    out[key] = full;
  }
  return out;
}

describe('streams across a restart', () => {
  const dirs: string[] = [];
  const open: TestLarder[] = [];
  after(async () => {
    await Promise.all(open.map((t) => t.close(true)));
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });
  const start = async (config: Record<string, unknown> = {}, dataDir?: string) => {
    const t = await startTestLarder(config, dataDir);
    if (dataDir === undefined) dirs.push(t.dataDir);
    open.push(t);
    return t;
  };
  const stop = async (t: TestLarder) => {
    open.splice(open.indexOf(t), 1);
    await t.close(true);
  };

  for (const [label, config] of [
    ['the log', {}],
    ['a snapshot', { kv: { compactAfterBytes: 1 } }],
  ] as const) {
    it(`comes back the same from ${label}`, async () => {
      const first = await start(config);
      await writeShapes(first);
      const before = await readShapes(first);
      await stop(first);
      const second = await start(config, first.dataDir);
      assert.deepEqual(await readShapes(second), before);
      await stop(second);
    });
  }

  it('logs the id picked for *, exact trims for ~ and XREADGROUP as XCLAIM with an absolute time', async () => {
    const t = await start();
    await writeShapes(t);
    const logged = loggedCommands(t.dataDir);
    await stop(t);
    const xadds = logged.filter((a) => a[0].toLowerCase() === 'xadd' && a[1] !== 'big');
    assert.ok(xadds.every((a) => !a.includes('*')), JSON.stringify(xadds));
    assert.deepEqual(logged.find((a) => a.includes('231-0')), ['xadd', 'big', 'MAXLEN', '=', '120', '231-0', 'n', '231']);
    // The whole node goes: both entries; the MINID trim after it changes nothing and is not logged.
    assert.deepEqual(logged.filter((a) => a[0] === 'xtrim'), [['xtrim', 'trimmed', 'MAXLEN', '=', '0']]);
    const claims = logged.filter((a) => a[0] === 'XCLAIM');
    assert.ok(claims.length >= 3);
    for (const c of claims) assert.match(c[c.indexOf('TIME') + 1], /^\d{13}$/);
    assert.equal(logged.filter((a) => a[0].toLowerCase() === 'xreadgroup').length, 0);
  });

  const refs = embeddedOnly('Redis 7.0 lacks XADD and XTRIM KEEPREF, DELREF and ACKED (Redis 8.2)');
  for (const way of RESTART_WAYS) {
    refs(`trims with KEEPREF, DELREF and ACKED come back the same, ${way.how}`, async () => {
      const state = async (t: TestLarder) => ({
        shape: await readShapes(t, ['refs']),
        ids: await t.ok(['xrange', 'refs', '-', '+']),
        pending: [await t.ok(['xpending', 'refs', 'g1']), await t.ok(['xpending', 'refs', 'g2'])],
      });
      const { server, before } = await restartWith(way, REF_WRITES, state);
      await server.close();
      assert.deepEqual((before.ids as string[][]).map((e) => e[0]), ['7-0', '8-0', '9-0']);
      // DELREF took 2-0 out of g1; KEEPREF left 5-0, 6-0 and 7-0 pending.
      assert.deepEqual(before.pending, [[2, '5-0', '6-0', [['alice', '2']]], [2, '5-0', '7-0', [['bob', '2']]]]);
    });
  }

  refs('logs a trim with its reference option, as the exact trim it amounted to', async () => {
    const t = await start();
    for (const argv of REF_WRITES) assert.equal((await t.command(argv)).status, 200, argv.join(' '));
    const logged = loggedCommands(t.dataDir);
    await stop(t);
    // ACKED passed over 2-0 and LIMIT stopped it before 4-0: its exact form keeps what is below 4-0.
    assert.deepEqual(logged.filter((a) => a[0] === 'xtrim' || a.includes('9-0')), [
      ['xtrim', 'refs', 'MINID', '=', '4-0', 'ACKED'],
      ['xadd', 'refs', 'DELREF', 'MAXLEN', '=', '5', '9-0', 'n', '9-0'],
      ['xtrim', 'refs', 'MAXLEN', '3', 'KEEPREF'],
    ]);
  });

  it('DUMP and RESTORE keep entries, groups and pending entries', async () => {
    const t = await start();
    await writeShapes(t);
    for (const key of ['big', 'auto']) {
      assert.deepEqual(await restoreAt(t, `${key}:copy`, await dumpOf(t, key)), { result: 'OK' });
    }
    const shapes = (await readShapes(t)) as Record<string, unknown>;
    assert.deepEqual(shapes['big:copy'], shapes.big);
    assert.deepEqual(shapes['auto:copy'], shapes.auto);
    assert.deepEqual((await t.command(['xpending', 'auto:copy', 'g1'])).body.result.slice(0, 1), [2]);
    await t.command(['copy', 'auto', 'auto:2']);
    await t.command(['xack', 'auto', 'g1', '0-0']);
    assert.deepEqual((await t.command(['xinfo', 'groups', 'auto:2'])).body.result, (await t.command(['xinfo', 'groups', 'auto:copy'])).body.result);
  });
});
