// The console's page: index.html, app.js and app.css, bundled by build.ts into dist/console/
// and read once at mount. Nothing is fetched from the network at run time.

import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HttpResponse } from '../server/http.js';

/** dist/console/, beside dist/src/ where this module runs from. */
export const BUNDLE_DIR = fileURLToPath(new URL('../../console/', import.meta.url));

const TYPES: Readonly<Record<string, string>> = {
  'index.html': 'text/html; charset=utf-8',
  'app.js': 'text/javascript; charset=utf-8',
  'app.css': 'text/css; charset=utf-8',
};

// The page loads only its own script and style, and talks only to this server.
const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy': "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'cache-control': 'no-cache',
};

export interface Bundle {
  /** A fresh response for the file (the app sets headers on what it is given), or null. */
  file(name: string): HttpResponse | null;
}

/** The bundle, or null when it was not built (tsc alone, without `npm run build`). */
export function loadBundle(dir: string = BUNDLE_DIR): Bundle | null {
  if (!existsSync(join(dir, 'index.html'))) return null;
  const files = new Map<string, { type: string; body: Uint8Array }>();
  for (const [name, type] of Object.entries(TYPES)) files.set(name, { type, body: new Uint8Array(readFileSync(join(dir, name))) });
  return {
    file(name) {
      const f = files.get(name);
      return f === undefined ? null : { status: 200, headers: { 'content-type': f.type, ...PAGE_HEADERS }, body: f.body };
    },
  };
}
