import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserServer } from 'playwright-core';
import { CHROMIUM_ENDPOINT, launchChromiumServer } from './browser.ts';
import { makeDatabaseTemplates } from './database-templates.ts';

/**
 * `npm test`'s --test-global-setup: one Chromium and one prepared database per engine for the whole run. Where they
 * are is published in the environment that every test file's process (and the CLI's browser opener) inherits:
 * launchChromium() connects to the browser, and startTestServer() copies the database (database-templates.ts). A
 * file run alone without this setup makes its own.
 */
let server: BrowserServer | undefined;

export async function globalSetup() {
  process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), 'lyceum-test-compile-cache');
  const [browser] = await Promise.all([launchChromiumServer(), makeDatabaseTemplates()]);
  server = browser;
  process.env[CHROMIUM_ENDPOINT] = server.wsEndpoint();
}

export async function globalTeardown() {
  await server?.close();
}
