// Who is calling the console's admin endpoints: the admin token (full console) or the read-only
// admin token (a console handed only read-only service tokens). Compared in constant time.

import { timingSafeEqual } from 'node:crypto';
import type { HttpRequest } from '../server/http.js';

export type Role = 'admin' | 'readOnly';

export interface AdminTokens {
  readonly admin: string;
  readonly readOnly: string;
}

export function adminRole(req: HttpRequest, tokens: AdminTokens): Role | null {
  const auth = req.header('authorization');
  if (auth === undefined || !/^bearer /i.test(auth)) return null;
  const sent = Buffer.from(auth.slice(7).trim());
  if (same(sent, tokens.admin)) return 'admin';
  if (same(sent, tokens.readOnly)) return 'readOnly';
  return null;
}

function same(sent: Buffer, token: string): boolean {
  const expected = Buffer.from(token);
  return sent.length === expected.length && timingSafeEqual(sent, expected);
}
