// When a destination's answer sets the next attempt: Retry-After as seconds, an HTTP date or a
// duration (`6m5s`, as QStash documents), and the X-RateLimit-Reset* headers.

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { requestedDelayMs } from '../../src/queue/delivery/backoff.js';

const NOW = Date.UTC(2026, 0, 1);
const delay = (headers: Record<string, string>) => requestedDelayMs(headers, NOW, 1);

describe('queue back-off: the delay a destination asks for', () => {
  it('reads Retry-After as seconds, an HTTP date or a duration', () => {
    assert.equal(delay({ 'retry-after': '120' }), 120_000);
    assert.equal(delay({ 'retry-after': new Date(NOW + 30_000).toUTCString() }), 30_000);
    assert.equal(delay({ 'retry-after': '6m5s' }), 365_000);
    assert.equal(delay({ 'retry-after': '1h2m3s' }), 3_723_000);
    assert.equal(delay({ 'retry-after': '1.5s' }), 1500);
    assert.equal(delay({ 'retry-after': '250ms' }), 250);
    assert.equal(delay({ 'retry-after': ' 2m ' }), 120_000);
    assert.equal(delay({ 'retry-after': '48h' }), 86_400_000, 'capped at a day');
  });

  it('ignores what is neither', () => {
    assert.equal(delay({ 'retry-after': 'soon' }), undefined);
    assert.equal(delay({ 'retry-after': '5x' }), undefined);
    assert.equal(delay({ 'retry-after': 'm5s' }), undefined);
    assert.equal(delay({}), undefined);
  });

  it('reads X-RateLimit-Reset* as seconds, a unix time or a duration; Retry-After wins', () => {
    assert.equal(delay({ 'x-ratelimit-reset': '7' }), 7000);
    assert.equal(delay({ 'x-ratelimit-reset': String(NOW / 1000 + 9) }), 9000);
    assert.equal(delay({ 'x-ratelimit-reset-requests': '6m0s' }), 360_000);
    assert.equal(delay({ 'retry-after': '3s', 'x-ratelimit-reset': '7' }), 3000);
  });

  it('scales by queue.retryDelayScale', () => {
    assert.equal(requestedDelayMs({ 'retry-after': '6m5s' }, NOW, 0.001), 365);
  });
});
