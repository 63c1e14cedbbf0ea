// @upstash/realtime against a Larder over HTTP, as an app uses it: events emitted on a channel
// (XADD to its stream, then PUBLISH) reach a server-side subscriber in order with their stream
// ids as cursors, history replays them (XRANGE), a subscriber resumes after a cursor, and the
// route handler (`handle`, what a Next.js route exports) streams them to a browser as SSE.

import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { handle, Realtime } from '@upstash/realtime';
import type { Redis } from '@upstash/redis';
import * as z from 'zod';
import { eventually } from '../../support/eventually.js';
import type { TestLarder } from '../../support/larder.js';
import { startSdk } from '../../support/sdk.js';

const schema = { chat: { message: z.object({ user: z.string(), text: z.string() }) } };
type RealtimeRedis = NonNullable<ConstructorParameters<typeof Realtime>[0]>['redis'];

interface Delivered {
  event: string;
  data: unknown;
  cursor: string;
}

describe('@upstash/realtime against Larder', () => {
  let t: TestLarder;
  let redis: Redis;
  let realtime: InstanceType<typeof Realtime>;
  before(async () => {
    ({ t, redis } = await startSdk({ autoPipeline: false }));
    realtime = new Realtime({ schema, redis: redis as unknown as RealtimeRedis, history: { maxLength: 100 } });
  });
  after(() => t.close());

  it('delivers emitted events in order to a subscriber, replays history and resumes after a cursor', async () => {
    const room = realtime.channel('room:1');
    await room.emit('chat.message', { user: 'ann', text: 'before' });
    const seen: Delivered[] = [];
    const unsubscribe = await room.subscribe({ events: ['chat.message'], history: true, onData: (m: Delivered) => void seen.push(m) });
    try {
      await room.emit('chat.message', { user: 'bob', text: 'héllo ✓' });
      await room.emit('chat.message', { user: 'ann', text: 'third' });
      await eventually(async () => seen.length === 3, 'three events');
      assert.deepEqual(seen.map((m) => (m.data as { text: string }).text), ['before', 'héllo ✓', 'third']);
      assert.ok(seen.every((m) => /^\d+-\d+$/.test(m.cursor)), 'each cursor is a stream id');
      await assert.rejects(room.emit('chat.message', { user: 'ann' } as never), /text/, 'the schema checks what is emitted');
    } finally {
      unsubscribe();
    }
    const history = await room.history();
    assert.deepEqual(history.map((m: { data: unknown }) => (m.data as { text: string }).text), ['before', 'héllo ✓', 'third']);
    assert.equal(await redis.xlen('room:1'), 3);

    const resumed: Delivered[] = [];
    const stop = await room.subscribe({ events: ['chat.message'], after: seen[1].cursor as never, onData: (m: Delivered) => void resumed.push(m) });
    try {
      await eventually(async () => resumed.length === 1, 'the event after the cursor');
      assert.equal((resumed[0].data as { text: string }).text, 'third');
    } finally {
      stop();
    }
  });

  it("streams a channel's events as server-sent events through the route handler", async () => {
    const GET = handle({ realtime });
    const aborted = new AbortController();
    const res = (await GET(new Request('http://app.local/api/realtime?channel=room:2', { signal: aborted.signal }))) as Response;
    assert.equal(res.status, 200);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const readUntil = async (wanted: RegExp) => {
      while (!wanted.test(text)) {
        const next = await reader.read();
        assert.ok(!next.done, `the stream ended before ${wanted}: ${text}`);
        text += next.value;
      }
    };
    try {
      await readUntil(/"type":"connected"/);
      await realtime.channel('room:2').emit('chat.message', { user: 'cy', text: 'over SSE' });
      await readUntil(/over SSE/);
      const event = text.split('\n').find((line) => line.includes('over SSE'))!;
      const payload = JSON.parse(event.replace(/^data: /, '')) as { event: string; channel: string; id: string };
      assert.equal(payload.event, 'chat.message');
      assert.equal(payload.channel, 'room:2');
      assert.match(payload.id, /^\d+-\d+$/);
    } finally {
      aborted.abort();
      await reader.cancel().catch(() => undefined);
    }
  });
});
