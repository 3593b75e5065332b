import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newId } from '../../src/db/ids.ts';
import {
  apiClient,
  createUser,
  insufficientScopeChallenge,
  listAll,
  type Person,
  schoolWithPeople,
  tokenFor,
} from '../support/api.ts';
import { engines } from '../support/databases.ts';
import { pdf, png } from '../support/files.ts';
import { refusedOn } from '../support/refusals.ts';
import type { TestServer } from '../support/server.ts';
import { paginatesLikeEveryList, seenOnlyBy } from '../support/shared-examples.ts';
import { type Asset, startStorageServer, uploadAsset } from '../support/storage.ts';
import { unique } from '../support/unique.ts';

type Client = ReturnType<typeof apiClient>;
type ProductFile = { asset_id: string; filename: string; content_type: string; byte_size: number };
type Product = {
  id: string;
  title: string;
  slug: string;
  description: string;
  price: { amount: number; currency: string } | null;
  files: ProductFile[];
  status: string;
  published_at: string | null;
};
type Grant = {
  id: string;
  product_id: string;
  user_id: string;
  source: string;
  order_id: string | null;
  status: string;
  granted_at: string;
  revoked_at: string | null;
};
type Downloads = { product_id: string; files: (ProductFile & { url: string; expires_at: string })[] };

const STAFF_SCOPES = 'digital_products:read digital_products:write storage:write';
const STUDENT_SCOPES = 'digital_products:read digital_products:write';
const TTL_SECONDS = 120;

const ok = <T>(response: { status: number; body: unknown }, status = 200) => {
  assert.equal(response.status, status, JSON.stringify(response.body));
  return response.body as T;
};

for (const engine of engines) {
  describe(`digital products API (${engine})`, () => {
    let server: TestServer;
    let skew = 0;
    let staffToken: string;
    let staff: Client;
    let readOnly: Client;
    let otherScope: Client;
    let holderApi: Client;
    let strangerApi: Client;
    let anonymous: Client;
    let holder: Person;
    let stranger: Person;
    let handbook: Asset;
    let archive: Asset;
    const handbookBytes = pdf();
    const archiveBytes = Buffer.from(`PK-not-really-a-zip ${'x'.repeat(3000)}`);

    const now = () => new Date(Date.now() + skew);
    const db = () => server.database.db;
    const products = () => server.services.areas.digitalProducts;

    before(async () => {
      // The server's clock runs `skew` ahead of the test's: moved by hand, never waited for.
      server = await startStorageServer(
        engine,
        'local',
        { MEDIA_URL_TTL_SECONDS: String(TTL_SECONDS), SUBSCRIPTION_GRACE_DAYS: '0' },
        { clock: { now } },
      );
      const people = await schoolWithPeople(server);
      holder = people.student;
      stranger = await createUser(server, 'student', 'Sam Stranger');
      staffToken = await tokenFor(server, people.staff, STAFF_SCOPES);
      staff = apiClient(server.url, staffToken);
      readOnly = apiClient(server.url, await tokenFor(server, people.staff, 'digital_products:read'));
      otherScope = apiClient(server.url, await tokenFor(server, people.staff, 'courses:read'));
      // A student may not grant digital_products:write: it is dropped from their token.
      holderApi = apiClient(server.url, await tokenFor(server, holder, STUDENT_SCOPES));
      strangerApi = apiClient(server.url, await tokenFor(server, stranger, STUDENT_SCOPES));
      anonymous = apiClient(server.url);
      handbook = await uploadAsset(
        server,
        staffToken,
        { purpose: 'pdf', filename: 'Handbook.pdf', content_type: 'application/pdf' },
        handbookBytes,
      );
      archive = await uploadAsset(
        server,
        staffToken,
        { purpose: 'download', filename: 'Brushes.zip', content_type: 'application/zip' },
        archiveBytes,
      );
    });
    after(() => server.close());

    const create = async (body: Record<string, unknown> = {}) =>
      ok<Product>(
        await staff.post('/api/v1/digital-products', {
          title: `Brush Pack ${unique()}`,
          asset_ids: [handbook.id],
          ...body,
        }),
        201,
      );
    const published = async (body: Record<string, unknown> = {}) =>
      ok<Product>(await staff.post(`/api/v1/digital-products/${(await create(body)).id}/publish`));
    const grant = async (productId: string, userId: string, status = 201) =>
      ok<Grant>(await staff.post(`/api/v1/digital-products/${productId}/grants`, { user_id: userId }), status);

    test('every operation: anonymous, a token without the scope and a student on writes are 403', async () => {
      const id = newId('prd');
      const usr = newId('usr');
      const operations: [string, string, string, unknown?][] = [
        ['POST', '/api/v1/digital-products', 'digital_products:write', { title: 'X' }],
        ['PATCH', `/api/v1/digital-products/${id}`, 'digital_products:write', { title: 'Y' }],
        ['DELETE', `/api/v1/digital-products/${id}`, 'digital_products:write'],
        ['POST', `/api/v1/digital-products/${id}/publish`, 'digital_products:write', {}],
        ['POST', `/api/v1/digital-products/${id}/archive`, 'digital_products:write', {}],
        ['POST', `/api/v1/digital-products/${id}/grants`, 'digital_products:write', { user_id: usr }],
        ['DELETE', `/api/v1/digital-products/${id}/grants/${usr}`, 'digital_products:write'],
        ['GET', `/api/v1/digital-products/${id}/grants`, 'digital_products:read'],
        ['GET', `/api/v1/digital-products/${id}/downloads`, 'digital_products:read'],
      ];
      for (const [method, path, scope, body] of operations) {
        const callers: [string, Client][] = [
          ['anonymous', anonymous],
          ['staff without the scope', otherScope],
          ...(scope.endsWith(':write')
            ? [
                ['a student', holderApi] as [string, Client],
                ['staff with digital_products:read only', readOnly] as [string, Client],
              ]
            : []),
        ];
        for (const [who, client] of callers) {
          const response = await client.call(method, path, body);
          assert.equal(response.status, 403, `${method} ${path} as ${who}`);
          assert.equal((response.body as { error: string }).error, 'insufficient_scope');
          assert.match(response.headers.get('www-authenticate') ?? '', insufficientScopeChallenge(scope));
        }
      }
      for (const path of ['/api/v1/digital-products', `/api/v1/digital-products/${id}`]) {
        assert.equal((await otherScope.get(path)).status, 403, `${path} with a token lacking the scope`);
        assert.notEqual((await anonymous.get(path)).status, 403, `${path} serves anonymous callers`);
      }
    });

    test('create: a draft with its files in order, by name and size; get by id or slug; refusals name the field', async () => {
      const product = await create({
        title: '  Watercolour Brush Pack ',
        description: 'Brushes, explained.',
        price: { amount: 1900, currency: 'EUR' },
        asset_ids: [archive.id, handbook.id],
      });
      assert.match(product.id, /^prd_[0-9a-z]{26}$/);
      assert.equal(product.title, 'Watercolour Brush Pack');
      assert.match(product.slug, /^watercolour-brush-pack/);
      assert.equal(product.status, 'draft');
      assert.equal(product.published_at, null);
      assert.deepEqual(product.price, { amount: 1900, currency: 'EUR' });
      assert.deepEqual(product.files, [
        {
          asset_id: archive.id,
          filename: 'Brushes.zip',
          content_type: archive.content_type,
          byte_size: archiveBytes.length,
        },
        {
          asset_id: handbook.id,
          filename: 'Handbook.pdf',
          content_type: 'application/pdf',
          byte_size: handbookBytes.length,
        },
      ]);
      assert.doesNotMatch(JSON.stringify(product), /\/media\//, 'no file address in the product');
      assert.deepEqual(ok<Product>(await staff.get(`/api/v1/digital-products/${product.slug}`)), product);
      assert.deepEqual(ok<Product>(await readOnly.get(`/api/v1/digital-products/${product.id}`)), product);
      const free = await create({ asset_ids: [] });
      assert.equal(free.price, null);
      assert.deepEqual(free.files, []);

      const image = await uploadAsset(
        server,
        staffToken,
        { purpose: 'image', filename: 'cover.png', content_type: 'image/png' },
        png(2),
      );
      const refusedImage = await staff.post('/api/v1/digital-products', { title: 'P', asset_ids: [image.id] });
      refusedOn(refusedImage, 'asset_ids');
      assert.match(
        String(refusedImage.body.error_description),
        /is a image; this needs download or pdf or video or audio/,
      );
      refusedOn(await staff.post('/api/v1/digital-products', { title: 'P', asset_ids: [newId('ast')] }), 'asset_ids');
      const pending = ok<Asset>(
        await staff.post('/api/v1/storage/assets', {
          purpose: 'download',
          filename: 'later.bin',
          content_type: 'application/octet-stream',
          byte_size: 10,
        }),
        201,
      );
      refusedOn(await staff.post('/api/v1/digital-products', { title: 'P', asset_ids: [pending.id] }), 'asset_ids');
      refusedOn(
        await staff.post('/api/v1/digital-products', { title: 'P', asset_ids: [handbook.id, handbook.id] }),
        'asset_ids',
      );
      refusedOn(await staff.post('/api/v1/digital-products', { title: '   ' }), 'title');
      refusedOn(await staff.post('/api/v1/digital-products', {}), 'title');
      refusedOn(await staff.post('/api/v1/digital-products', { title: 'P', files: [] }), 'files');
      refusedOn(
        await staff.post('/api/v1/digital-products', { title: 'P', price: { amount: 1.5, currency: 'EUR' } }),
        'price.amount',
      );
      const taken = await staff.post('/api/v1/digital-products', { title: 'P', slug: product.slug });
      assert.equal(taken.status, 409);
      assert.match(String(taken.body.error_description), /already taken by another digital product/);

      const key = `product-${unique()}`;
      const body = { title: `Once ${unique()}` };
      const first = await staff.post<Product>('/api/v1/digital-products', body, { 'idempotency-key': key });
      const again = await staff.post<Product>('/api/v1/digital-products', body, { 'idempotency-key': key });
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      assert.equal(again.body.id, first.body.id);
    });

    test('update changes the given fields; asset_ids replaces the files; a published product keeps one file', async () => {
      const product = await create({ asset_ids: [handbook.id] });
      const updated = ok<Product>(
        await staff.patch(`/api/v1/digital-products/${product.id}`, {
          description: 'Now with more',
          price: { amount: 500, currency: 'USD' },
          asset_ids: [archive.id, handbook.id],
        }),
      );
      assert.equal(updated.title, product.title);
      assert.equal(updated.description, 'Now with more');
      assert.deepEqual(updated.price, { amount: 500, currency: 'USD' });
      assert.deepEqual(
        updated.files.map((f) => f.asset_id),
        [archive.id, handbook.id],
      );
      const reordered = ok<Product>(
        await staff.patch(`/api/v1/digital-products/${product.id}`, { asset_ids: [handbook.id], price: null }),
      );
      assert.deepEqual(
        reordered.files.map((f) => f.filename),
        ['Handbook.pdf'],
      );
      assert.equal(reordered.price, null);
      ok(await staff.post(`/api/v1/digital-products/${product.id}/publish`));
      const emptied = await staff.patch(`/api/v1/digital-products/${product.id}`, { asset_ids: [] });
      assert.equal(emptied.status, 409);
      assert.match(String(emptied.body.error_description), /keeps at least one file/);
      refusedOn(await staff.patch(`/api/v1/digital-products/${product.id}`, {}), 'body');
      refusedOn(await staff.patch(`/api/v1/digital-products/${product.id}`, { title: '' }), 'title');
      assert.equal((await staff.patch(`/api/v1/digital-products/${newId('prd')}`, { title: 'Gone' })).status, 404);
    });

    test('publish needs a file; draft → published → archived → published; who sees each state', async () => {
      const empty = await create({ asset_ids: [] });
      const refused = await staff.post(`/api/v1/digital-products/${empty.id}/publish`);
      assert.equal(refused.status, 409);
      assert.match(String(refused.body.error_description), /needs at least one file/);

      const product = await create();
      const principals = { anonymous, student: strangerApi, staff };
      const item = (label: string) => ({
        id: product.id,
        get: `/api/v1/digital-products/${product.slug}`,
        list: `/api/v1/digital-products?q=${encodeURIComponent(product.title)}`,
        label,
      });
      await seenOnlyBy(principals, item('a draft'), ['staff']);
      const live = ok<Product>(await staff.post(`/api/v1/digital-products/${product.id}/publish`));
      assert.equal(live.status, 'published');
      assert.ok(live.published_at);
      await seenOnlyBy(principals, item('a published product'), ['anonymous', 'student', 'staff']);
      const archived = ok<Product>(await staff.post(`/api/v1/digital-products/${product.id}/archive`));
      assert.equal(archived.status, 'archived');
      await seenOnlyBy(principals, item('an archived product'), ['staff']);
      await grant(product.id, stranger.id);
      await seenOnlyBy(principals, item('an archived product the student holds'), ['student', 'staff']);
      const again = ok<Product>(await staff.post(`/api/v1/digital-products/${product.id}/publish`));
      assert.equal(again.published_at, live.published_at, 'the first publication date is kept');
      assert.equal((await staff.post(`/api/v1/digital-products/${newId('prd')}/archive`)).status, 404);
    });

    test('delete: a draft goes; anything else is 409 saying to archive it', async () => {
      const draft = await create();
      assert.equal((await staff.delete(`/api/v1/digital-products/${draft.id}`)).status, 204);
      assert.equal((await staff.get(`/api/v1/digital-products/${draft.id}`)).status, 404);
      assert.equal((await staff.delete(`/api/v1/digital-products/${draft.id}`)).status, 404);
      const live = await published();
      const refused = await staff.delete(`/api/v1/digital-products/${live.id}`);
      assert.equal(refused.status, 409);
      assert.match(String(refused.body.error_description), /archive this one instead \(POST .*\/archive\)/);
    });

    test('the list pages like every list; filters status, q, price and held', async () => {
      const tag = `Lister ${unique()}`;
      await paginatesLikeEveryList({
        staff,
        query: `/api/v1/digital-products?q=${encodeURIComponent(tag)}`,
        make: (i) => create({ title: `${tag} ${i}`, ...(i % 2 ? { price: { amount: 100, currency: 'EUR' } } : {}) }),
        remove: (id) => staff.delete(`/api/v1/digital-products/${id}`),
      });
      const q = `q=${encodeURIComponent(tag)}`;
      assert.equal((await listAll(staff, `/api/v1/digital-products?${q}&price=paid`)).length, 1);
      assert.equal((await listAll(staff, `/api/v1/digital-products?${q}&price=free`)).length, 3);
      const mine = await published({ title: `${tag} held` });
      assert.equal((await listAll(staff, `/api/v1/digital-products?${q}&status=published`)).length, 1);
      assert.equal((await listAll(staff, `/api/v1/digital-products?${q}&status=draft`)).length, 4);
      assert.equal((await listAll(anonymous, `/api/v1/digital-products?${q}`)).length, 1, 'anonymous: published only');
      await grant(mine.id, holder.id);
      assert.deepEqual(
        (await listAll(holderApi, `/api/v1/digital-products?${q}&held=true`)).map((p) => p.id),
        [mine.id],
      );
      assert.deepEqual(await listAll(strangerApi, `/api/v1/digital-products?${q}&held=true`), []);
      assert.equal((await listAll(holderApi, `/api/v1/digital-products?${q}&held=false`)).length, 0);
      assert.deepEqual(await listAll(anonymous, `/api/v1/digital-products?${q}&held=true`), []);
      refusedOn(await staff.get('/api/v1/digital-products?status=sold'), 'status');
    });

    test('grants: 201 new, 200 held already; revoked is kept and reopened by granting again; students see their own', async () => {
      const product = await published();
      const first = await grant(product.id, holder.id);
      assert.match(first.id, /^pgr_[0-9a-z]{26}$/);
      assert.equal(first.status, 'active');
      assert.equal(first.source, 'manual');
      assert.equal(first.order_id, null);
      assert.equal(first.revoked_at, null);
      assert.equal((await grant(product.id, holder.id, 200)).id, first.id);
      await grant(product.id, stranger.id);

      const all = await listAll<Grant>(staff, `/api/v1/digital-products/${product.id}/grants`);
      assert.deepEqual(all.map((g) => g.user_id).sort(), [holder.id, stranger.id].sort());
      const own = await listAll<Grant>(holderApi, `/api/v1/digital-products/${product.slug}/grants`);
      assert.deepEqual(
        own.map((g) => g.user_id),
        [holder.id],
      );

      const revoked = ok<Grant>(await staff.delete(`/api/v1/digital-products/${product.id}/grants/${holder.id}`));
      assert.equal(revoked.status, 'revoked');
      assert.ok(revoked.revoked_at);
      const twice = ok<Grant>(await staff.delete(`/api/v1/digital-products/${product.id}/grants/${holder.id}`));
      assert.equal(twice.revoked_at, revoked.revoked_at, 'revoking again changes nothing');
      assert.equal((await holderApi.get(`/api/v1/digital-products/${product.id}/downloads`)).status, 404);
      assert.deepEqual(
        (await listAll<Grant>(staff, `/api/v1/digital-products/${product.id}/grants?status=revoked`)).map((g) => g.id),
        [first.id],
      );
      const reopened = await grant(product.id, holder.id, 200);
      assert.equal(reopened.id, first.id);
      assert.equal(reopened.status, 'active');
      assert.equal(
        ok<Downloads>(await holderApi.get(`/api/v1/digital-products/${product.id}/downloads`)).files.length,
        1,
      );

      refusedOn(
        await staff.post(`/api/v1/digital-products/${product.id}/grants`, { user_id: newId('usr') }),
        'user_id',
      );
      refusedOn(await staff.post(`/api/v1/digital-products/${product.id}/grants`, {}), 'user_id');
      assert.equal(
        (await staff.post(`/api/v1/digital-products/${newId('prd')}/grants`, { user_id: holder.id })).status,
        404,
      );
      const other = await create();
      assert.equal((await staff.delete(`/api/v1/digital-products/${other.id}/grants/${holder.id}`)).status, 404);
      assert.equal((await strangerApi.get(`/api/v1/digital-products/${other.id}/grants`)).status, 404, 'a draft');
      const key = `grant-${unique()}`;
      const once = await staff.post<Grant>(
        `/api/v1/digital-products/${other.id}/grants`,
        { user_id: stranger.id },
        {
          'idempotency-key': key,
        },
      );
      const replay = await staff.post<Grant>(
        `/api/v1/digital-products/${other.id}/grants`,
        { user_id: stranger.id },
        {
          'idempotency-key': key,
        },
      );
      assert.equal(once.status, 201);
      assert.equal(replay.status, 201);
      assert.equal(replay.headers.get('idempotent-replayed'), 'true');
    });

    test('downloads: a holder gets signed links that serve the bytes until they expire; others 404', async () => {
      const product = await published({ asset_ids: [handbook.id, archive.id] });
      const path = `/api/v1/digital-products/${product.id}/downloads`;
      assert.equal((await strangerApi.get(path)).status, 404);
      assert.equal((await holderApi.get(path)).status, 404, 'not yet a holder');
      assert.equal((await staff.get(`/api/v1/digital-products/${newId('prd')}/downloads`)).status, 404);
      const forStaff = ok<Downloads>(await readOnly.get(path));
      assert.equal(forStaff.files.length, 2, 'staff download without holding');

      await grant(product.id, holder.id);
      // The clock runs in real time: the second the server signed in lies between these two.
      const second = () => Math.floor(now().getTime() / 1000) * 1000;
      const asked = second();
      const links = ok<Downloads>(await holderApi.get(`/api/v1/digital-products/${product.slug}/downloads`));
      const answered = second();
      assert.equal(links.product_id, product.id);
      assert.deepEqual(
        links.files.map((f) => [f.filename, f.byte_size]),
        [
          ['Handbook.pdf', handbookBytes.length],
          ['Brushes.zip', archiveBytes.length],
        ],
      );
      const zip = links.files[1] as Downloads['files'][number];
      assert.match(zip.url, new RegExp(`^${server.url}/media/${archive.id}\\?expires=\\d+&signature=`));
      const expires = Date.parse(zip.expires_at) - TTL_SECONDS * 1000;
      assert.ok(
        expires >= asked && expires <= answered,
        `expires ${zip.expires_at}: ${TTL_SECONDS} s after the signing`,
      );
      const served = await fetch(zip.url);
      assert.equal(served.status, 200);
      assert.match(served.headers.get('content-disposition') ?? '', /^attachment; filename="Brushes.zip"/);
      assert.deepEqual(Buffer.from(await served.arrayBuffer()), archiveBytes);
      const handbookServed = await fetch((links.files[0] as Downloads['files'][number]).url);
      assert.deepEqual(Buffer.from(await handbookServed.arrayBuffer()), handbookBytes);
      assert.equal((await fetch(`${server.url}/media/${archive.id}`)).status, 404, 'never without the signature');

      skew = (TTL_SECONDS + 1) * 1000;
      try {
        const expired = await fetch(zip.url);
        assert.equal(expired.status, 403);
        assert.match(((await expired.json()) as { error_description: string }).error_description, /expired/);
        const fresh = ok<Downloads>(await holderApi.get(path));
        const again = await fetch((fresh.files[1] as Downloads['files'][number]).url);
        assert.equal(again.status, 200, 'asking again gives working links');
        assert.deepEqual(Buffer.from(await again.arrayBuffer()), archiveBytes);
      } finally {
        skew = 0;
      }

      ok(await staff.post(`/api/v1/digital-products/${product.id}/archive`));
      assert.equal(ok<Downloads>(await holderApi.get(path)).files.length, 2, 'holders keep an archived product');
    });

    test('a plan held now that includes the product opens its downloads, until the membership ends', async () => {
      const product = await published();
      // The membership plans and subscriptions areas are built beside this one: their rows are written directly.
      const at = now().toISOString();
      const planId = newId('pln');
      const priceId = newId('ppr');
      await db()
        .insertInto('membership_plans')
        .values({
          id: planId,
          name: 'Gold',
          slug: `gold-${unique()}`,
          description: '',
          benefits: '[]',
          visibility: 'public',
          status: 'active',
          archived_at: null,
          created_at: at,
          updated_at: at,
        })
        .execute();
      await db().insertInto('plan_products').values({ plan_id: planId, product_id: product.id }).execute();
      await db()
        .insertInto('plan_prices')
        .values({
          id: priceId,
          plan_id: planId,
          amount: 1000,
          currency: 'EUR',
          interval: 'month',
          trial_days: 0,
          status: 'active',
          provider_price_id: null,
          archived_at: null,
          created_at: at,
        })
        .execute();
      await db()
        .insertInto('subscriptions')
        .values({
          id: newId('sub'),
          user_id: stranger.id,
          plan_id: planId,
          price_id: priceId,
          status: 'active',
          trial_end: null,
          current_period_start: at,
          current_period_end: new Date(now().getTime() + 60_000).toISOString(),
          canceled_at: null,
          paused_at: null,
          next_price_id: null,
          provider: 'test',
          provider_ref: null,
          provider_synced_at: null,
          order_id: null,
          created_at: at,
          updated_at: at,
        })
        .execute();
      const path = `/api/v1/digital-products/${product.id}/downloads`;
      assert.equal(ok<Downloads>(await strangerApi.get(path)).files.length, 1);
      const held = async () => (await listAll(strangerApi, '/api/v1/digital-products?held=true')).map((p) => p.id);
      assert.ok((await held()).includes(product.id));
      skew = 61_000;
      try {
        assert.equal((await strangerApi.get(path)).status, 404, 'the period ended (no grace days here)');
        assert.ok(!(await held()).includes(product.id));
      } finally {
        skew = 0;
      }
    });

    test('for the checkout: forSale sells published products only; an order grant is taken back by its refund', async () => {
      const product = await published({ price: { amount: 2500, currency: 'EUR' } });
      assert.deepEqual(await products().forSale(db(), product.slug), {
        id: product.id,
        title: product.title,
        slug: product.slug,
        price: { amount: 2500, currency: 'EUR' },
      });
      const draft = await create();
      await assert.rejects(products().forSale(db(), draft.id), /No such digital product/);
      await assert.rejects(products().forSale(db(), 'no-such-product'), /No such digital product/);

      const buyer = await createUser(server, 'student', `Buyer ${unique()}`);
      const order = async () => {
        const id = newId('ord');
        const stamp = now().toISOString();
        await db()
          .insertInto('orders')
          .values({
            id,
            number: Math.floor(Math.random() * 1e9),
            user_id: buyer.id,
            kind: 'purchase',
            status: 'paid',
            currency: 'EUR',
            subtotal: 2500,
            discount: 0,
            total: 2500,
            coupon_id: null,
            coupon_code: null,
            provider: 'test',
            provider_ref: null,
            subscription_id: null,
            failure_reason: null,
            paid_at: stamp,
            created_at: stamp,
            updated_at: stamp,
          })
          .execute();
        return id;
      };
      const grantsOf = () => listAll<Grant>(staff, `/api/v1/digital-products/${product.id}/grants?user_id=${buyer.id}`);
      const first = await order();
      const made = await db()
        .transaction()
        .execute((trx) =>
          products().grant(trx, { productId: product.id, userId: buyer.id, source: 'order', orderId: first }),
        );
      assert.equal(made.created, true);
      assert.equal(made.grant.source, 'order');
      assert.equal(made.grant.order_id, first);
      const second = await order();
      await db()
        .transaction()
        .execute((trx) =>
          products().grant(trx, { productId: product.id, userId: buyer.id, source: 'order', orderId: second }),
        );
      assert.equal((await grantsOf())[0]?.order_id, first, 'an active grant is left as it is');
      await db()
        .transaction()
        .execute((trx) => products().revokeForOrder(trx, second));
      assert.equal((await grantsOf())[0]?.status, 'active', "another order's refund takes nothing back");
      await db()
        .transaction()
        .execute((trx) => products().revokeForOrder(trx, first));
      assert.equal((await grantsOf())[0]?.status, 'revoked', 'the full refund takes it back');
      const third = await order();
      const reopened = await db()
        .transaction()
        .execute((trx) =>
          products().grant(trx, { productId: product.id, userId: buyer.id, source: 'order', orderId: third }),
        );
      assert.equal(reopened.created, false);
      assert.equal(reopened.grant.id, made.grant.id);
      assert.equal(reopened.grant.status, 'active');
      assert.equal(reopened.grant.order_id, third);
    });
  });
}
