// A destination for the multi-process queue tests, on 127.0.0.1 and a free port, that keeps a
// ledger of every attempt: when it arrived, whether it was answered or its connection dropped
// first (the process delivering it was killed), and how many attempts to a path were open at
// once (flow control and queue parallelism hold across processes). Each attempt is held `holdMs`
// before its 200, so attempts overlap and a kill finds some in flight. Each attempt keeps the
// port it came from, which names the process that sent it (`tcpPortsOf`). Signatures are
// checked with the official SDK's Receiver.

import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { Receiver } from '@upstash/qstash';

export interface Attempt {
  readonly path: string;
  readonly messageId: string;
  readonly body: string;
  readonly arrivedAt: number;
  /** The sender's end of the connection. */
  readonly fromPort: number;
  /** Answered 200 with the connection still open. */
  answered: boolean;
  /** Its connection closed before the answer: the delivering process went away. */
  aborted: boolean;
  verified: boolean;
}

export interface DeliveryLedger {
  /** http://127.0.0.1:<port> */
  readonly url: string;
  readonly attempts: readonly Attempt[];
  /** Attempts to `path`, oldest first. */
  at(path: string): Attempt[];
  /** The most attempts to `path` open at one time so far. */
  mostAtOnce(path: string): number;
  /** Attempts neither answered nor cut yet. */
  open(): Attempt[];
  /** Holds every answer due from now on (attempts stay open) until `release`, which sends them. */
  holdAnswers(): void;
  release(): void;
  close(): Promise<void>;
}

export async function startDeliveryLedger(keys: { current: string; next: string }, holdMs: number): Promise<DeliveryLedger> {
  const receiver = new Receiver({ currentSigningKey: keys.current, nextSigningKey: keys.next, devMode: false });
  const attempts: Attempt[] = [];
  const open = new Map<string, number>();
  const most = new Map<string, number>();
  let base = '';
  let held: (() => void)[] | undefined;
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/';
    const now = (open.get(path) ?? 0) + 1;
    open.set(path, now);
    most.set(path, Math.max(most.get(path) ?? 0, now));
    // An attempt stops counting as open when it is answered (before the sender can start the
    // next) or when its connection drops.
    let done = false;
    const finish = () => {
      if (!done) open.set(path, open.get(path)! - 1);
      done = true;
    };
    let attempt: Attempt | undefined;
    let timer: NodeJS.Timeout | undefined;
    res.once('close', () => {
      if (done) return;
      finish();
      clearTimeout(timer);
      if (attempt !== undefined) attempt.aborted = true;
    });
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const messageId = String(req.headers['upstash-message-id'] ?? '');
      const a: Attempt = { path, messageId, body, arrivedAt: Date.now(), fromPort: req.socket.remotePort ?? 0, answered: false, aborted: false, verified: false };
      attempt = a;
      attempts.push(a);
      const signature = req.headers['upstash-signature'];
      if (typeof signature === 'string') {
        receiver.verify({ signature, body, url: base + path }).then(
          (ok) => (a.verified = ok),
          () => undefined,
        );
      }
      const answer = () => {
        if (res.destroyed) return;
        finish();
        a.answered = true;
        res.end('ok');
      };
      timer = setTimeout(() => (held === undefined ? answer() : held.push(answer)), holdMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  if (addr === null || typeof addr === 'string') throw new Error('the ledger has no port');
  base = `http://127.0.0.1:${addr.port}`;
  return {
    url: base,
    attempts,
    at: (path) => attempts.filter((a) => a.path === path),
    mostAtOnce: (path) => most.get(path) ?? 0,
    open: () => attempts.filter((a) => !a.answered && !a.aborted),
    holdAnswers: () => void (held ??= []),
    release: () => {
      const due = held ?? [];
      held = undefined;
      for (const answer of due) answer();
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** A process's state as /proc tells it: 'R' running, 'S' sleeping, 'T' stopped, ... */
export function processState(pid: number): string {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat[stat.lastIndexOf(')') + 2];
}

/** The local ports of the TCP connections process `pid` holds open (Linux: its socket fds in /proc/net/tcp*). */
export function tcpPortsOf(pid: number): Set<number> {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    let target = '';
    try {
      target = readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      continue; // closed while we listed
    }
    const inode = /^socket:\[(\d+)\]$/.exec(target)?.[1];
    if (inode !== undefined) inodes.add(inode);
  }
  const ports = new Set<number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    // Columns: sl, local_address (hex ip:port), rem_address, st, queues, tr, retrnsmt, uid, timeout, inode.
    for (const line of readFileSync(table, 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length > 9 && inodes.has(f[9])) ports.add(parseInt(f[1].split(':')[1], 16));
    }
  }
  return ports;
}
