import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserServer } from 'playwright-core';
import { CHROMIUM_ENDPOINT, launchChromiumServer } from './browser.ts';

/**
 * `npm test`'s --test-global-setup: one Chromium for the whole run. Its endpoint is published in the environment
 * that every test file's process (and the CLI's browser opener) inherits; launchChromium() connects to it, so a run
 * starts Chromium once instead of once per browser file. A file run alone without this setup launches its own.
 */
let server: BrowserServer | undefined;

export async function globalSetup() {
  process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), 'lyceum-test-compile-cache');
  server = await launchChromiumServer();
  process.env[CHROMIUM_ENDPOINT] = server.wsEndpoint();
}

export async function globalTeardown() {
  await server?.close();
}
