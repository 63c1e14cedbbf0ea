// A minimal RESP2 client over node:net for talking to a real redis-server. Replies come back as
// their raw bytes (a latin1 byte string, as in src/kv/bytes.ts), so they compare byte for byte
// with Larder's `Upstash-Response-Format: resp2` answers; `parseResp` reads them when a
// comparison needs structure (sorting KEYS, walking SCAN). One connection, replies in order.

import { connect, type Socket } from 'node:net';

/** A parsed RESP2 reply: bulk strings are byte strings, nil bulks and arrays are null. */
export type RespValue = string | null | RespAtom | RespValue[];
export interface RespAtom {
  readonly kind: 'status' | 'error' | 'integer';
  readonly text: string;
}

interface Parsed {
  readonly value: RespValue;
  readonly end: number;
}

/** Reads one reply starting at `at`; undefined while `s` holds only part of it. */
function readReply(s: string, at: number): Parsed | undefined {
  const eol = s.indexOf('\r\n', at);
  if (eol === -1) return undefined;
  const line = s.slice(at + 1, eol);
  const next = eol + 2;
  switch (s[at]) {
    case '+':
      return { value: { kind: 'status', text: line }, end: next };
    case '-':
      return { value: { kind: 'error', text: line }, end: next };
    case ':':
      return { value: { kind: 'integer', text: line }, end: next };
    case '$': {
      const len = Number(line);
      if (len < 0) return { value: null, end: next };
      if (s.length < next + len + 2) return undefined;
      return { value: s.slice(next, next + len), end: next + len + 2 };
    }
    case '*': {
      const len = Number(line);
      if (len < 0) return { value: null, end: next };
      const items: RespValue[] = [];
      let end = next;
      for (let i = 0; i < len; i++) {
        const item = readReply(s, end);
        if (item === undefined) return undefined;
        items.push(item.value);
        end = item.end;
      }
      return { value: items, end };
    }
    default:
      throw new Error(`not a RESP2 reply: ${JSON.stringify(s.slice(at, at + 40))}`);
  }
}

/** Parses exactly one complete reply. */
export function parseResp(raw: string): RespValue {
  const parsed = readReply(raw, 0);
  if (parsed === undefined || parsed.end !== raw.length) throw new Error(`not one RESP2 reply: ${JSON.stringify(raw)}`);
  return parsed.value;
}

export function isRespError(v: RespValue): v is RespAtom {
  return v !== null && typeof v === 'object' && !Array.isArray(v) && v.kind === 'error';
}

/** A command as RESP2 bytes: an array of bulk strings. */
function encodeCommand(argv: readonly string[]): string {
  let out = `*${argv.length}\r\n`;
  for (const a of argv) out += `$${a.length}\r\n${a}\r\n`;
  return out;
}

export class RespClient {
  private pending = '';
  private readonly waiting: { resolve: (raw: string) => void; reject: (e: Error) => void }[] = [];

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk) => this.receive(chunk.toString('latin1')));
    socket.on('error', (e) => this.failAll(e));
    socket.on('close', () => this.failAll(new Error('redis connection closed')));
  }

  static open(port: number, host = '127.0.0.1'): Promise<RespClient> {
    return new Promise((resolve, reject) => {
      const socket = connect({ port, host }, () => {
        socket.off('error', reject);
        resolve(new RespClient(socket));
      });
      socket.once('error', reject);
    });
  }

  /** Sends one command; resolves with the raw bytes of its reply. */
  call(argv: readonly string[]): Promise<string> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.socket.write(Buffer.from(encodeCommand(argv), 'latin1'));
    });
  }

  /** The next reply that no command asked for: on a subscribed connection, its next message. */
  next(): Promise<string> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.receive('');
    });
  }

  close(): void {
    this.socket.destroy();
  }

  private receive(text: string): void {
    this.pending += text;
    for (;;) {
      let parsed: Parsed | undefined;
      try {
        parsed = this.waiting.length > 0 ? readReply(this.pending, 0) : undefined;
      } catch (e) {
        this.failAll(e as Error);
        this.socket.destroy();
        return;
      }
      if (parsed === undefined) return;
      const raw = this.pending.slice(0, parsed.end);
      this.pending = this.pending.slice(parsed.end);
      this.waiting.shift()!.resolve(raw);
    }
  }

  private failAll(e: Error): void {
    for (const w of this.waiting.splice(0)) w.reject(e);
  }
}
