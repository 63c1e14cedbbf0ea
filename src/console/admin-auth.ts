// Who is calling the console's admin endpoints: the admin token (full console) or the read-only
// admin token (a console handed only read-only service tokens). Compared in constant time.

import { matchToken, requestToken } from '../server/credentials.js';
import type { HttpRequest } from '../server/http.js';

export type Role = 'admin' | 'readOnly';

export interface AdminTokens {
  readonly admin: string;
  readonly readOnly: string;
}

export function adminRole(req: HttpRequest, tokens: AdminTokens): Role | null {
  return matchToken<Role>(requestToken(req), [['admin', tokens.admin], ['readOnly', tokens.readOnly]]);
}
