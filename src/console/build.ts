// `npm run build` runs this after tsc: bundles the console's page (app/) with esbuild into
// dist/console/ as index.html, app.js and app.css, which static-files.ts serves. The page's
// types are checked by tsc -p src/console/app (the DOM and JSX settings differ from the server's).

import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { BUNDLE_DIR } from './static-files.js';

/** src/console/app/, from dist/src/console/ where this runs. */
const APP_DIR = fileURLToPath(new URL('../../../src/console/app/', import.meta.url));

mkdirSync(BUNDLE_DIR, { recursive: true });
await build({
  entryPoints: [join(APP_DIR, 'main.tsx')],
  outfile: join(BUNDLE_DIR, 'app.js'),
  bundle: true,
  format: 'esm',
  target: 'es2022',
  minify: true,
  sourcemap: false,
  jsx: 'automatic',
  jsxImportSource: 'preact',
  logLevel: 'warning',
});
copyFileSync(join(APP_DIR, 'index.html'), join(BUNDLE_DIR, 'index.html'));
