// Persistence of one embedded database, in process, with a clock the test moves: restore,
// compaction into generations (in the background while commands go on, or all at once),
// expiry kept as absolute time, and the crash points between compaction's steps (simulated by
// putting back the files a crash would have left).

import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { pino } from 'pino';
import { AclRegistry } from '../../../src/kv/acl/registry.js';
import { COMMANDS } from '../../../src/kv/commands/table.js';
import { encodeCommands } from '../../../src/kv/engine/command-codec.js';
import { Database, SYSTEM_CALLER } from '../../../src/kv/database.js';
import { Persistence } from '../../../src/kv/engine/persistence.js';
import type { FsyncPolicy } from '../../../src/storage/append-log.js';
import { CorruptDataError } from '../../../src/storage/errors.js';
import { frame } from '../../../src/storage/frames.js';

const root = mkdtempSync(join(tmpdir(), 'larder-persistence-'));
after(() => rmSync(root, { recursive: true, force: true }));
let dirs = 0;
const newDir = () => join(root, `db-${dirs++}`);

const logger = pino({ level: 'silent' });
const LOG0 = 'log-00000000000000000000.aof';
const SNAPSHOT1 = 'snapshot-00000000000000000001.bin';
const LOG1 = 'log-00000000000000000001.aof';

class Opened {
  readonly db: Database;
  readonly persistence: Persistence;
  constructor(dir: string, clock: () => number = Date.now, compactAfterBytes = 1 << 30, fsync: FsyncPolicy = 'always') {
    this.db = new Database('default', new AclRegistry('standard-token', 'read-only-token', COMMANDS), 'node', clock);
    this.persistence = new Persistence(this.db, { dir, fsync, compactAfterBytes }, logger);
    this.persistence.open();
  }
  run(...argv: string[]) {
    return this.db.execute(argv, SYSTEM_CALLER);
  }
  get(key: string) {
    return this.db.ks.get(key);
  }
  close() {
    this.persistence.close();
  }
}

function setMany(o: Opened, prefix: string, n: number): void {
  for (let i = 0; i < n; i++) o.run('set', `${prefix}${i}`, `${prefix}-value-${i}`);
}

const LATER_MS = Date.parse('2099-01-01T00:00:00Z');

/** `n` strings, and a list, a hash and a sorted set for every tenth of them. */
function fillTypes(o: Opened, n: number): void {
  for (let i = 0; i < n; i++) {
    o.run('set', `s${i}`, `value-${i}`);
    if (i % 10 !== 0) continue;
    o.run('rpush', `l${i}`, 'a', 'b');
    o.run('hset', `h${i}`, 'f', '1', 'g', 'text');
    o.run('zadd', `z${i}`, '1', 'm', '2', 'n');
  }
}

/** Every key with its DUMP and expiry time. */
function state(o: Opened): Map<string, unknown> {
  const keys = (o.run('keys', '*') as string[]).sort();
  return new Map(keys.map((k) => [k, [o.run('dump', k), o.run('pexpiretime', k)]]));
}

/** A xorshift generator: the same `seed`, the same numbers in [0, 1). */
function seeded(seed: number): () => number {
  let x = seed;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

/** As setMany, letting the event loop turn (and a background compaction go on) between writes. */
async function setManySlowly(o: Opened, prefix: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    o.run('set', `${prefix}${i}`, `${prefix}-value-${i}`);
    await nextTurn();
  }
}

/** Waits until no snapshot is being written in `dir`: its temp file is gone and one log is left. */
async function compacted(dir: string): Promise<string[]> {
  for (;;) {
    const files = readdirSync(dir).sort();
    if (!files.some((f) => f.endsWith('.tmp')) && files.filter((f) => f.startsWith('log-')).length === 1) return files;
    await nextTurn();
  }
}

function assertMany(o: Opened, prefix: string, n: number): void {
  for (let i = 0; i < n; i++) assert.equal(o.get(`${prefix}${i}`), `${prefix}-value-${i}`, `${prefix}${i}`);
}

describe('kv persistence', () => {
  it('restores what the log holds, deletions and binary keys included', () => {
    const dir = newDir();
    const first = new Opened(dir);
    setMany(first, 'k', 50);
    first.run('del', 'k3', 'k4');
    first.run('set', 'k5', 'overwritten');
    first.run('set', '\x00\xff key', '\x00\x80\xff');
    first.close();
    const second = new Opened(dir);
    assert.equal(second.db.ks.size, 49);
    assert.equal(second.get('k3'), undefined);
    assert.equal(second.get('k5'), 'overwritten');
    assert.equal(second.get('\x00\xff key'), '\x00\x80\xff');
    second.close();
  });

  it('compacts into new generations and deletes the old ones', async () => {
    const dir = newDir();
    const first = new Opened(dir, Date.now, 2048);
    await setManySlowly(first, 'k', 400);
    for (let i = 0; i < 400; i += 2) first.run('set', `k${i}`, `k-value-${i}`); // overwrites, same values
    first.run('del', 'k399');
    const files = await compacted(dir);
    assert.equal(files.length, 2, files.join(' '));
    assert.match(files[0], /^log-\d{20}\.aof$/);
    assert.match(files[1], /^snapshot-\d{20}\.bin$/);
    assert.equal(files[0].slice(4, 24), files[1].slice(9, 29), 'log and snapshot of one generation');
    assert.ok(Number(files[1].slice(9, 29)) > 1, 'more than one compaction');
    first.close();
    const second = new Opened(dir, Date.now, 2048);
    assertMany(second, 'k', 399);
    assert.equal(second.get('k399'), undefined);
    assert.equal(second.db.ks.size, 399);
    second.close();
  });

  it('answers writes while compaction fails, and compacts once it can', async () => {
    const dir = newDir();
    const first = new Opened(dir, Date.now, 1024);
    // A directory where the snapshot's temp file goes makes writing the snapshot fail.
    const blocker = join(dir, `${SNAPSHOT1}.tmp`);
    mkdirSync(blocker);
    setMany(first, 'a', 100);
    assert.deepEqual(readdirSync(dir).sort(), [LOG0, `${SNAPSHOT1}.tmp`]);
    rmSync(blocker, { recursive: true });
    setMany(first, 'b', 100);
    const files = await compacted(dir);
    assert.ok(files.includes(SNAPSHOT1), files.join(' '));
    first.close();
    const second = new Opened(dir);
    assertMany(second, 'a', 100);
    assertMany(second, 'b', 100);
    second.close();
  });

  it('writes a snapshot in the background that holds the keyspace as it was when compaction began', async () => {
    const KEYS = 10_000;
    const dir = newDir();
    const first = new Opened(dir, Date.now, 1 << 30, 'everysec'); // an fsync per write would make the test slow, not truer
    fillTypes(first, KEYS);
    // Room left by deleted keys, which keys set during the walk take again.
    for (let i = 0; i < KEYS; i += 7) first.run('del', `s${i}`);
    const before = state(first);
    first.persistence.compact(true);
    const random = seeded(20);
    let rounds = 0;
    // Commands that are not idempotent, on keys the walk has passed and keys it has still to reach:
    // a snapshot holding any of their effects would have them applied twice by the log after it.
    // The compaction is over once the log before it is deleted (after the snapshot is in place).
    while (readdirSync(dir).includes(LOG0)) {
      for (let n = 0; n < 10; n++) {
        const i = Math.floor(random() * KEYS);
        first.run('append', `s${i}`, '+');
        first.run('del', `s${(i + 1) % KEYS}`);
        first.run('pexpireat', `s${(i + 2) % KEYS}`, String(LATER_MS));
        first.run('rename', `s${(i + 3) % KEYS}`, `moved${i}`);
        first.run('lpush', `l${i - (i % 10)}`, 'x');
        first.run('hincrby', `h${i - (i % 10)}`, 'f', '1');
        first.run('zincrby', `z${i - (i % 10)}`, '1', 'm');
        first.run('set', `new${i}`, 'v');
      }
      if (++rounds === 3) first.run('flushdb');
      await nextTurn();
    }
    assert.ok(rounds > 1, 'commands ran between slices of the snapshot');
    const last = state(first);
    first.close();
    // The snapshot alone: what the keyspace held when compaction began.
    const alone = newDir();
    mkdirSync(alone);
    copyFileSync(join(dir, SNAPSHOT1), join(alone, SNAPSHOT1));
    const fromSnapshot = new Opened(alone, Date.now, 1 << 30, 'everysec');
    assert.deepEqual(state(fromSnapshot), before);
    fromSnapshot.close();
    // With the log after it: what it held at the end.
    const second = new Opened(dir, Date.now, 1 << 30, 'everysec');
    assert.deepEqual(state(second), last);
    second.close();
  });

  it('compacts again at once when closed while a compaction runs', () => {
    const dir = newDir();
    const first = new Opened(dir, Date.now, 1 << 30, 'everysec');
    fillTypes(first, 5_000);
    first.persistence.compact(true);
    first.run('incr', 'counter');
    const before = state(first);
    first.close(); // before the first slice ran: that snapshot is dropped, and one of everything written instead
    assert.deepEqual(readdirSync(dir).sort(), ['log-00000000000000000002.aof', 'snapshot-00000000000000000002.bin']);
    const second = new Opened(dir);
    assert.deepEqual(state(second), before);
    second.run('incr', 'counter');
    second.close();
    const third = new Opened(dir);
    assert.equal(third.get('counter'), '2');
    assert.equal(third.db.ks.size, before.size);
    third.close();
  });

  it('keeps expiry as absolute time through a snapshot', () => {
    const dir = newDir();
    let now = 1_700_000_000_000;
    const clock = () => now;
    const first = new Opened(dir, clock);
    setMany(first, 'k', 3);
    // No command of this branch sets a TTL; the snapshot path under test stores what the keyspace holds.
    first.db.ks.setExpiry(first.db.ks.lookup('k0')!, now + 10_000);
    first.db.ks.setExpiry(first.db.ks.lookup('k1')!, now + 60_000);
    first.persistence.compact();
    first.close();

    now += 5_000;
    const second = new Opened(dir, clock);
    assert.equal(second.db.ks.expiryAt(second.db.ks.lookup('k0')!), 1_700_000_010_000);
    assert.equal(second.db.ks.expiryAt(second.db.ks.lookup('k1')!), 1_700_000_060_000);
    assert.equal(second.db.ks.expiryAt(second.db.ks.lookup('k2')!), 0);
    second.close();

    now += 10_000; // k0 is past its time; restoring drops it and logs the deletion
    const third = new Opened(dir, clock);
    assert.equal(third.get('k0'), undefined);
    assert.equal(third.get('k1'), 'k-value-1');
    third.close();
    now -= 14_000; // even with the clock back, k0 stays deleted: its DEL is in the log
    const fourth = new Opened(dir, clock);
    assert.equal(fourth.get('k0'), undefined);
    assert.equal(fourth.db.ks.expiryAt(fourth.db.ks.lookup('k1')!), 1_700_000_060_000);
    fourth.close();
  });

  it('survives a crash between the snapshot rename and the deletion of the old generation', () => {
    const dir = newDir();
    const aside = join(root, `aside-${dirs}`);
    const first = new Opened(dir);
    setMany(first, 'a', 20);
    copyFileSync(join(dir, LOG0), aside);
    first.persistence.compact();
    setMany(first, 'b', 20);
    first.close();
    // What the crash left: the old log, and a temp file of a later compaction.
    copyFileSync(aside, join(dir, LOG0));
    writeFileSync(join(dir, 'snapshot-00000000000000000002.bin.tmp'), 'half a snapshot');
    const second = new Opened(dir);
    assertMany(second, 'a', 20);
    assertMany(second, 'b', 20);
    assert.deepEqual(readdirSync(dir).sort(), [LOG1, SNAPSHOT1]);
    second.close();
  });

  it('survives a crash after the snapshot rename, before the new log exists', () => {
    const dir = newDir();
    const aside = join(root, `aside-${dirs}`);
    const first = new Opened(dir);
    setMany(first, 'a', 20);
    copyFileSync(join(dir, LOG0), aside);
    first.persistence.compact();
    first.close();
    rmSync(join(dir, LOG1));
    copyFileSync(aside, join(dir, LOG0));
    const second = new Opened(dir);
    assertMany(second, 'a', 20);
    second.run('set', 'after', 'crash');
    second.close();
    assert.deepEqual(readdirSync(dir).sort(), [LOG1, SNAPSHOT1]);
    const third = new Opened(dir);
    assert.equal(third.get('after'), 'crash');
    third.close();
  });

  it('refuses a log that no snapshot or log before it leads to, naming it', () => {
    const dir = newDir();
    new Opened(dir).close();
    rmSync(join(dir, LOG0));
    writeFileSync(join(dir, LOG1), frame(encodeCommands([['set', 'k', 'v']])));
    assert.throws(() => new Opened(dir), (e: Error) => e instanceof CorruptDataError && e.message.includes(LOG1));
    assert.ok(existsSync(join(dir, LOG1)), 'the orphan log is left for the user');
  });

  it('refuses a damaged snapshot, naming it, and leaves it in place', () => {
    const dir = newDir();
    const first = new Opened(dir);
    setMany(first, 'k', 5);
    first.persistence.compact();
    first.close();
    const path = join(dir, SNAPSHOT1);
    const bytes = readFileSync(path);
    bytes[bytes.length - 3] ^= 0xff;
    writeFileSync(path, bytes);
    for (let attempt = 0; attempt < 2; attempt++) {
      assert.throws(
        () => new Opened(dir),
        (e: Error) => e instanceof CorruptDataError && e.message.includes(SNAPSHOT1) && /is damaged at byte/.test(e.message),
      );
    }
  });

  it('refuses a frame whose checksum matches but whose commands do not decode', () => {
    const dir = newDir();
    new Opened(dir).close();
    writeFileSync(join(dir, LOG0), frame(Buffer.from('not commands')));
    assert.throws(() => new Opened(dir), (e: Error) => e instanceof CorruptDataError && e.message.includes('frame 0'));
  });
});
