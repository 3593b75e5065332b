import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { seedDemoSchool } from '../../../src/demo/seed.ts';
import { adminScreens } from '../../support/admin-pages.ts';
import { accessibilityProblems, launchChromium, photograph, screenshotDir, signInPage } from '../../support/browser.ts';
import { engines } from '../../support/databases.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { WebClient } from '../../support/web-client.ts';

const SIZES = { phone: { width: 390, height: 844 }, desktop: { width: 1280, height: 800 } } as const;
/** How many pages walk the screens side by side. */
const WALKERS = 3;

// One engine is enough for the browser: what the data layer decides is tested over HTTP on both.
const engine = engines[0] ?? 'sqlite';

/** What a person must never read on a screen (CONVENTIONS 14), each with the words that name it in the report. */
const MACHINE_WORDS: readonly [string, RegExp][] = [
  ['an API path', /\/api\/v1\S*/g],
  ['an HTTP method', /\b(GET|POST|PATCH|PUT|DELETE)\b/g],
  ['a raw id', /\b[a-z]{2,4}_[0-9a-z]{26}\b/g],
];

describe(`every admin screen in Chromium (${engine})`, () => {
  let server: TestServer;
  let browser: Browser;
  let owner: { email: string; password: string };
  let words: [string, RegExp][] = [];
  const shots = screenshotDir('admin');

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

  test('no serious or critical axe violation on any screen, none scrolls sideways, none shows an API path, HTTP method, operationId or raw id as text; each is photographed at phone and desktop widths', async () => {
    const client = new WebClient(server.url);
    await client.submit('/signin', '/signin', owner);
    const screens = await adminScreens(client);
    const spec = (await (await fetch(`${server.url}/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { operationId?: string }>>;
    };
    const operationIds = Object.values(spec.paths).flatMap((methods) =>
      Object.values(methods).flatMap((op) => (op.operationId ? [op.operationId] : [])),
    );
    words = [...MACHINE_WORDS, ['an operationId', new RegExp(`\\b(${operationIds.join('|')})\\b`, 'g')]];
    const problems: string[] = [];
    // The walk is split between a few signed-in pages at once: Chromium renders, photographs and runs axe in its own
    // processes, so one page after another left it waiting on this file for minutes (313 s of a 13-minute run).
    const walkers = Array.from({ length: WALKERS }, (_, n) => screens.filter((_, i) => i % WALKERS === n));
    await Promise.all(walkers.map((share) => walk(share, problems)));
    assert.deepEqual(problems, [], `${problems.length} problems on ${screens.length} screens:\n${problems.join('\n')}`);
  });

  /** Signs the owner in on a page of its own, then visits each screen at both widths. */
  async function walk(screens: string[], problems: string[]) {
    const context = await browser.newContext({ viewport: SIZES.desktop });
    const page = await context.newPage();
    await signInPage(page, server.url, owner);
    for (const path of screens) {
      for (const [size, viewport] of Object.entries(SIZES)) {
        await page.setViewportSize(viewport);
        const response = await page.goto(`${server.url}${path}`);
        assert.equal(response?.status(), 200, path);
        const [where = '', query = ''] = path.split('?');
        const from = new URLSearchParams(query).get('return_to')?.split('/')[2];
        const name = `${where.replace(/^\/admin\/?/, '').replace(/[^a-zA-Z0-9_-]+/g, '-') || 'overview'}${from ? `-on-${from}` : ''}`;
        await photograph(page, join(shots, `${name}-${size}.png`));
        // Nothing scrolls sideways on a phone: lists stack, long codes wrap.
        const wide = Number(await page.evaluate('document.documentElement.scrollWidth'));
        if (wide > viewport.width) problems.push(`${path}: ${wide} px wide at ${viewport.width} px`);
        if (size === 'desktop')
          for (const problem of await accessibilityProblems(page)) problems.push(`${path}: ${problem}`);
        // Words for people: what the screen shows, link text included (a string run in the page: this file is typed
        // without the DOM's names).
        if (size === 'phone') {
          const text = String(await page.evaluate('document.body.innerText'));
          for (const [what, pattern] of words) {
            const found = [...new Set([...text.matchAll(pattern)].map((m) => m[0]))];
            if (found.length) problems.push(`${path}: shows ${what}: ${found.slice(0, 8).join(', ')}`);
          }
        }
      }
    }
    await context.close();
  }
});
