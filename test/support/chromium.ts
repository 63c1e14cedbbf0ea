// Headless Chromium for the console's browser tests: Debian's /usr/bin/chromium driven by
// playwright-core (.ci/run installs it). Without it the browser suites skip, saying why.

import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { standIn, type TestLarder } from './larder.js';

export const CHROMIUM = '/usr/bin/chromium';

/** The skip reason when the browser is absent, else false. */
export const noChromium: string | false = existsSync(CHROMIUM) ? false : `${CHROMIUM} is absent: apt-get install chromium to run the console's browser tests`;
if (noChromium !== false) console.log(`console browser tests skipped: ${noChromium}`);

/** docs/console/, where the tests save the README's screenshots. */
export const SCREENSHOTS = join(fileURLToPath(import.meta.url), '../../../../docs/console');

export function launchChromium(): Promise<Browser> {
  // No sandbox: CI runs as root, where Chromium's sandbox refuses to start.
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

/** A new page logged in to the console at `url` with `token`, on the key-value page. */
export async function openConsole(browser: Browser, url: string, token: string): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  await page.goto(`${url}/console`);
  await page.getByLabel('Admin token').fill(token);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('button', { name: 'Log out' }).waitFor();
  return page;
}

/** Chromium for a describe block: launched before its tests, closed after them. */
export function suiteChromium(): Browser {
  let browser: Browser | undefined;
  before(async () => {
    browser = await launchChromium();
  });
  after(() => browser?.close());
  return standIn(() => browser);
}

/** Chromium and a page logged in to `t`'s console with its `token`, for a describe block. */
export function suiteConsole(t: TestLarder, token: 'adminToken' | 'adminReadOnlyToken'): { browser: Browser; page: Page } {
  const browser = suiteChromium();
  let page: Page | undefined;
  before(async () => {
    page = await openConsole(browser, t.url, t[token]);
  });
  return { browser, page: standIn(() => page) };
}
