// The official @upstash/redis client pointed at a test Larder, with auto-pipelining on or off.

import { Redis } from '@upstash/redis';
import { before } from 'node:test';
import { standIn, startTestLarder, suiteLarder, type KvClient, type TestLarder } from './larder.js';

export interface SdkOptions {
  autoPipeline?: boolean;
  readOnly?: boolean;
  /** base64 (the SDK's default) or json-plain responses. */
  encoding?: 'base64' | false;
  token?: string;
  /** false: replies and messages as the server sent them, not JSON-parsed (the SDK's automaticDeserialization). */
  deserialize?: false;
}

export function sdkClient(t: KvClient, opts: SdkOptions = {}): Redis {
  return new Redis({
    url: t.kvUrl,
    token: opts.token ?? (opts.readOnly ? t.readOnlyToken : t.token),
    enableAutoPipelining: opts.autoPipeline ?? false,
    responseEncoding: opts.encoding ?? 'base64',
    retry: false,
    enableTelemetry: false,
    automaticDeserialization: opts.deserialize ?? true,
  });
}

/** Both client modes, for tests that should hold with and without auto-pipelining. */
export const PIPELINE_MODES = [
  { name: 'direct', autoPipeline: false },
  { name: 'auto-pipelined', autoPipeline: true },
] as const;

/** A fresh server and an SDK client on it in `mode`, for one describe block's before hook. */
export async function startSdk(mode: { autoPipeline: boolean }): Promise<{ t: TestLarder; redis: Redis }> {
  const t = await startTestLarder();
  return { t, redis: sdkClient(t, { autoPipeline: mode.autoPipeline }) };
}

/**
 * One server per suite and an SDK client on it in `mode`, both standing for what the suite's
 * before hook starts (see suiteLarder).
 */
export function suiteSdk(mode: { autoPipeline: boolean }): { t: TestLarder; redis: Redis } {
  const t = suiteLarder();
  let client: Redis | undefined;
  before(() => {
    client = sdkClient(t, { autoPipeline: mode.autoPipeline });
  });
  const redis = standIn(() => client);
  return { t, redis };
}
