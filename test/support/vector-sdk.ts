// The official @upstash/vector client pointed at a vector index of a test Larder.

import { Index } from '@upstash/vector';
import type { TestLarder } from './larder.js';

export function vectorClient(t: TestLarder, opts: { index?: string; readOnly?: boolean; token?: string } = {}): Index {
  const c = t.vectorIndex(opts.index);
  return new Index({ url: c.url, token: opts.token ?? (opts.readOnly ? c.readOnlyToken : c.token), retry: false, enableTelemetry: false });
}
