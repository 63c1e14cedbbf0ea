// A closed-loop load generator for JSON endpoints that wrk cannot check (each answer is read
// and judged): `concurrency` loops send one request after another for a fixed time. Runs in the
// bench's own process, so its CPU cost competes with the server's; the streams and vector
// tables say so.

import { performance } from 'node:perf_hooks';

export interface LoopResult {
  /** Requests answered correctly. */
  readonly ok: number;
  /** Units of work in those answers (messages, queries): what `send` returned. */
  readonly units: number;
  readonly errors: number;
  readonly seconds: number;
  /** Latencies of the correct answers in ms, ascending. */
  readonly latenciesMs: number[];
  /** The first error's text, for the notes. */
  readonly firstError: string;
}

/** `send` answers the units its request did, or throws when the answer was wrong. */
export async function closedLoop(concurrency: number, seconds: number, send: (loop: number) => Promise<number>): Promise<LoopResult> {
  const latenciesMs: number[] = [];
  let ok = 0;
  let units = 0;
  let errors = 0;
  let firstError = '';
  const start = performance.now();
  const end = start + seconds * 1000;
  const loop = async (id: number) => {
    while (performance.now() < end) {
      const t0 = performance.now();
      try {
        const done = await send(id); // not `units += await`: that reads `units` before the wait
        units += done;
        latenciesMs.push(performance.now() - t0);
        ok++;
      } catch (e) {
        errors++;
        firstError ||= describe(e);
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, id) => loop(id)));
  latenciesMs.sort((a, b) => a - b);
  return { ok, units, errors, seconds: (performance.now() - start) / 1000, latenciesMs, firstError };
}

/** POSTs `body` as JSON and answers the parsed answer; throws on a status other than 200. */
export async function postJson(url: string, headers: Record<string, string>, body: unknown): Promise<unknown> {
  const res = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${url.slice(url.lastIndexOf('/'))} answered ${res.status} ${text.slice(0, 120)}`);
  return JSON.parse(text);
}

/** An error's message with its cause: undici's "fetch failed" says what failed only there. */
function describe(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const cause = e.cause instanceof Error ? `: ${e.cause.message}${'code' in e.cause ? ` (${String(e.cause.code)})` : ''}` : '';
  return e.message + cause;
}
