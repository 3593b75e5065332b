import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import { type Browser, chromium, type Page } from 'playwright-core';

/** Debian's Chromium, headless; the flags keep it from reaching for the network on its own. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
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
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await page.screenshot({ path, fullPage: true });
      return;
    } catch (error) {
      if (!String((error as Error).message).includes('Unable to capture screenshot')) throw error;
    }
  }
  await page.screenshot({ path });
}
