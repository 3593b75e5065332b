import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { text } from 'node:stream/consumers';
import { AxeBuilder } from '@axe-core/playwright';
import { type Browser, chromium, type Download, type Page } from 'playwright-core';

/** Debian's Chromium, headless; the flags keep it from reaching for the network on its own. */
/** Chromium's flags for tests and scripts/lighthouse.ts: no sandbox (root in CI), nothing fetched behind the page. */
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

const launchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  headless: true,
  args: CHROMIUM_ARGS,
};

/** The environment variable through which test/support/global-setup.ts shares the run's one Chromium. */
export const CHROMIUM_ENDPOINT = 'LYCEUM_TEST_CHROMIUM_ENDPOINT';

/** The run's shared Chromium (see global-setup.ts), served over Playwright's protocol. */
export function launchChromiumServer() {
  return chromium.launchServer(launchOptions);
}

/**
 * A browser for one test file: a connection to the run's shared Chromium when `npm test` started one, else a Chromium
 * of its own. Either way `close()` ends what the file opened (its contexts and pages), and nothing of another file's.
 */
export function launchChromium(): Promise<Browser> {
  const endpoint = process.env[CHROMIUM_ENDPOINT];
  return endpoint ? chromium.connect(endpoint) : chromium.launch(launchOptions);
}

/** A folder for a test's screenshots, under .test-artifacts/ (ignored by git). */
export function screenshotDir(name: string): string {
  const dir = resolve(join('.test-artifacts', 'screenshots', name));
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** The serious and critical accessibility problems axe finds on the page, as readable lines. */
export async function accessibilityProblems(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`);
}

/**
 * A full-page screenshot for people to look at (an artifact, not an assertion). Chromium now and then refuses a
 * capture ("Unable to capture screenshot") on a busy machine: it is tried again, then taken at the viewport's size,
 * so a picture can never fail the test it illustrates.
 */
export async function photograph(page: Page, path: string): Promise<void> {
  const refused = (error: unknown) => String((error as Error).message).includes('Unable to capture screenshot');
  for (const fullPage of [true, true, false]) {
    try {
      await page.screenshot({ path, fullPage });
      return;
    } catch (error) {
      if (!refused(error)) throw error;
    }
  }
  // Three refusals (the run's one Chromium busy with other files' pages): the picture is missing, the test goes on.
  process.stderr.write(`photograph: Chromium would not capture ${path}\n`);
}

/** A download's content as text; read through its stream, which (unlike `path()`) works on the run's shared Chromium. */
export async function downloadedText(download: Download): Promise<string> {
  return text(await download.createReadStream());
}

/** Signs a person in through the sign-in page, as a visitor would, and waits to be let in. */
export async function signInPage(page: Page, url: string, person: { email: string; password: string }) {
  await page.goto(`${url}/signin`);
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await page.getByRole('button', { name: /sign in/i }).click();
  await page.waitForURL((at) => !at.pathname.startsWith('/signin'));
}
