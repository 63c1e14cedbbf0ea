// A tiny deterministic OpenAI-compatible embedding server for tests: POST /v1/embeddings with
// {model, input} answers one vector per text, its words hashed into DIMENSION buckets and
// normalised, so texts with the same words embed identically and unrelated texts far apart.

import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export const DIMENSION = 64;

export function embedText(text: string): number[] {
  const v = new Array<number>(DIMENSION).fill(0);
  for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    let h = 2166136261;
    for (let i = 0; i < word.length; i++) h = Math.imul(h ^ word.charCodeAt(i), 16777619) >>> 0;
    v[h % DIMENSION] += 1;
  }
  const norm = Math.hypot(...v) || 1;
  return v.map((x) => x / norm);
}

export interface EmbeddingServer {
  readonly url: string;
  /** Every request body received, in order. */
  readonly requests: { model: string; input: string[] }[];
  close(): Promise<void>;
}

export async function startEmbeddingServer(): Promise<EmbeddingServer> {
  const requests: { model: string; input: string[] }[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (s: string) => (body += s));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/embeddings') {
        res.writeHead(404).end();
        return;
      }
      const { model, input } = JSON.parse(body) as { model: string; input: string | string[] };
      const texts = typeof input === 'string' ? [input] : input;
      requests.push({ model, input: texts });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', model, data: texts.map((t, index) => ({ object: 'embedding', index, embedding: embedText(t) })) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1/embeddings`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
