import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isLoopback } from '../../src/server/loopback.js';

describe('isLoopback', () => {
  it('knows the addresses that serve only this machine', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '::ffff:127.0.0.1']) assert.equal(isLoopback(host), true, host);
    for (const host of ['0.0.0.0', '::', '10.0.0.1', '192.168.1.5', 'example.com', '128.0.0.1']) assert.equal(isLoopback(host), false, host);
  });
});
