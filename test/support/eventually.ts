// Waits for something the server does on its own schedule (noticing a closed connection),
// polling; a bound on the attempts keeps a test that never sees it from hanging.

import assert from 'node:assert/strict';

export async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 500; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.fail(`never happened: ${what}`);
}
