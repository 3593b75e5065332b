import { appendFileSync } from 'node:fs';
import { launchChromium } from '../support/browser.ts';

/**
 * The browser step of `lyceum login` in tests: the CLI runs this as LYCEUM_BROWSER_OPENER with the authorization URL,
 * and Chromium (through Playwright) signs in as LYCEUM_TEST_EMAIL and answers the consent page with
 * LYCEUM_TEST_DECISION (Allow by default), then waits until the browser has reached the CLI's loopback listener.
 * What happened goes to LYCEUM_TEST_OPENER_LOG; a step that fails answers the loopback listener with an error, so
 * the login ends at once.
 */
const url = process.argv.at(-1) ?? '';
const log = (line: string) => {
  if (process.env.LYCEUM_TEST_OPENER_LOG) appendFileSync(process.env.LYCEUM_TEST_OPENER_LOG, `${line}\n`);
};
const browser = await launchChromium();
try {
  const page = await browser.newPage();
  page.setDefaultTimeout(Number(process.env.LYCEUM_TEST_OPENER_TIMEOUT_MS) || 15_000);
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
  // Ends the login at once with the reason, instead of leaving the CLI to wait out its timeout.
  const asked = new URL(url);
  const callback = new URL(asked.searchParams.get('redirect_uri') ?? '');
  callback.search = new URLSearchParams({
    error: 'opener_failed',
    error_description: `the test browser failed: ${(error as Error).message.split('\n')[0]}`,
    state: asked.searchParams.get('state') ?? '',
    iss: asked.searchParams.get('resource') ?? '',
  }).toString();
  await fetch(callback).catch(() => log('the loopback listener had already been answered'));
} finally {
  await browser.close();
}
