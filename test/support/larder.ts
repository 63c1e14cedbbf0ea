// Starts a real Larder on 127.0.0.1, on a free port, with its own temporary data dir, for
// integration tests. Everything goes through HTTP.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { validate } from '../../src/config/load.js';
import { startLarder, type Larder } from '../../src/larder.js';

export interface TestLarder {
  readonly larder: Larder;
  readonly url: string;
  /** Base URL of the default key-value database. */
  readonly kvUrl: string;
  readonly token: string;
  readonly readOnlyToken: string;
  readonly dataDir: string;
  /** Runs one command through the JSON body form; returns status and parsed body. */
  command(argv: (string | number)[], init?: { token?: string; headers?: Record<string, string> }): Promise<{ status: number; body: any }>;
  /** Any request below the database URL. */
  request(path: string, init?: RequestInit & { token?: string | null }): Promise<Response>;
  /** Stops the server; the data dir is removed unless `keepData`. */
  close(keepData?: boolean): Promise<void>;
}

export async function startTestLarder(config: Record<string, unknown> = {}, dataDir?: string): Promise<TestLarder> {
  const dir = dataDir ?? mkdtempSync(join(tmpdir(), 'larder-test-'));
  const larder = await startLarder(
    validate({ host: '127.0.0.1', port: 0, logLevel: 'silent', ...config, dataDir: dir }),
  );
  const creds = larder.kv.find((c) => c.db === 'default') ?? larder.kv[0];
  const kvUrl = `${larder.url}/redis/${creds.db}`;
  const request = (path: string, init: RequestInit & { token?: string | null } = {}) => {
    const headers = new Headers(init.headers);
    const token = init.token === undefined ? creds.token : init.token;
    if (token !== null && !headers.has('authorization')) headers.set('authorization', `Bearer ${token}`);
    return fetch(kvUrl + path, { ...init, headers });
  };
  return {
    larder,
    url: larder.url,
    kvUrl,
    token: creds.token,
    readOnlyToken: creds.readOnlyToken,
    dataDir: dir,
    request,
    async command(argv, init = {}) {
      const res = await request('', {
        method: 'POST',
        body: JSON.stringify(argv),
        headers: init.headers,
        token: init.token,
      });
      return { status: res.status, body: await res.json() };
    },
    async close(keepData = false) {
      await larder.close();
      if (!keepData && dataDir === undefined) rmSync(dir, { recursive: true, force: true });
    },
  };
}
