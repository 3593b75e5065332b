import { appendFileSync } from 'node:fs';
import { launchChromium } from '../support/browser.ts';

/**
 * The browser step of `lyceum login` in tests: the CLI runs this as LYCEUM_BROWSER_OPENER with the authorization URL,
 * and Chromium (through Playwright) signs in as LYCEUM_TEST_EMAIL and answers the consent page with
 * LYCEUM_TEST_DECISION (Allow by default), then waits until the browser has reached the CLI's loopback listener.
 * What happened goes to LYCEUM_TEST_OPENER_LOG.
 */
const url = process.argv.at(-1) ?? '';
const log = (line: string) => {
  if (process.env.LYCEUM_TEST_OPENER_LOG) appendFileSync(process.env.LYCEUM_TEST_OPENER_LOG, `${line}\n`);
};
const browser = await launchChromium();
try {
  const page = await browser.newPage();
  page.setDefaultTimeout(15_000);
  await page.goto(url);
  log(`at ${page.url()}`);
  if (await page.getByLabel('Password').count()) {
    await page.getByLabel('Email').fill(process.env.LYCEUM_TEST_EMAIL ?? '');
    await page.getByLabel('Password').fill(process.env.LYCEUM_TEST_PASSWORD ?? '');
    await page.getByRole('button', { name: 'Sign in' }).click();
  }
  const decision = process.env.LYCEUM_TEST_DECISION === 'deny' ? 'Deny' : 'Allow';
  await page.getByRole('button', { name: decision }).click();
  await page.waitForURL((u) => u.hostname === '127.0.0.1' && u.pathname === '/callback', { timeout: 15_000 });
  log(`reached ${page.url().replace(/code=[^&]+/, 'code=…')}: ${await page.textContent('h1')}`);
} catch (error) {
  log(`failed: ${(error as Error).stack}`);
} finally {
  await browser.close();
}
