// The login and metrics pages in headless Chromium: a wrong token shows the server's refusal,
// and the live figures show the key-value requests the SDK sends.

import { describe, it } from 'node:test';
import { join } from 'node:path';
import { noChromium, openConsole, SCREENSHOTS, suiteChromium } from '../support/chromium.js';
import { suiteLarder } from '../support/larder.js';
import { sdkClient } from '../support/sdk.js';

describe('console: login and metrics', { skip: noChromium }, () => {
  const t = suiteLarder();
  const browser = suiteChromium();

  it('refuses a wrong token with the server error', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    const refusal = ((await (await fetch(`${t.url}/console/api/info`, { headers: { authorization: 'Bearer wrong-token' } })).json()) as { error: string }).error;
    await page.goto(`${t.url}/console`);
    await page.getByLabel('Admin token').fill('wrong-token');
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.locator('.login .field-error').getByText(refusal, { exact: true }).waitFor();
    await page.getByLabel('Admin token').fill('');
    await page.screenshot({ path: join(SCREENSHOTS, 'login.png') });
    await page.close();
  });

  it('plots requests, errors and latency per service', async () => {
    const page = await openConsole(browser, t.url, t.adminToken);
    await page.getByRole('link', { name: 'Metrics' }).click();
    const redis = sdkClient(t);
    const table = page.getByRole('table', { name: 'Current figures' });
    // Keep traffic flowing until a poll has seen it.
    const kvRow = table.getByRole('row').filter({ has: page.getByRole('cell', { name: 'kv', exact: true }) });
    for (let i = 0; (await kvRow.count()) === 0; i++) {
      if (i > 100) throw new Error('the metrics page never showed the kv service');
      await redis.set(`m${i}`, i);
      await redis.get(`m${i}`);
      await page.waitForTimeout(50);
    }
    for (let i = 0; i < 40; i++) {
      await redis.incr('hits');
      await page.waitForTimeout(50);
    }
    for (const title of ['Requests per second', 'Errors (status ≥ 400) per poll', 'Latency p50 (ms)', 'Latency p99 (ms)']) {
      await page.getByLabel(title).locator('canvas').waitFor();
    }
    await page.screenshot({ path: join(SCREENSHOTS, 'metrics.png'), fullPage: true });
    await page.close();
  });

  it('shows the metrics page on a fresh server without traffic', async () => {
    const page = await openConsole(browser, t.url, t.adminReadOnlyToken);
    await page.goto(`${t.url}/console#/metrics`);
    await page.getByRole('table', { name: 'Current figures' }).waitFor();
    await page.close();
  });
});
