// Both sides' keyspace notifications, for the notification runs of the differential tests:
// redis-server's through a connection in PSUBSCRIBE, Larder's through its /psubscribe event
// stream (read as bytes), each read up to a marker both sides publish after a step.

import { parseResp, RespClient } from './resp-client.js';
import { larderCall } from './larder-resp2.js';
import type { TestLarder } from '../../support/larder.js';

const PATTERN = '__key*__:*';
const MARKER = '__keymarker__:';

export class KeyspaceTap {
  private marks = 0;
  private buffered = '';

  private constructor(
    private readonly commands: RespClient,
    private readonly subscriber: RespClient,
    private readonly larder: TestLarder,
    private readonly stream: ReadableStreamDefaultReader<Uint8Array>,
    private readonly abort: AbortController,
  ) {}

  /** Subscribes on both sides; `commands` is redis-server's connection the steps run on. */
  static async open(commands: RespClient, redisPort: number, larder: TestLarder): Promise<KeyspaceTap> {
    const subscriber = await RespClient.open(redisPort);
    await subscriber.call(['PSUBSCRIBE', PATTERN]);
    const abort = new AbortController();
    const res = await larder.request(`/psubscribe/${encodeURIComponent(PATTERN)}`, { signal: abort.signal });
    const tap = new KeyspaceTap(commands, subscriber, larder, res.body!.getReader(), abort);
    await tap.larderEvent(); // the subscription's confirmation
    return tap;
  }

  /** What each side published since the last call, as "<channel> <message>" lines. */
  async drain(): Promise<{ redis: string[]; larder: string[] }> {
    const marker = MARKER + this.marks++;
    await this.commands.call(['PUBLISH', marker, 'x']);
    await larderCall(this.larder, ['PUBLISH', marker, 'x']);
    const redis: string[] = [];
    for (;;) {
      const [, , channel, message] = parseResp(await this.subscriber.next()) as string[];
      if (channel === marker) break;
      redis.push(`${channel} ${message}`);
    }
    const larder: string[] = [];
    for (;;) {
      const [kind, , channel, message] = (await this.larderEvent()).split(',');
      if (kind !== 'pmessage') throw new Error(`unexpected event ${kind}`);
      if (channel === marker) break;
      larder.push(`${channel} ${message}`);
    }
    return { redis, larder };
  }

  close(): void {
    this.subscriber.close();
    this.abort.abort();
  }

  /** The next event's data, as bytes (a latin1 string): keys need not be UTF-8. */
  private async larderEvent(): Promise<string> {
    for (;;) {
      const end = this.buffered.indexOf('\n\n');
      if (end !== -1) {
        const frame = this.buffered.slice(0, end);
        this.buffered = this.buffered.slice(end + 2);
        return frame.split('\n').map((line) => line.slice('data: '.length)).join('\n');
      }
      const { value, done } = await this.stream.read();
      if (done) throw new Error('the event stream ended');
      this.buffered += Buffer.from(value).toString('latin1');
    }
  }
}
