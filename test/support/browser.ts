import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Browser, chromium } from 'playwright-core';

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
