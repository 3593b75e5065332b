import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { seedDemoSchool } from '../../../src/demo/seed.ts';
import { adminScreens } from '../../support/admin-pages.ts';
import { launchChromium } from '../../support/browser.ts';
import { engines } from '../../support/databases.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { WebClient } from '../../support/web-client.ts';

const PHONE = { width: 390, height: 844 } as const;
const engine = engines[0] ?? 'sqlite';

/** What a person must never read on a screen, each with the words that name it in the report. */
const MACHINE_WORDS: readonly [string, RegExp][] = [
  ['an API path', /\/api\/v1\S*/g],
  ['an HTTP method', /\b(GET|POST|PATCH|PUT|DELETE)\b/g],
  ['a raw id', /\b[a-z]{2,4}_[0-9a-z]{26}\b/g],
];

/**
 * Words for people (CONVENTIONS 14), on every admin screen of the demo school at phone width: no API path, HTTP
 * method, operationId or raw id in what is shown, link text included, and nothing scrolling sideways. One page walks
 * every screen (axe and screenshots are admin-browser.test.ts's); the report names each screen and each text.
 */
describe(`every admin screen speaks to people (${engine})`, () => {
  let server: TestServer;
  let browser: Browser;
  let owner: { email: string; password: string };

  before(async () => {
    server = await startTestServer(engine);
    const demo = await seedDemoSchool(server.database.db);
    const account = demo.accounts.find((a) => a.role === 'owner');
    owner = { email: account?.email ?? '', password: account?.password ?? '' };
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  test('no API path, method, operationId or raw id as text, and no sideways scroll at 390 px', async () => {
    const client = new WebClient(server.url);
    await client.submit('/signin', '/signin', owner);
    const screens = await adminScreens(client);
    const spec = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    const operationIds = Object.values(spec.paths).flatMap((methods) =>
      Object.values(methods).flatMap((op) => (op.operationId ? [op.operationId] : [])),
    );
    const words: [string, RegExp][] = [
      ...MACHINE_WORDS,
      ['an operationId', new RegExp(`\\b(${operationIds.join('|')})\\b`, 'g')],
    ];

    const context = await browser.newContext({ viewport: PHONE });
    const page = await context.newPage();
    await page.goto(`${server.url}/signin`);
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill(owner.password);
    await page.getByRole('button', { name: /sign in/i }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/signin'));

    const problems: string[] = [];
    for (const path of screens) {
      const response = await page.goto(`${server.url}${path}`);
      if (response?.status() !== 200) {
        problems.push(`${path}: answered ${response?.status()}`);
        continue;
      }
      // A string, run in the page: this file is typed without the DOM's names.
      const { text, wide } = (await page.evaluate(
        '({ text: document.body.innerText, wide: document.documentElement.scrollWidth - window.innerWidth })',
      )) as { text: string; wide: number };
      for (const [what, pattern] of words) {
        const found = [...new Set([...text.matchAll(pattern)].map((m) => m[0]))];
        if (found.length) problems.push(`${path}: shows ${what}: ${found.slice(0, 8).join(', ')}`);
      }
      if (wide > 0) problems.push(`${path}: scrolls sideways by ${wide} px at 390 px`);
    }
    await context.close();
    assert.deepEqual(problems, [], `${problems.length} problems on ${screens.length} screens:\n${problems.join('\n')}`);
  });
});
