// Dense embeddings from an OpenAI-compatible `POST /v1/embeddings` endpoint (OpenAI, Ollama,
// vLLM, TEI...): `{model, input: [texts]}` in, `{data: [{index, embedding}]}` out.

import { VectorError } from '../errors.js';

export interface OpenAiSettings {
  readonly url: string;
  readonly model: string;
  readonly apiKey?: string | undefined;
}

const providerFailed = (why: string) => new VectorError(502, `Embedding provider failed: ${why}`);

export async function embedOpenAi(s: OpenAiSettings, texts: readonly string[]): Promise<Float32Array[] | VectorError> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (s.apiKey !== undefined) headers.authorization = `Bearer ${s.apiKey}`;
  let body: { data?: { index?: number; embedding?: unknown }[] };
  try {
    const res = await fetch(s.url, { method: 'POST', headers, body: JSON.stringify({ model: s.model, input: texts }) });
    if (!res.ok) return providerFailed(`${res.status} ${(await res.text()).slice(0, 200)}`);
    body = (await res.json()) as typeof body;
  } catch (e) {
    return providerFailed((e as Error).message);
  }
  const data = body.data;
  if (!Array.isArray(data) || data.length !== texts.length) return providerFailed(`expected ${texts.length} embeddings`);
  const out = new Array<Float32Array>(texts.length);
  data.forEach((d, i) => {
    const e = d.embedding;
    if (Array.isArray(e) && e.every((x) => typeof x === 'number')) out[d.index ?? i] = Float32Array.from(e as number[]);
  });
  if (out.some((v) => v === undefined) || out.length !== texts.length) return providerFailed('an embedding is missing or not an array of numbers');
  return out;
}
