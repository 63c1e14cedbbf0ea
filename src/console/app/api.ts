// How the page talks to the server: the console's admin endpoints with the admin token kept in
// sessionStorage, and the services' own REST APIs with the tokens /console/api/info handed out.

import type { ConsoleError } from '../wire';

const TOKEN_KEY = 'larder.console.token';

/** A failure answered by the server; `message` is its error text, shown as it is. */
export class ApiError extends Error {
  constructor(message: string, readonly status: number) {
    super(message);
  }
}

export const session = {
  token: (): string | null => sessionStorage.getItem(TOKEN_KEY),
  save: (token: string) => sessionStorage.setItem(TOKEN_KEY, token),
  clear: () => sessionStorage.removeItem(TOKEN_KEY),
};

async function json(res: Response): Promise<unknown> {
  const text = await res.text();
  // Some endpoints answer a success with no body at all (queue pause and resume).
  if (text === '' && res.ok) return null;
  try {
    return JSON.parse(text);
  } catch {
    throw new ApiError(`${res.status} ${res.statusText}: ${text.slice(0, 200)}`, res.status);
  }
}

/** GET /console/api/<path> with the session's admin token. */
export async function adminGet<T>(path: string, token = session.token() ?? ''): Promise<T> {
  const res = await fetch(`/console/api/${path}`, { headers: { authorization: `Bearer ${token}` } });
  const body = await json(res);
  if (!res.ok) throw new ApiError((body as ConsoleError).error ?? res.statusText, res.status);
  return body as T;
}

/** A key-value database as the console reaches it. */
export interface KvTarget {
  readonly db: string;
  readonly url: string;
  readonly token: string;
}

export type Argv = readonly string[];

/** Runs one command; its error reply is thrown as an ApiError. */
export async function kv(target: KvTarget, argv: Argv): Promise<unknown> {
  const res = await fetch(target.url, {
    method: 'POST',
    headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(argv),
  });
  const body = (await json(res)) as { result?: unknown; error?: string };
  if (body.error !== undefined) throw new ApiError(body.error, res.status);
  return body.result;
}

/** Runs commands as one pipeline; each answer is a result or the command's error. */
export async function kvPipeline(target: KvTarget, commands: readonly Argv[]): Promise<({ result: unknown } | { error: string })[]> {
  const res = await fetch(`${target.url}/pipeline`, {
    method: 'POST',
    headers: { authorization: `Bearer ${target.token}`, 'content-type': 'application/json' },
    body: JSON.stringify(commands),
  });
  const body = await json(res);
  if (!res.ok) throw new ApiError((body as { error?: string }).error ?? res.statusText, res.status);
  return body as ({ result: unknown } | { error: string })[];
}

/** The text of whatever was thrown, for showing next to a field. */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * A request to a stream, vector or queue endpoint with its credentials (`authorization` as
 * sent). Those services answer `{error, status}` on failure, thrown here as an ApiError.
 */
export async function call<T>(url: string, authorization: string, method = 'GET', body?: unknown, extra: Record<string, string> = {}): Promise<T> {
  const headers: Record<string, string> = { ...extra, authorization };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(url, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const parsed = await json(res);
  if (!res.ok) throw new ApiError((parsed as { error?: string }).error ?? res.statusText, res.status);
  return parsed as T;
}

export const bearer = (token: string) => `Bearer ${token}`;
export const basic = (username: string, password: string) => `Basic ${btoa(`${username}:${password}`)}`;
