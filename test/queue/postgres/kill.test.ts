// Two Larder processes on one PostgreSQL queue, one killed with SIGKILL under a publish and
// delivery load, at a moment it has attempts in flight at the destination: no acknowledged
// publish is lost, every message is delivered (the killed process's leases run out and the
// other takes them), and the only messages delivered twice are those whose first attempt the
// killed process had in flight (its connection, and only its, dropped before the answer).

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { processState, tcpPortsOf, type Attempt } from '../../support/delivery-ledger.js';
import { postgresRunSkip } from '../../support/queue-backend.js';
import { suiteFleet } from '../../support/queue-fleet.js';

const IN_FLIGHT = 16;
const HOLD_MS = 50;
const BATCH = 10;
const PUBLISHES = 60; // each a batch of BATCH, alternating between the two processes
const KILL_AFTER = 150; // answered deliveries before the kill
// A lease lasts the attempt's timeout plus 5 s (queue/delivery/leases.ts): the survivor takes the
// killed process's messages over 7 s after their attempts began.
const DELIVERY_TIMEOUT_MS = 2000;

async function until(check: () => boolean, ms: number, what: () => string): Promise<void> {
  for (const end = Date.now() + ms; !check(); ) {
    if (Date.now() > end) assert.fail(`never happened within ${ms} ms: ${what()}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('queue on PostgreSQL: kill -9 of one of two processes', { skip: postgresRunSkip }, () => {
  const { fleet, ledger } = suiteFleet(2, HOLD_MS, { queue: { retryDelayScale: 0.001, maxConcurrentDeliveries: IN_FLIGHT, deliveryTimeoutMs: DELIVERY_TIMEOUT_MS } });

  it('loses no acknowledged publish, delivers every message, and repeats only what the killed process had in flight', async (t) => {
    const acknowledged = new Set<string>();
    let refused = 0;
    const killed = fleet.members[0];
    const publishTo = async (i: number, n: number) => {
      const q = fleet.queue(i);
      const batch = Array.from({ length: BATCH }, (_, k) => ({ destination: `${ledger.url}/load`, body: `p${n}-${k}` }));
      try {
        const res = await fetch(`${q.url}/v2/batch`, { method: 'POST', headers: { authorization: `Bearer ${q.token}`, 'content-type': 'application/json' }, body: JSON.stringify(batch) });
        if (res.status !== 200) throw new Error(`${res.status} ${await res.text()}`);
        for (const { messageId } of (await res.json()) as { messageId: string }[]) acknowledged.add(messageId);
      } catch {
        refused++; // the killed process: never acknowledged, so never owed
      }
    };
    const answered = () => ledger.at('/load').filter((a) => a.answered).length;
    const publishing = (async () => {
      for (let n = 0; n < PUBLISHES; n++) await Promise.all([publishTo(0, n), publishTo(1, n)]);
    })();
    // Killed once the load runs and while an attempt of its own is open at the destination: the
    // connections it holds name its attempts. The destination holds its answers from that look
    // until the kill, so the attempt seen open is still open when the process dies.
    let killedPorts = new Set<number>();
    const busy = () => {
      if (answered() < KILL_AFTER) return false;
      ledger.holdAnswers();
      killedPorts = tcpPortsOf(killed.child.pid!);
      if (ledger.open().some((a) => killedPorts.has(a.fromPort))) return true;
      ledger.release();
      return false;
    };
    await until(busy, 30_000, () => `an attempt of the first process in flight after ${KILL_AFTER} deliveries (${answered()} so far)`);
    // Stopped before its ports are read again, so it opens none between that read and the kill
    // (an attempt it began after the first read was cut by the kill with a port not in the set).
    killed.child.kill('SIGSTOP');
    await until(() => processState(killed.child.pid!) === 'T', 5_000, () => 'the first process never stopped');
    killedPorts = tcpPortsOf(killed.child.pid!);
    killed.kill('SIGKILL');
    const killedAt = Date.now();
    // Its connections drop with it; only then may the held answers go (the survivor's).
    await until(() => !ledger.open().some((a) => killedPorts.has(a.fromPort)), 10_000, () => "the killed process's attempts never dropped");
    ledger.release();
    await publishing;
    assert.equal((await killed.exited).signal, 'SIGKILL');
    assert.ok(acknowledged.size < 2 * PUBLISHES * BATCH, 'every publish to the killed process was answered: it died after the load');

    // Owed: every acknowledged message, and every message an attempt was cut of (stored, though
    // its publish may have been answered to nobody).
    const delivered = () => new Set(ledger.at('/load').filter((a) => a.answered).map((a) => a.messageId));
    const cut = () => ledger.at('/load').filter((a) => a.aborted).map((a) => a.messageId);
    const missing = () => [...new Set([...acknowledged, ...cut()])].filter((id) => !delivered().has(id));
    await until(() => missing().length === 0, 60_000, () => `${missing().length} owed messages not delivered (e.g. ${missing()[0]}; ${acknowledged.size} acknowledged)`);

    const attempts = ledger.at('/load');
    for (const a of attempts) assert.ok(a.verified || a.aborted, `delivery of ${a.body} did not verify`);
    const byMessage = new Map<string, Attempt[]>();
    for (const a of attempts) byMessage.set(a.messageId, [...(byMessage.get(a.messageId) ?? []), a]);
    let repeats = 0;
    for (const [id, tries] of byMessage) {
      assert.ok(tries.at(-1)!.answered, `${id}: its last attempt was not answered`);
      // Every earlier attempt was the killed process's: cut by the kill, or answered before it
      // and not yet recorded as delivered when it died. The slack covers this process reading
      // the attempt late.
      for (const a of tries.slice(0, -1)) {
        assert.ok(a.aborted || a.arrivedAt <= killedAt + 1000, `${id}: delivered again after an attempt the surviving process made`);
        repeats++;
      }
    }
    for (const a of attempts.filter((x) => x.aborted)) assert.ok(killedPorts.has(a.fromPort), `${a.messageId}: an attempt of the surviving process was cut`);
    assert.ok(repeats > 0, 'no attempt was in flight at the kill');
    assert.ok(repeats <= IN_FLIGHT, `${repeats} repeats, more than the ${IN_FLIGHT} attempts the killed process can have in flight`);
    t.diagnostic(`${acknowledged.size} acknowledged, ${refused} batches refused by the killed process, ${repeats} delivered again after the kill`);
  });
});
