import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { AxeBuilder } from '@axe-core/playwright';
import { apiClient, createUser, type Person, schoolWithPeople, tokenFor } from '../../support/api.ts';
import { launchChromium, photograph, screenshotDir } from '../../support/browser.ts';
import { engines } from '../../support/databases.ts';
import { pdf } from '../../support/files.ts';
import type { TestServer } from '../../support/server.ts';
import { type Asset, startStorageServer, uploadAsset } from '../../support/storage.ts';
import { signedInClient, WebClient } from '../../support/web-client.ts';

type Client = ReturnType<typeof apiClient>;
type Product = { id: string; slug: string; title: string };

const ok = <T>(response: { status: number; body: unknown }, status = 200) => {
  assert.equal(response.status, status, JSON.stringify(response.body));
  return response.body as T;
};

const signedIn = (server: TestServer, person: Person) => signedInClient(server.url, person);

/** The download links of a page, in order: the signed /media addresses it hands out. */
const mediaLinks = (page: string) =>
  [...page.matchAll(/href="([^"]*\/media\/ast_[^"]+)"/g)].map((m) => (m[1] ?? '').replaceAll('&amp;', '&'));

for (const engine of engines) {
  describe(`the product pages (${engine})`, () => {
    let server: TestServer;
    let staff: Client;
    let staffPerson: Person;
    let holder: Person;
    let stranger: Person;
    let guide: Asset;
    const guideBytes = pdf();
    let paid: Product;
    let free: Product;
    let draft: Product;
    let archived: Product;

    before(async () => {
      server = await startStorageServer(engine, 'local', { PAYMENTS_PROVIDER: 'test' });
      const people = await schoolWithPeople(server);
      staffPerson = people.staff;
      holder = people.student;
      stranger = await createUser(server, 'student', 'Sam Stranger');
      const token = await tokenFor(server, staffPerson, 'digital_products:read digital_products:write storage:write');
      staff = apiClient(server.url, token);
      guide = await uploadAsset(
        server,
        token,
        { purpose: 'pdf', filename: 'Colour Guide.pdf', content_type: 'application/pdf' },
        guideBytes,
      );
      const product = async (body: Record<string, unknown>, publish = true) => {
        const made = ok<Product>(await staff.post('/api/v1/digital-products', { asset_ids: [guide.id], ...body }), 201);
        return publish ? ok<Product>(await staff.post(`/api/v1/digital-products/${made.id}/publish`)) : made;
      };
      paid = await product({
        title: 'Colour Theory Pack',
        description: 'Everything about colour.\n\nWith <swatches>.',
        price: { amount: 1250, currency: 'EUR' },
      });
      free = await product({ title: 'Free Sketch Sheets' });
      draft = await product({ title: 'Unfinished Pack' }, false);
      archived = await product({ title: 'Old Pack' });
      ok(await staff.post(`/api/v1/digital-products/${archived.id}/archive`));
      for (const p of [paid, archived]) {
        ok(await staff.post(`/api/v1/digital-products/${p.id}/grants`, { user_id: holder.id }), 201);
      }
    });
    after(() => server.close());

    test('/products lists the published products with their price and files; drafts and archived ones are not there', async () => {
      const page = await new WebClient(server.url).get('/products');
      assert.equal(page.status, 200);
      assert.match(page.headers.get('cache-control') ?? '', /public, no-cache/);
      assert.match(page.text, new RegExp(`<a href="/products/${paid.slug}">Colour Theory Pack</a>`));
      assert.match(page.text, /<a href="\/products\/free-sketch-sheets">Free Sketch Sheets<\/a>/);
      assert.match(page.text, /€12\.50/);
      assert.match(page.text, /1 file</);
      assert.doesNotMatch(page.text, /Unfinished Pack|Old Pack/);
      assert.doesNotMatch(page.text, /\/media\//);
      // A school that sells products links them from its default menu and footer.
      assert.match(
        page.text,
        /<nav aria-label="Site" class="site-nav"><ul>[\s\S]*?<a href="\/products">Products<\/a>[\s\S]*?<\/nav>/,
      );
      assert.match(
        page.text,
        /<nav aria-label="Footer" class="footer-nav"><ul>[\s\S]*?<a href="\/products">Products<\/a>/,
      );
      assert.doesNotMatch(page.text, /href="\/plans"/, 'no plans link while the school offers none');
    });

    test("a product's page: description, files by name and size, price and Buy (Get it when free) to the checkout", async () => {
      const visitor = new WebClient(server.url);
      const page = await visitor.get(`/products/${paid.slug}`);
      assert.equal(page.status, 200);
      assert.match(page.text, /<title>Colour Theory Pack/);
      assert.match(page.text, /<p>Everything about colour\.<\/p>/);
      assert.match(page.text, /With &lt;swatches&gt;\./);
      assert.match(
        page.text,
        new RegExp(`Colour Guide\\.pdf <span class="meta">\\(${guideBytes.length} bytes\\)</span>`),
      );
      assert.match(page.text, /<p class="price">€12\.50<\/p>/);
      assert.match(page.text, new RegExp(`<a class="button" href="/checkout/product/${paid.slug}">Buy</a>`));
      assert.deepEqual(mediaLinks(page.text), [], 'no file links for a visitor');
      assert.match(page.text, /"@type":"Product"/);
      assert.match(page.text, /"price":"12\.50","priceCurrency":"EUR"/);
      const freePage = await visitor.get(`/products/${free.slug}`);
      assert.match(freePage.text, new RegExp(`<a class="button" href="/checkout/product/${free.slug}">Get it</a>`));
      assert.equal((await visitor.get(`/products/${draft.slug}`)).status, 404);
      assert.equal((await visitor.get(`/products/${archived.slug}`)).status, 404);
      assert.equal((await visitor.get('/products/no-such-product')).status, 404);

      const someone = await signedIn(server, stranger);
      const theirs = await someone.get(`/products/${paid.slug}`);
      assert.match(theirs.text, /Buy<\/a>/);
      assert.deepEqual(mediaLinks(theirs.text), []);
      assert.equal(theirs.headers.get('cache-control'), 'private, no-store');
    });

    test('a holder sees the files with signed links that download them, on the product page and in My downloads', async () => {
      const browser = await signedIn(server, holder);
      const page = await browser.get(`/products/${paid.slug}`);
      assert.equal(page.status, 200);
      assert.match(page.text, /You have this product\./);
      assert.doesNotMatch(page.text, /Buy<\/a>/);
      const [link] = mediaLinks(page.text);
      assert.match(link ?? '', new RegExp(`^${server.url}/media/${guide.id}\\?expires=\\d+&signature=`));
      const file = await fetch(link ?? '');
      assert.equal(file.status, 200);
      assert.deepEqual(Buffer.from(await file.arrayBuffer()), guideBytes);
      assert.equal(page.headers.get('cache-control'), 'private, no-store');

      const old = await browser.get(`/products/${archived.slug}`);
      assert.equal(old.status, 200, 'a holder still sees an archived product');
      assert.match(old.text, /no longer sold/);
      assert.equal(mediaLinks(old.text).length, 1);

      const mine = await browser.get('/downloads');
      assert.equal(mine.status, 200);
      assert.match(mine.text, /<h1[^>]*>My downloads<\/h1>/);
      assert.match(mine.text, new RegExp(`<a href="/products/${paid.slug}">Colour Theory Pack</a>`));
      assert.match(mine.text, /Old Pack/);
      assert.doesNotMatch(mine.text, /Free Sketch Sheets/);
      const links = mediaLinks(mine.text);
      assert.equal(links.length, 2);
      assert.equal((await fetch(links[0] ?? '')).status, 200);

      const none = await (await signedIn(server, stranger)).get('/downloads');
      assert.match(none.text, /You have no downloads yet/);
      const signedOut = await new WebClient(server.url).get('/downloads');
      assert.equal(signedOut.status, 303);
      assert.equal(signedOut.location, '/signin?return_to=%2Fdownloads');
    });

    test('staff see drafts, marked, and may download every product', async () => {
      const browser = await signedIn(server, staffPerson);
      const page = await browser.get(`/products/${draft.slug}`);
      assert.equal(page.status, 200);
      assert.match(page.text, /This product is a draft: only staff can see this page\./);
      assert.match(page.text, /Staff can download the files\./);
      assert.equal(mediaLinks(page.text).length, 1);
      assert.match(page.text, /<meta name="robots" content="noindex">/);
    });

    test('in Chromium: no serious or critical axe violation, no console error, nothing scrolls sideways on a phone', async () => {
      const browser = await launchChromium();
      const shots = screenshotDir(`product-pages-${engine}`);
      const holderCookies = (await signedIn(server, holder)).cookies;
      try {
        for (const [who, cookies] of [
          ['visitor', new Map<string, string>()],
          ['holder', holderCookies],
        ] as const) {
          for (const [size, viewport] of [
            ['phone', { width: 390, height: 844 }],
            ['desktop', { width: 1280, height: 800 }],
          ] as const) {
            const ctx = await browser.newContext({ viewport });
            await ctx.addCookies([...cookies].map(([name, value]) => ({ name, value, url: server.url })));
            const page = await ctx.newPage();
            const problems: string[] = [];
            page.on('console', (message) => {
              if (message.type() === 'error') problems.push(`${page.url()}: ${message.text()}`);
            });
            const paths = ['/products', `/products/${paid.slug}`, ...(who === 'holder' ? ['/downloads'] : [])];
            for (const path of paths) {
              const response = await page.goto(`${server.url}${path}`);
              assert.equal(response?.status(), 200, path);
              const results = await new AxeBuilder({ page }).analyze();
              const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
              assert.deepEqual(
                serious.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
                [],
                `${path} for a ${who} at ${size}`,
              );
              if (size === 'phone') {
                const width = Number(await page.evaluate('document.documentElement.scrollWidth'));
                assert.ok(width <= viewport.width, `${path} scrolls sideways on a phone (${width}px)`);
              }
              const name = `${who}-${path.split('/').filter(Boolean).join('-')}-${size}.png`;
              await photograph(page, join(shots, name));
            }
            // The browser asks for /favicon.ico, which the school does not have.
            assert.deepEqual(
              problems.filter((p) => !/status of 404/.test(p)),
              [],
              'no console errors (a CSP violation shows up here)',
            );
            await ctx.close();
          }
        }
      } finally {
        await browser.close();
      }
    });

    test('the sitemap lists /products and the published products only', async () => {
      const sitemap = await new WebClient(server.url).get('/sitemap.xml');
      const locs = [...sitemap.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => (m[1] ?? '').slice(server.url.length));
      assert.ok(locs.includes('/products'));
      assert.deepEqual(
        locs.filter((l) => l.startsWith('/products/')).sort(),
        [`/products/${free.slug}`, `/products/${paid.slug}`].sort(),
      );
    });
  });

  describe(`the product page of a school that takes no payments (${engine})`, () => {
    let server: TestServer;
    before(async () => {
      server = await startStorageServer(engine, 'local', { PAYMENTS_PROVIDER: 'none' });
      const people = await schoolWithPeople(server);
      const token = await tokenFor(server, people.staff, 'digital_products:read digital_products:write storage:write');
      const staff = apiClient(server.url, token);
      const asset = await uploadAsset(
        server,
        token,
        { purpose: 'pdf', filename: 'a.pdf', content_type: 'application/pdf' },
        pdf(),
      );
      for (const body of [{ title: 'Paid Thing', price: { amount: 900, currency: 'EUR' } }, { title: 'Free Thing' }]) {
        const made = ok<Product>(await staff.post('/api/v1/digital-products', { ...body, asset_ids: [asset.id] }), 201);
        ok(await staff.post(`/api/v1/digital-products/${made.id}/publish`));
      }
    });
    after(() => server.close());

    test('a paid product says the school does not take payments yet; a free one can still be taken', async () => {
      const visitor = new WebClient(server.url);
      const paidPage = await visitor.get('/products/paid-thing');
      assert.match(paidPage.text, /<button type="button" disabled>Buy<\/button>/);
      assert.match(paidPage.text, /This school does not take payments yet\./);
      assert.doesNotMatch(paidPage.text, /\/checkout\//);
      const freePage = await visitor.get('/products/free-thing');
      assert.match(freePage.text, /<a class="button" href="\/checkout\/product\/free-thing">Get it<\/a>/);
    });
  });
}
