// Waits for something the server does on its own schedule (noticing a closed connection),
// polling; a bound on the attempts keeps a test that never sees it from hanging.

import assert from 'node:assert/strict';

/** Polls `check` every 10 ms, `polls` times at most (500: about 5 s on an idle machine). */
export async function eventually(check: () => Promise<boolean>, what: string, polls = 500): Promise<void> {
  for (let i = 0; i < polls; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  assert.fail(`never happened: ${what}`);
}
