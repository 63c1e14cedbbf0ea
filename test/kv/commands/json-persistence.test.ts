// JSON documents survive a restart exactly: integers stay integers and floats floats, TTLs
// keep their instant, and NUMINCRBY/NUMMULTBY are logged as the document they produced
// (JSON.SET at the root). Snapshots and DUMP/RESTORE carry the same compact JSON text.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TestLarder } from '../../support/larder.js';
import { dumpOf, loggedCommands, restartableServers, restoreAt, snapshotRoundTrip } from '../../support/restarts.js';

/** 2100-01-01 in ms: no test outlives it. */
const LATER_MS = 4102444800000;
const KEYS = ['doc', 'arr', 'num', 'scalar', 'utf', 'ttl', 'big', 'odd', 'deep'];

async function writeShapes(t: TestLarder): Promise<void> {
  const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels);
  const wide: Record<string, number[]> = {};
  for (let i = 0; i < 100; i++) wide[`k${i}`] = [i, i + 0.5];
  for (const argv of [
    ['json.set', 'doc', '$', '{"a":1,"b":{"c":[true,false,null]},"f":2.5}'],
    ['json.set', 'doc', '$.d', '"added"'],
    ['json.numincrby', 'doc', '$..a', '2'],
    ['json.numincrby', 'doc', '$.f', '0.5'],
    ['json.nummultby', 'doc', '.a', '1.5'],
    ['json.toggle', 'doc', '$.b.c[0]'],
    ['json.del', 'doc', '$.b.c[2]'],
    ['json.set', 'arr', '$', '[1,2,3,4,5]'],
    ['json.arrpop', 'arr', '$', '1'],
    ['json.arrinsert', 'arr', '$', '0', '0'],
    ['json.arrtrim', 'arr', '$', '0', '2'],
    ['json.arrappend', 'arr', '$', '{"x":1.0}'],
    ['json.set', 'num', '$', '{"i":-9223372036854775808,"u":18446744073709551615,"f":1e300,"z":0.0,"t":0.1}'],
    ['json.nummultby', 'num', '$.t', '3'],
    ['json.set', 'scalar', '$', '42'],
    ['json.set', 'utf', '$', '{"héllo":"wörld ✓","esc":"\\u0000\\n\\"q\\""}'],
    ['json.strappend', 'utf', '$["héllo"]', '"!"'],
    ['json.merge', 'utf', '$', '{"esc":null,"m":{"n":1}}'],
    ['json.set', 'ttl', '$', '{"v":1}'],
    ['pexpireat', 'ttl', String(LATER_MS)],
    ['json.numincrby', 'ttl', '$.v', '1'],
    ['json.set', 'ttl', '$', '{"v":10}'],
    ['json.set', 'big', '$', JSON.stringify(wide)],
    ['json.set', 'odd', '$', '{"q\\"uo\\\\te":[0,{"ключ":7}]}'],
    ['json.numincrby', 'odd', '$..["ключ"]', '1'],
    // Deeper than a value a command may pass: logs, snapshots and DUMP must still read it back.
    ['json.set', 'deep', '$', nested(100)],
    ['json.arrappend', 'deep', '$' + '[0]'.repeat(99), nested(100)],
    ['json.arrappend', 'deep', '$' + '[0]'.repeat(199), '0'],
    ['json.numincrby', 'deep', '$' + '[0]'.repeat(200), '1'],
    ['json.set', 'gone', '$', '1'],
    ['json.del', 'gone'],
  ]) {
    const { status, body } = await t.command(argv);
    assert.equal(status, 200, `${argv.join(' ')}: ${JSON.stringify(body)}`);
  }
}

async function readShapes(t: TestLarder): Promise<unknown> {
  const out: Record<string, unknown> = {};
  for (const key of KEYS) {
    out[key] = {
      text: (await t.command(['json.get', key])).body.result,
      types: (await t.command(['json.type', key, '$..*'])).body.result,
      expiry: (await t.command(['pexpiretime', key])).body.result,
    };
  }
  out.gone = (await t.command(['exists', 'gone'])).body.result;
  return out;
}

describe('JSON documents across a restart', () => {
  const { start, stop } = restartableServers();

  it('replays the log to the same documents, with number arithmetic logged as its result', async () => {
    const first = await start();
    await writeShapes(first);
    const before = await readShapes(first);
    assert.deepEqual((before as Record<string, { text: string }>).doc.text, '{"a":4.5,"b":{"c":[false,false]},"f":3.0,"d":"added"}');
    assert.equal((before as Record<string, { text: string }>).num.text, '{"i":-9223372036854775808,"u":18446744073709551615,"f":1e300,"z":0.0,"t":0.30000000000000004}');
    await stop(first);
    const second = await start({}, first.dataDir);
    try {
      assert.deepEqual(await readShapes(second), before);
      assert.equal((await second.command(['pexpiretime', 'ttl'])).body.result, LATER_MS);
    } finally {
      await stop(second);
    }
    const logged = loggedCommands(first.dataDir);
    const names = logged.map((argv) => argv[0].toLowerCase());
    assert.ok(!names.includes('json.numincrby') && !names.includes('json.nummultby'), 'number arithmetic is logged as its result');
    const doc = logged.filter((argv) => argv[1] === 'doc').map((argv) => argv.join(' '));
    assert.deepEqual(doc.slice(2, 5), ['json.set doc $["a"] 3', 'json.set doc $["f"] 3.0', 'json.set doc $["a"] 4.5']);
    const odd = logged.filter((argv) => argv[1] === 'odd').map((argv) => Buffer.from(argv.join(' '), 'latin1').toString('utf8'));
    assert.deepEqual(odd.slice(1), ['json.set odd $["q\\"uo\\\\te"][1]["ключ"] 8']);
  });

  it('a snapshot holds the documents', async () => {
    await snapshotRoundTrip(writeShapes, readShapes, (argv) => argv[0].startsWith('json.'));
  });

  it('DUMP and RESTORE round-trip every document', async () => {
    const t = await start();
    try {
      await writeShapes(t);
      for (const key of KEYS) {
        assert.deepEqual(await restoreAt(t, `${key}:copy`, await dumpOf(t, key)), { result: 'OK' });
        assert.equal((await t.command(['json.get', `${key}:copy`])).body.result, (await t.command(['json.get', key])).body.result, key);
        assert.deepEqual((await t.command(['json.type', `${key}:copy`, '$..*'])).body.result, (await t.command(['json.type', key, '$..*'])).body.result);
      }
      assert.equal((await t.command(['type', 'doc:copy'])).body.result, 'ReJSON-RL');
      const damaged = await dumpOf(t, 'doc');
      damaged[3] ^= 0xff;
      assert.deepEqual(await restoreAt(t, 'bad', damaged), { error: 'ERR DUMP payload version or checksum are wrong' });
    } finally {
      await stop(t);
    }
  });
});
