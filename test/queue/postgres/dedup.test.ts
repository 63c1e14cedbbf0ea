// Three Larder processes on one PostgreSQL queue: a deduplication id, or a body with
// content-based deduplication, published to all three at the same moment makes one message,
// every process answering its id, and it is delivered once.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { eventually } from '../../support/eventually.js';
import { postgresRunSkip } from '../../support/queue-backend.js';
import { suiteFleet } from '../../support/queue-fleet.js';

const ROUNDS = 10;

describe('queue on PostgreSQL: deduplication across three processes', { skip: postgresRunSkip }, () => {
  const { ledger, clients } = suiteFleet(3, 5);

  for (const [how, options] of [
    ['a deduplication id', (r: number) => ({ deduplicationId: `fleet-${r}`, body: `r${r}-` })],
    ['content', (r: number) => ({ contentBasedDeduplication: true, body: `same ${r}` })],
  ] as const) {
    it(`makes one message of ${ROUNDS} times three publishes at once with the same ${how}`, async () => {
      const path = `/by-${how.replaceAll(' ', '-')}`;
      for (let r = 0; r < ROUNDS; r++) {
        const { body, ...dedup } = options(r);
        // The bodies differ with a deduplication id: the first one stored wins.
        const answers = await Promise.all(clients.map((c, i) => c.publish({ url: `${ledger.url}${path}`, ...dedup, body: 'deduplicationId' in dedup ? `${body}${i}` : body })));
        assert.equal(new Set(answers.map((a) => a.messageId)).size, 1, `round ${r}: ${JSON.stringify(answers)}`);
        assert.equal(answers.filter((a) => a.deduplicated !== true).length, 1, `round ${r}: ${JSON.stringify(answers)}`);
      }
      await eventually(async () => ledger.at(path).filter((a) => a.answered).length >= ROUNDS, `${ROUNDS} deliveries`, 3000);
      // Anything delivered twice would have arrived by now: each message's one attempt has.
      await new Promise((r) => setTimeout(r, 500));
      assert.equal(ledger.at(path).length, ROUNDS);
      assert.equal(new Set(ledger.at(path).map((a) => a.messageId)).size, ROUNDS);
    });
  }
});
