import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiClient, listAll, schoolWithPeople, tokenFor } from '../support/api.ts';
import { engines } from '../support/databases.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { paginatesLikeEveryList, seenOnlyBy } from '../support/shared-examples.ts';

type Page = {
  id: string;
  title: string;
  slug: string;
  draft_body?: string;
  published_body: string | null;
  seo_title: string | null;
  seo_description: string | null;
  status: string;
  published_at: string | null;
};
type List = { data: Page[]; has_more: boolean; next_cursor: string | null };

for (const engine of engines) {
  describe(`pages API (${engine})`, () => {
    let server: TestServer;
    let staff: ReturnType<typeof apiClient>;
    let studentApi: ReturnType<typeof apiClient>;
    let anonymous: ReturnType<typeof apiClient>;
    let readOnlyStaff: ReturnType<typeof apiClient>;
    let otherScope: ReturnType<typeof apiClient>;

    before(async () => {
      server = await startTestServer(engine);
      const people = await schoolWithPeople(server);
      staff = apiClient(server.url, await tokenFor(server, people.staff, 'pages:read pages:write'));
      readOnlyStaff = apiClient(server.url, await tokenFor(server, people.staff, 'pages:read'));
      otherScope = apiClient(server.url, await tokenFor(server, people.staff, 'posts:read'));
      studentApi = apiClient(server.url, await tokenFor(server, people.student, 'pages:read pages:write'));
      anonymous = apiClient(server.url);
    });
    after(() => server.close());

    const create = async (body: Record<string, unknown>) => {
      const response = await staff.post<Page>('/api/v1/pages', body);
      assert.equal(response.status, 201, JSON.stringify(response.body));
      return response.body;
    };
    const published = async (body: Record<string, unknown>) => {
      const page = await create({ draft_body: 'Live text', ...body });
      const response = await staff.post<Page>(`/api/v1/pages/${page.id}/publish`);
      assert.equal(response.status, 200, JSON.stringify(response.body));
      return response.body;
    };

    test('create makes a draft with a slug from the title; get by id and by slug', async () => {
      const page = await create({ title: 'About Us', draft_body: 'We teach.', seo_title: 'About the school' });
      assert.match(page.id, /^pag_[0-9a-z]{26}$/);
      assert.equal(page.slug, 'about-us');
      assert.equal(page.status, 'draft');
      assert.equal(page.draft_body, 'We teach.');
      assert.equal(page.published_body, null);
      assert.equal(page.published_at, null);
      assert.equal(page.seo_title, 'About the school');
      assert.equal(page.seo_description, null);
      assert.equal((await staff.get<Page>(`/api/v1/pages/${page.id}`)).body.title, 'About Us');
      assert.equal((await staff.get<Page>('/api/v1/pages/about-us')).body.id, page.id);
      const again = await create({ title: 'About Us' });
      assert.match(again.slug, /^about-us-[0-9a-f]{6}$/, 'a taken derived slug gets a suffix');
    });

    test('update changes only the given fields; a taken slug is 409 with a message', async () => {
      const a = await create({ title: 'Slug A', draft_body: 'a', seo_description: 'desc' });
      const b = await create({ title: 'Slug B' });
      const updated = await staff.patch<Page>(`/api/v1/pages/${a.id}`, { seo_title: 'New SEO', seo_description: null });
      assert.equal(updated.status, 200);
      assert.equal(updated.body.title, 'Slug A');
      assert.equal(updated.body.draft_body, 'a');
      assert.equal(updated.body.seo_title, 'New SEO');
      assert.equal(updated.body.seo_description, null);
      assert.equal((await staff.get<Page>(`/api/v1/pages/${a.id}`)).body.seo_title, 'New SEO');
      const renamed = await staff.patch<Page>(`/api/v1/pages/${a.id}`, { slug: 'slug-a-renamed' });
      assert.equal(renamed.body.slug, 'slug-a-renamed');
      const taken = await staff.patch(`/api/v1/pages/${a.id}`, { slug: b.slug });
      assert.equal(taken.status, 409);
      assert.equal(taken.body.error, 'conflict');
      assert.match(String(taken.body.error_description), /"slug-b" is already taken.*choose another one/);
      const takenOnCreate = await staff.post('/api/v1/pages', { title: 'X', slug: b.slug });
      assert.equal(takenOnCreate.status, 409);
      const blank = await staff.patch(`/api/v1/pages/${a.id}`, { title: '   ' });
      assert.equal(blank.status, 400);
      assert.match(String(blank.body.error_description), /needs a title/);
      const missing = await staff.patch(`/api/v1/pages/pag_${'0'.repeat(26)}`, { title: 'Gone' });
      assert.equal(missing.status, 404);
      const missingWithTakenSlug = await staff.patch(`/api/v1/pages/pag_${'0'.repeat(26)}`, { slug: b.slug });
      assert.equal(missingWithTakenSlug.status, 404, 'a page that does not exist is 404 before any slug rule');
    });

    test('publish copies the draft to the live body; edits stay in the draft until the next publish', async () => {
      const page = await create({ title: 'Terms', draft_body: 'Version one' });
      const first = await staff.post<Page>(`/api/v1/pages/${page.id}/publish`);
      assert.equal(first.status, 200);
      assert.equal(first.body.status, 'published');
      assert.equal(first.body.published_body, 'Version one');
      assert.ok(first.body.published_at && Date.parse(first.body.published_at) > Date.now() - 60_000);

      await staff.patch(`/api/v1/pages/${page.id}`, { draft_body: 'Version two (secret edit)' });
      const seen = await anonymous.get<Page>(`/api/v1/pages/${page.slug}`);
      assert.equal(seen.status, 200);
      assert.equal(seen.body.published_body, 'Version one');
      assert.ok(!('draft_body' in seen.body), 'anonymous never gets the draft body');
      assert.doesNotMatch(JSON.stringify(seen.body), /secret edit/);
      const staffView = await staff.get<Page>(`/api/v1/pages/${page.id}`);
      assert.equal(staffView.body.draft_body, 'Version two (secret edit)');
      assert.equal(staffView.body.published_body, 'Version one');

      const second = await staff.post<Page>(`/api/v1/pages/${page.id}/publish`);
      assert.equal(second.body.published_body, 'Version two (secret edit)');
      assert.equal(
        (await anonymous.get<Page>(`/api/v1/pages/${page.id}`)).body.published_body,
        'Version two (secret edit)',
      );

      const unpublished = await staff.post<Page>(`/api/v1/pages/${page.id}/unpublish`);
      assert.equal(unpublished.status, 200);
      assert.equal(unpublished.body.status, 'draft');
      assert.equal(unpublished.body.published_body, null);
      assert.equal(unpublished.body.published_at, null);
      assert.equal(unpublished.body.draft_body, 'Version two (secret edit)');
      assert.equal((await anonymous.get(`/api/v1/pages/${page.id}`)).status, 404);
      const again = await staff.post<Page>(`/api/v1/pages/${page.id}/unpublish`);
      assert.equal(again.status, 200, 'unpublishing a draft changes nothing');
      assert.equal(again.body.status, 'draft');
    });

    test('state rules: publishing needs a body; a published page cannot be deleted; drafts can', async () => {
      const empty = await create({ title: 'Empty Page', draft_body: '  ' });
      const refused = await staff.post(`/api/v1/pages/${empty.id}/publish`);
      assert.equal(refused.status, 409);
      assert.match(String(refused.body.error_description), /needs its text.*PATCH \/api\/v1\/pages\//);
      assert.equal((await staff.get<Page>(`/api/v1/pages/${empty.id}`)).body.status, 'draft');

      const live = await published({ title: 'Live Page' });
      const deleteRefused = await staff.delete(`/api/v1/pages/${live.id}`);
      assert.equal(deleteRefused.status, 409);
      assert.match(String(deleteRefused.body.error_description), /unpublish it first/);
      await staff.post(`/api/v1/pages/${live.id}/unpublish`);
      assert.equal((await staff.delete(`/api/v1/pages/${live.id}`)).status, 204);
      assert.equal((await staff.get(`/api/v1/pages/${live.id}`)).status, 404);
      assert.equal((await staff.delete(`/api/v1/pages/${live.id}`)).status, 404);
      assert.equal((await staff.post(`/api/v1/pages/${live.id}/publish`)).status, 404);
    });

    test('races: delete vs publish of one draft never both succeed; the answers match the row', async () => {
      for (let round = 0; round < 10; round++) {
        const draft = await create({ title: `Race ${round}`, draft_body: 'Text' });
        const [deleted, publishedNow] = await Promise.all([
          staff.delete(`/api/v1/pages/${draft.id}`),
          staff.post<Page>(`/api/v1/pages/${draft.id}/publish`),
        ]);
        const after = await staff.get<Page>(`/api/v1/pages/${draft.id}`);
        if (deleted.status === 204) {
          assert.equal(publishedNow.status, 404, `round ${round}: a deleted page cannot also be published`);
          assert.equal(after.status, 404);
        } else {
          assert.equal(deleted.status, 409, `round ${round}: ${JSON.stringify(deleted.body)}`);
          assert.equal(publishedNow.status, 200);
          assert.equal(after.body.status, 'published');
        }
      }
    });

    test('races: emptying the draft while publishing never publishes an empty body', async () => {
      for (let round = 0; round < 10; round++) {
        const draft = await create({ title: `Empty Race ${round}`, draft_body: 'Text' });
        const [emptied, publishedNow] = await Promise.all([
          staff.patch<Page>(`/api/v1/pages/${draft.id}`, { draft_body: '' }),
          staff.post<Page>(`/api/v1/pages/${draft.id}/publish`),
        ]);
        assert.equal(emptied.status, 200);
        const after = (await staff.get<Page>(`/api/v1/pages/${draft.id}`)).body;
        if (publishedNow.status === 200) assert.equal(after.published_body, 'Text');
        else assert.equal(publishedNow.status, 409, `round ${round}: ${JSON.stringify(publishedNow.body)}`);
        assert.equal(after.draft_body, '');
      }
    });

    test('validation: unknown field, wrong type, too long, missing title, bad id, empty update', async () => {
      const unknown = await staff.post('/api/v1/pages', { title: 'x', body: 'not a field' });
      assert.equal(unknown.status, 400);
      assert.equal(unknown.body.error, 'invalid_request');
      assert.deepEqual((unknown.body.errors as { field: string; code: string }[])[0]?.field, 'body');
      assert.equal((unknown.body.errors as { code: string }[])[0]?.code, 'unknown_field');
      const wrongType = await staff.post('/api/v1/pages', { title: 'x', seo_title: 12 });
      assert.equal(wrongType.status, 400);
      const tooLong = await staff.post('/api/v1/pages', { title: 'x'.repeat(201) });
      assert.equal(tooLong.status, 400);
      assert.equal((tooLong.body.errors as { field: string }[])[0]?.field, 'title');
      const seoTooLong = await staff.post('/api/v1/pages', { title: 'x', seo_description: 'd'.repeat(501) });
      assert.equal(seoTooLong.status, 400);
      const badSlug = await staff.post('/api/v1/pages', { title: 'x', slug: 'Not A Slug' });
      assert.equal(badSlug.status, 400);
      const noTitle = await staff.post('/api/v1/pages', { draft_body: 'x' });
      assert.equal(noTitle.status, 400);
      assert.equal((await staff.patch('/api/v1/pages/not-an-id', { title: 'y' })).status, 400);
      const page = await create({ title: 'Valid' });
      assert.equal((await staff.patch(`/api/v1/pages/${page.id}`, {})).status, 400);
      assert.equal((await staff.patch(`/api/v1/pages/${page.id}`, { status: 'published' })).status, 400);
    });

    test('the three principals: anonymous and students see published pages only; staff see all', async () => {
      const live = await published({ title: 'Principal Live', draft_body: 'live body' });
      const draft = await create({ title: 'Principal Draft', draft_body: 'draft body' });
      const principals = { anonymous, student: studentApi, staff: readOnlyStaff };
      await seenOnlyBy(principals, { id: live.id, get: `/api/v1/pages/${live.slug}`, list: '/api/v1/pages' }, [
        'anonymous',
        'student',
        'staff',
      ]);
      await seenOnlyBy(principals, { id: draft.id, get: `/api/v1/pages/${draft.slug}`, list: '/api/v1/pages' }, [
        'staff',
      ]);
      for (const [name, client] of [
        ['anonymous', anonymous],
        ['student', studentApi],
      ] as const) {
        const all = await listAll<Page>(client, '/api/v1/pages');
        assert.ok(
          all.some((p) => p.id === live.id),
          `${name} lists the published page`,
        );
        assert.ok(!all.some((p) => p.id === draft.id), `${name} does not list the draft`);
        assert.ok(
          all.every((p) => p.status === 'published' && !('draft_body' in p)),
          `${name} gets no drafts and no draft bodies`,
        );
        assert.equal((await client.get(`/api/v1/pages/${draft.id}`)).status, 404, name);
        assert.equal((await client.get(`/api/v1/pages/${draft.slug}`)).status, 404, name);
        assert.equal((await client.get<Page>(`/api/v1/pages/${live.slug}`)).body.published_body, 'live body');
        assert.equal((await client.get<List>('/api/v1/pages?status=draft')).body.data.length, 0, name);
      }
      const staffList = await listAll<Page>(readOnlyStaff, '/api/v1/pages');
      assert.ok(staffList.some((p) => p.id === draft.id && p.draft_body === 'draft body'));
      assert.ok(staffList.some((p) => p.id === live.id && p.draft_body === 'live body'));
    });

    test('writes need pages:write: anonymous and students get 403 insufficient_scope, never 401', async () => {
      const anon = await anonymous.post('/api/v1/pages', { title: 'Nope' });
      assert.equal(anon.status, 403);
      assert.equal(anon.body.error, 'insufficient_scope');
      assert.match(
        anon.headers.get('www-authenticate') ?? '',
        new RegExp(
          `^Bearer error="insufficient_scope", error_description="[^"]+", scope="pages:write", ` +
            `resource_metadata="${server.url}/.well-known/oauth-protected-resource"$`,
        ),
      );
      const stu = await studentApi.post('/api/v1/pages', { title: 'Nope' });
      assert.equal(stu.status, 403);
      assert.equal(stu.body.error, 'insufficient_scope');
      const page = await create({ title: 'Scope Target', draft_body: 'x' });
      for (const [method, path] of [
        ['PATCH', `/api/v1/pages/${page.id}`],
        ['DELETE', `/api/v1/pages/${page.id}`],
        ['POST', `/api/v1/pages/${page.id}/publish`],
        ['POST', `/api/v1/pages/${page.id}/unpublish`],
      ] as const) {
        const response = await readOnlyStaff.call(method, path, method === 'PATCH' ? { title: 'y' } : undefined);
        assert.equal(response.status, 403, `${method} ${path}`);
        assert.match(response.headers.get('www-authenticate') ?? '', /scope="pages:write"/);
      }
      const noRead = await otherScope.get('/api/v1/pages');
      assert.equal(noRead.status, 403, 'a token without pages:read is refused, not served the public view');
      assert.match(noRead.headers.get('www-authenticate') ?? '', /error="insufficient_scope".*scope="pages:read"/);
      assert.equal((await staff.get<Page>(`/api/v1/pages/${page.id}`)).body.status, 'draft');
    });

    test('list filters and cursor pagination, across a page boundary and a deleted cursor item', async () => {
      const tag = `Paginate ${Date.now().toString(36)}`;
      const query = `/api/v1/pages?q=${encodeURIComponent(tag.toUpperCase())}`;
      await paginatesLikeEveryList({
        staff,
        query,
        make: (i) => create({ title: `${tag} ${i}`, draft_body: `body ${i}` }),
        remove: async (id) => assert.equal((await staff.delete(`/api/v1/pages/${id}`)).status, 204),
      });
      const [oldest] = (await listAll<Page>(staff, query)).reverse();
      await staff.post(`/api/v1/pages/${oldest?.id}/publish`);
      assert.equal((await listAll<Page>(staff, `${query}&status=draft`)).length, 3);
      assert.deepEqual(
        (await listAll<Page>(staff, `${query}&status=published`)).map((p) => p.title),
        [`${tag} 0`],
      );
      assert.equal((await staff.get(`${query}&status=archived`)).status, 400);
    });

    test('Idempotency-Key replays the first create', async () => {
      const key = `page-${Date.now()}`;
      const first = await staff.post<Page>('/api/v1/pages', { title: 'Once Page' }, { 'idempotency-key': key });
      const again = await staff.post<Page>('/api/v1/pages', { title: 'Once Page' }, { 'idempotency-key': key });
      assert.equal(first.status, 201);
      assert.equal(again.body.id, first.body.id);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
    });
  });
}
