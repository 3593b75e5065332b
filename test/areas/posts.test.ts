import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Agent, setGlobalDispatcher } from 'undici';
import { newId } from '../../src/db/ids.ts';
import { apiClient, createUser, listAll, type Person, schoolWithPeople, tokenFor } from '../support/api.ts';
import { engines } from '../support/databases.ts';
import { ok, planWithPrice, subscribe } from '../support/memberships.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { paginatesLikeEveryList, seenOnlyBy } from '../support/shared-examples.ts';
import { WebClient } from '../support/web-client.ts';

type Post = {
  id: string;
  title: string;
  slug: string;
  body: string;
  excerpt: string;
  cover_url: string | null;
  tags: string[];
  visibility: string;
  plan_ids: string[];
  status: string;
  scheduled_at: string | null;
  published_at: string | null;
};
type List = { data: Post[]; has_more: boolean; next_cursor: string | null };

for (const engine of engines) {
  describe(`posts API (${engine})`, () => {
    let server: TestServer;
    let tokens: { staff: string; readOnly: string; student: string; otherScope: string };
    let staff: ReturnType<typeof apiClient>;
    let readOnlyStaff: ReturnType<typeof apiClient>;
    let studentApi: ReturnType<typeof apiClient>;
    let otherScope: ReturnType<typeof apiClient>;
    let anonymous: ReturnType<typeof apiClient>;
    let student: Person;
    let staffPerson: Person;

    const connect = () => {
      staff = apiClient(server.url, tokens.staff);
      readOnlyStaff = apiClient(server.url, tokens.readOnly);
      studentApi = apiClient(server.url, tokens.student);
      otherScope = apiClient(server.url, tokens.otherScope);
      anonymous = apiClient(server.url);
    };

    before(async () => {
      server = await startTestServer(engine, { OAUTH_REGISTRATIONS_PER_HOUR: '1000' });
      const people = await schoolWithPeople(server);
      student = people.student;
      staffPerson = people.staff;
      tokens = {
        staff: await tokenFor(server, people.staff, 'posts:read posts:write'),
        readOnly: await tokenFor(server, people.staff, 'posts:read'),
        student: await tokenFor(server, student, 'posts:read posts:write'),
        otherScope: await tokenFor(server, people.staff, 'pages:read'),
      };
      connect();
    });
    after(() => server.close());

    const create = async (body: Record<string, unknown>) => {
      const response = await staff.post<Post>('/api/v1/posts', body);
      assert.equal(response.status, 201, JSON.stringify(response.body));
      return response.body;
    };
    const published = async (body: Record<string, unknown>) => {
      const post = await create(body);
      const response = await staff.post<Post>(`/api/v1/posts/${post.id}/publish`);
      assert.equal(response.status, 200, JSON.stringify(response.body));
      return response.body;
    };
    const inFuture = (ms: number) => new Date(Date.now() + ms).toISOString();

    test('create makes a public draft with a slug from the title; get by id and by slug', async () => {
      const post = await create({
        title: 'Spring Term News',
        body: 'Hello',
        excerpt: 'Short',
        cover_url: 'https://cdn.example/cover.jpg',
        tags: ['news', 'term'],
      });
      assert.match(post.id, /^pst_[0-9a-z]{26}$/);
      assert.equal(post.slug, 'spring-term-news');
      assert.equal(post.status, 'draft');
      assert.equal(post.visibility, 'public');
      assert.deepEqual(post.tags, ['news', 'term']);
      assert.deepEqual(post.plan_ids, []);
      assert.equal(post.scheduled_at, null);
      assert.equal(post.published_at, null);
      assert.equal((await staff.get<Post>(`/api/v1/posts/${post.id}`)).body.excerpt, 'Short');
      assert.equal((await staff.get<Post>('/api/v1/posts/spring-term-news')).body.id, post.id);
    });

    test('update changes only the given fields; a taken slug is 409; blank title is 400', async () => {
      const a = await create({ title: 'Post A', body: 'a body', tags: ['x'] });
      const b = await create({ title: 'Post B' });
      const updated = await staff.patch<Post>(`/api/v1/posts/${a.id}`, { excerpt: 'New excerpt', tags: [] });
      assert.equal(updated.status, 200);
      assert.equal(updated.body.title, 'Post A');
      assert.equal(updated.body.body, 'a body');
      assert.equal(updated.body.excerpt, 'New excerpt');
      assert.deepEqual((await staff.get<Post>(`/api/v1/posts/${a.id}`)).body.tags, []);
      const taken = await staff.patch(`/api/v1/posts/${a.id}`, { slug: b.slug });
      assert.equal(taken.status, 409);
      assert.match(String(taken.body.error_description), /"post-b" is already taken.*choose another one/);
      assert.equal((await staff.post('/api/v1/posts', { title: 'X', slug: b.slug })).status, 409);
      assert.equal((await staff.patch(`/api/v1/posts/${a.id}`, { title: ' ' })).status, 400);
      assert.equal((await staff.patch(`/api/v1/posts/pst_${'0'.repeat(26)}`, { title: 'Gone' })).status, 404);
      assert.equal((await staff.patch(`/api/v1/posts/pst_${'0'.repeat(26)}`, { slug: b.slug })).status, 404);
    });

    test('visibility: "plans" needs plan_ids, plan_ids need "plans", leaving "plans" clears them', async () => {
      const noPlans = await staff.post('/api/v1/posts', { title: 'P', visibility: 'plans' });
      assert.equal(noPlans.status, 400);
      assert.match(String(noPlans.body.error_description), /needs at least one plan id in plan_ids/);
      const emptyPlans = await staff.post('/api/v1/posts', { title: 'P', visibility: 'plans', plan_ids: [] });
      assert.equal(emptyPlans.status, 400);
      const stray = await staff.post('/api/v1/posts', { title: 'P', plan_ids: ['pln_gold'] });
      assert.equal(stray.status, 400);
      assert.match(String(stray.body.error_description), /only to visibility "plans"/);

      const post = await create({ title: 'Gold Only', visibility: 'plans', plan_ids: ['pln_gold'] });
      assert.deepEqual(post.plan_ids, ['pln_gold']);
      const morePlans = await staff.patch<Post>(`/api/v1/posts/${post.id}`, { plan_ids: ['pln_gold', 'pln_silver'] });
      assert.deepEqual(morePlans.body.plan_ids, ['pln_gold', 'pln_silver']);
      assert.equal((await staff.patch(`/api/v1/posts/${post.id}`, { plan_ids: [] })).status, 400);
      const toMembers = await staff.patch<Post>(`/api/v1/posts/${post.id}`, { visibility: 'members' });
      assert.equal(toMembers.body.visibility, 'members');
      assert.deepEqual(toMembers.body.plan_ids, []);
      assert.deepEqual((await staff.get<Post>(`/api/v1/posts/${post.id}`)).body.plan_ids, []);
      assert.equal((await staff.patch(`/api/v1/posts/${post.id}`, { visibility: 'plans' })).status, 400);
    });

    test('publish, schedule and unpublish; the state rules', async () => {
      const post = await create({ title: 'Lifecycle', body: 'text' });
      const past = await staff.post(`/api/v1/posts/${post.id}/schedule`, { publish_at: '2020-01-01T00:00:00Z' });
      assert.equal(past.status, 400);
      assert.match(String(past.body.error_description), /must be in the future.*\/publish/);
      assert.equal((await staff.post(`/api/v1/posts/${post.id}/schedule`, {})).status, 400);
      assert.equal((await staff.post(`/api/v1/posts/${post.id}/schedule`, { publish_at: 'tomorrow' })).status, 400);
      const extra = await staff.post(`/api/v1/posts/${post.id}/schedule`, { publish_at: inFuture(60_000), now: 1 });
      assert.equal(extra.status, 400);

      const at = new Date(Date.now() + 3_600_000);
      const offset = `${at.toISOString().slice(0, 19)}+00:00`;
      const scheduled = await staff.post<Post>(`/api/v1/posts/${post.id}/schedule`, { publish_at: offset });
      assert.equal(scheduled.status, 200);
      assert.equal(scheduled.body.status, 'scheduled');
      assert.equal(scheduled.body.scheduled_at, `${at.toISOString().slice(0, 19)}.000Z`, 'stored as UTC');
      assert.equal(scheduled.body.published_at, null);
      assert.equal((await anonymous.get(`/api/v1/posts/${post.id}`)).status, 404, 'scheduled is not public yet');
      const later = inFuture(7_200_000);
      const moved = await staff.post<Post>(`/api/v1/posts/${post.id}/schedule`, { publish_at: later });
      assert.equal(moved.body.scheduled_at, later, 'a scheduled post can be rescheduled');

      const now = await staff.post<Post>(`/api/v1/posts/${post.id}/publish`);
      assert.equal(now.body.status, 'published');
      assert.equal(now.body.scheduled_at, null);
      assert.ok(now.body.published_at && Math.abs(Date.parse(now.body.published_at) - Date.now()) < 60_000);
      assert.equal((await anonymous.get<Post>(`/api/v1/posts/${post.slug}`)).body.id, post.id);
      const again = await staff.post<Post>(`/api/v1/posts/${post.id}/publish`);
      assert.equal(again.body.published_at, now.body.published_at, 'publishing twice changes nothing');
      const scheduleLive = await staff.post(`/api/v1/posts/${post.id}/schedule`, { publish_at: inFuture(60_000) });
      assert.equal(scheduleLive.status, 409);
      assert.match(String(scheduleLive.body.error_description), /already published; unpublish it first/);

      const back = await staff.post<Post>(`/api/v1/posts/${post.id}/unpublish`);
      assert.equal(back.body.status, 'draft');
      assert.equal(back.body.published_at, null);
      assert.equal((await anonymous.get(`/api/v1/posts/${post.id}`)).status, 404);
      await staff.post(`/api/v1/posts/${post.id}/schedule`, { publish_at: inFuture(60_000) });
      const cancelled = await staff.post<Post>(`/api/v1/posts/${post.id}/unpublish`);
      assert.equal(cancelled.body.status, 'draft');
      assert.equal(cancelled.body.scheduled_at, null, 'unpublishing a scheduled post cancels the schedule');
      assert.equal((await staff.post(`/api/v1/posts/pst_${'0'.repeat(26)}/publish`)).status, 404);
    });

    test('delete: a published post is 409; a draft is deleted with its comments', async () => {
      const live = await published({ title: 'Delete Live' });
      const refused = await staff.delete(`/api/v1/posts/${live.id}`);
      assert.equal(refused.status, 409);
      assert.match(String(refused.body.error_description), /unpublish it first/);
      await staff.post(`/api/v1/posts/${live.id}/unpublish`);
      const at = new Date().toISOString();
      const commentId = newId('cmt');
      await server.database.db
        .insertInto('comments')
        .values({
          id: commentId,
          target_type: 'post',
          target_id: live.id,
          user_id: student.id,
          parent_id: null,
          body: 'hi',
          status: 'visible',
          created_at: at,
          updated_at: at,
        })
        .execute();
      assert.equal((await staff.delete(`/api/v1/posts/${live.id}`)).status, 204);
      assert.equal((await staff.get(`/api/v1/posts/${live.id}`)).status, 404);
      assert.equal((await staff.delete(`/api/v1/posts/${live.id}`)).status, 404);
      const left = await server.database.db.selectFrom('comments').select('id').where('id', '=', commentId).execute();
      assert.deepEqual(left, []);
    });

    test('races: delete vs publish / schedule of one draft never both succeed; the answers match the row', async () => {
      for (let round = 0; round < 10; round++) {
        const draft = await create({ title: `Race ${round}`, body: 'Text' });
        const [deleted, changed] = await Promise.all([
          staff.delete(`/api/v1/posts/${draft.id}`),
          round % 2
            ? staff.post<Post>(`/api/v1/posts/${draft.id}/publish`)
            : staff.post<Post>(`/api/v1/posts/${draft.id}/schedule`, { publish_at: inFuture(3_600_000) }),
        ]);
        const after = await staff.get<Post>(`/api/v1/posts/${draft.id}`);
        if (deleted.status === 204) {
          // A scheduled post is not published, so "scheduled, then deleted" is a valid order; "published, then
          // deleted" is not.
          if (round % 2) assert.equal(changed.status, 404, `round ${round}: a deleted post cannot also be published`);
          else assert.ok([200, 404].includes(changed.status), `round ${round}: ${changed.status}`);
          assert.equal(after.status, 404);
        } else {
          assert.equal(deleted.status, 409, `round ${round}: ${JSON.stringify(deleted.body)}`);
          assert.equal(changed.status, 200);
          assert.equal(after.body.status, round % 2 ? 'published' : 'scheduled');
        }
      }
    });

    test('races: concurrent unpublish and publish leave a status that one of the answers reported', async () => {
      const post = await published({ title: 'Flip Flop', body: 'Text' });
      for (let round = 0; round < 10; round++) {
        const [down, up] = await Promise.all([
          staff.post<Post>(`/api/v1/posts/${post.id}/unpublish`),
          staff.post<Post>(`/api/v1/posts/${post.id}/publish`),
        ]);
        assert.equal(down.status, 200);
        assert.equal(up.status, 200);
        const after = await staff.get<Post>(`/api/v1/posts/${post.id}`);
        assert.ok([down.body.status, up.body.status].includes(after.body.status));
        // Publish answers with the published_at it left: if the post ends published, that answer came last.
        if (after.body.status === 'published') assert.equal(after.body.published_at, up.body.published_at);
        assert.equal(after.body.published_at === null, after.body.status !== 'published', 'published_at iff published');
      }
    });

    test('validation: unknown field, wrong type, too long, too many tags, bad id, empty update', async () => {
      const unknown = await staff.post('/api/v1/posts', { title: 'x', author: 'me' });
      assert.equal(unknown.status, 400);
      assert.equal((unknown.body.errors as { field: string; code: string }[])[0]?.code, 'unknown_field');
      assert.equal((await staff.post('/api/v1/posts', { title: 'x', tags: 'news' })).status, 400);
      assert.equal((await staff.post('/api/v1/posts', { title: 'x', visibility: 'secret' })).status, 400);
      const tooLong = await staff.post('/api/v1/posts', { title: 'x'.repeat(201) });
      assert.equal(tooLong.status, 400);
      assert.equal((tooLong.body.errors as { field: string }[])[0]?.field, 'title');
      const longTag = await staff.post('/api/v1/posts', { title: 'x', tags: ['t'.repeat(41)] });
      assert.equal(longTag.status, 400);
      assert.equal((await staff.post('/api/v1/posts', { title: 'x', tags: ['t'.repeat(40)] })).status, 201);
      const tags = Array.from({ length: 21 }, (_, i) => `tag${i}`);
      assert.equal((await staff.post('/api/v1/posts', { title: 'x', tags })).status, 400);
      assert.equal((await staff.post('/api/v1/posts', { title: 'x', tags: tags.slice(0, 20) })).status, 201);
      assert.equal((await staff.post('/api/v1/posts', { title: 'x', tags: ['a', 'a'] })).status, 400);
      assert.equal((await staff.post('/api/v1/posts', { title: 'x', tags: [''] })).status, 400);
      assert.equal((await staff.post('/api/v1/posts', { title: 'x', cover_url: 'javascript:alert(1)' })).status, 400);
      assert.equal((await staff.post('/api/v1/posts', { title: 'x', status: 'published' })).status, 400);
      assert.equal((await staff.patch('/api/v1/posts/not-an-id', { title: 'y' })).status, 400);
      const post = await create({ title: 'Valid Post' });
      assert.equal((await staff.patch(`/api/v1/posts/${post.id}`, {})).status, 400);
    });

    test('principals: anonymous and free accounts see public only (members/plans fail closed); staff all', async () => {
      const pub = await published({ title: 'Seen Public' });
      const members = await published({ title: 'Seen Members', visibility: 'members' });
      const plans = await published({
        title: 'Seen Plans',
        visibility: 'plans',
        plan_ids: ['pln_gold'],
        body: 'Gold-only secret',
      });
      const draft = await create({ title: 'Seen Draft' });
      const scheduled = await create({ title: 'Seen Scheduled' });
      await staff.post(`/api/v1/posts/${scheduled.id}/schedule`, { publish_at: inFuture(3_600_000) });

      const principals = { anonymous, student: studentApi, staff: readOnlyStaff };
      const post = (p: Post) => ({ id: p.id, get: `/api/v1/posts/${p.slug}`, list: '/api/v1/posts', label: p.title });
      await seenOnlyBy(principals, post(pub), ['anonymous', 'student', 'staff']);
      for (const hidden of [members, plans, draft, scheduled]) await seenOnlyBy(principals, post(hidden), ['staff']);

      assert.equal((await anonymous.get(`/api/v1/posts/${members.slug}`)).status, 404);
      assert.equal((await anonymous.get(`/api/v1/posts/${plans.id}`)).status, 404);
      assert.equal((await anonymous.get(`/api/v1/posts/${draft.id}`)).status, 404);
      assert.equal((await studentApi.get(`/api/v1/posts/${pub.slug}`)).status, 200);
      const paid = await studentApi.get(`/api/v1/posts/${plans.id}`);
      assert.equal(paid.status, 404, 'a paid post is not for free accounts');
      assert.ok(!JSON.stringify(paid.body).includes('Gold-only secret'));
      assert.equal((await studentApi.get(`/api/v1/posts/${members.slug}`)).status, 404);
      assert.equal((await studentApi.get<List>('/api/v1/posts?visibility=plans')).body.data.length, 0);
      assert.equal((await readOnlyStaff.get(`/api/v1/posts/${plans.slug}`)).status, 200);
      assert.equal((await studentApi.get(`/api/v1/posts/${draft.slug}`)).status, 404);
      assert.equal((await studentApi.get(`/api/v1/posts/${scheduled.id}`)).status, 404);
      assert.equal((await readOnlyStaff.get(`/api/v1/posts/${draft.id}`)).status, 200);
      assert.equal((await studentApi.get<List>('/api/v1/posts?status=draft')).body.data.length, 0);
    });

    test('members and plans posts follow real memberships: a member reads them, a free account does not', async () => {
      const plansApi = apiClient(
        server.url,
        await tokenFor(server, staffPerson, 'membership_plans:write members:write posts:read'),
      );
      const gold = await planWithPrice(plansApi, { name: `Gold ${Date.now().toString(36)}` });
      const silver = await planWithPrice(plansApi, { name: `Silver ${Date.now().toString(36)}` });
      const members = await published({ title: 'For Members', visibility: 'members', body: 'Members secret' });
      const goldPost = await published({ title: 'For Gold', visibility: 'plans', plan_ids: [gold.plan.id] });
      const silverPost = await published({ title: 'For Silver', visibility: 'plans', plan_ids: [silver.plan.id] });

      const subscriber = await createUser(server, 'student');
      await subscribe(server, { userId: subscriber.id, priceId: gold.price.id });
      const comped = await createUser(server, 'student');
      ok(await plansApi.post('/api/v1/members', { email: comped.email, name: comped.name }), 201);
      ok(await plansApi.post(`/api/v1/members/${comped.id}/comp`, { plan_id: silver.plan.id, until: null }));
      const freeMember = await createUser(server, 'student');
      ok(await plansApi.post('/api/v1/members', { email: freeMember.email, name: freeMember.name }), 201);

      const reader = async (p: Person) => apiClient(server.url, await tokenFor(server, p, 'posts:read comments:read'));
      const readable = async (client: ReturnType<typeof apiClient>) => {
        const listed = new Set((await listAll(client, '/api/v1/posts')).map((p) => p.id));
        const result: Record<string, boolean> = {};
        for (const p of [members, goldPost, silverPost]) {
          const got = (await client.get(`/api/v1/posts/${p.slug}`)).status === 200;
          assert.equal(listed.has(p.id), got, `${p.title}: the list and the single post agree`);
          result[p.title] = got;
        }
        return result;
      };
      assert.deepEqual(await readable(await reader(subscriber)), {
        'For Members': true,
        'For Gold': true,
        'For Silver': false,
      });
      assert.deepEqual(await readable(await reader(comped)), {
        'For Members': true,
        'For Gold': false,
        'For Silver': true,
      });
      const nobody = { 'For Members': false, 'For Gold': false, 'For Silver': false };
      assert.deepEqual(await readable(await reader(freeMember)), nobody, 'a free member holds no plan');
      assert.deepEqual(await readable(studentApi), nobody);
      assert.deepEqual(await readable(anonymous), nobody);

      // The school's post page goes by the same rule for the signed-in person.
      const page = async (p: Person) => {
        const web = new WebClient(server.url);
        assert.equal((await web.submit('/signin', '/signin', { email: p.email, password: p.password })).status, 303);
        return web.get(`/posts/${members.slug}`);
      };
      const seen = await page(subscriber);
      assert.equal(seen.status, 200);
      assert.match(seen.text, /Members secret/);
      const refused = await page(freeMember);
      assert.equal(refused.status, 404);
      assert.doesNotMatch(refused.text, /Members secret/);
      assert.equal((await new WebClient(server.url).get(`/posts/${members.slug}`)).status, 404);
    });

    test('writes need posts:write: anonymous and students get 403 insufficient_scope, never 401', async () => {
      const anon = await anonymous.post('/api/v1/posts', { title: 'Nope' });
      assert.equal(anon.status, 403);
      assert.equal(anon.body.error, 'insufficient_scope');
      assert.match(
        anon.headers.get('www-authenticate') ?? '',
        new RegExp(
          `^Bearer error="insufficient_scope", error_description="[^"]+", scope="posts:write", ` +
            `resource_metadata="${server.url}/.well-known/oauth-protected-resource"$`,
        ),
      );
      assert.equal((await studentApi.post('/api/v1/posts', { title: 'Nope' })).status, 403);
      const post = await create({ title: 'Scope Target Post' });
      for (const [method, path, body] of [
        ['PATCH', `/api/v1/posts/${post.id}`, { title: 'y' }],
        ['DELETE', `/api/v1/posts/${post.id}`, undefined],
        ['POST', `/api/v1/posts/${post.id}/publish`, {}],
        ['POST', `/api/v1/posts/${post.id}/schedule`, { publish_at: inFuture(60_000) }],
        ['POST', `/api/v1/posts/${post.id}/unpublish`, {}],
      ] as const) {
        const response = await readOnlyStaff.call(method, path, body);
        assert.equal(response.status, 403, `${method} ${path}`);
        assert.match(response.headers.get('www-authenticate') ?? '', /scope="posts:write"/);
      }
      const noRead = await otherScope.get('/api/v1/posts');
      assert.equal(noRead.status, 403);
      assert.match(noRead.headers.get('www-authenticate') ?? '', /error="insufficient_scope".*scope="posts:read"/);
      assert.equal((await staff.get<Post>(`/api/v1/posts/${post.id}`)).body.status, 'draft');
    });

    test('filters: status, visibility, exact tag (with LIKE and JSON characters), q', async () => {
      const run = Date.now().toString(36);
      const art = await create({ title: `Filter ${run} art`, tags: [`art${run}`, 'c++', '50%_off', 'say "hi"'] });
      const artHistory = await published({ title: `Filter ${run} history`, tags: [`art${run}-history`, '50x_off'] });
      const members = await published({ title: `Filter ${run} members`, visibility: 'members', tags: ['c++'] });
      const titles = async (query: string) =>
        (await listAll<Post>(staff, `/api/v1/posts?q=${encodeURIComponent(`Filter ${run}`)}&${query}`))
          .map((p) => p.id)
          .sort();
      assert.deepEqual(await titles(`tag=art${run}`), [art.id]);
      assert.deepEqual(await titles(`tag=${encodeURIComponent('c++')}`), [art.id, members.id].sort());
      assert.deepEqual(await titles(`tag=${encodeURIComponent('50%_off')}`), [art.id]);
      assert.deepEqual(await titles(`tag=${encodeURIComponent('say "hi"')}`), [art.id]);
      assert.deepEqual(await titles('tag=art'), []);
      assert.deepEqual(await titles('status=published'), [artHistory.id, members.id].sort());
      assert.deepEqual(await titles('status=draft'), [art.id]);
      assert.deepEqual(await titles('visibility=members'), [members.id]);
      const anonTag = await anonymous.get<List>(`/api/v1/posts?tag=${encodeURIComponent('c++')}`);
      assert.ok(!anonTag.body.data.some((p) => p.id === members.id), 'filters never widen what a caller sees');
      assert.equal((await staff.get(`/api/v1/posts?tag=${'t'.repeat(41)}`)).status, 400);
      assert.equal((await staff.get('/api/v1/posts?status=archived')).status, 400);
    });

    test('list cursor pagination, across a page boundary and a deleted cursor item', async () => {
      const tag = `Page ${Date.now().toString(36)}`;
      await paginatesLikeEveryList({
        staff,
        query: `/api/v1/posts?q=${encodeURIComponent(tag)}`,
        make: (i) => create({ title: `${tag} ${i}` }),
        remove: async (id) => assert.equal((await staff.delete(`/api/v1/posts/${id}`)).status, 204),
      });
    });

    // Last: it restarts the server on the same database and port, and reconnects the clients.
    test('scheduled posts publish themselves when due, across a restart (the schedule is stored)', async () => {
      const due = await create({ title: 'Due Soon', visibility: 'public' });
      const notYet = await create({ title: 'Not Yet' });
      const dueAt = Date.now() + 1500;
      const scheduled = await staff.post<Post>(`/api/v1/posts/${due.id}/schedule`, {
        publish_at: new Date(dueAt).toISOString(),
      });
      assert.equal(scheduled.body.status, 'scheduled', JSON.stringify(scheduled.body));
      await staff.post(`/api/v1/posts/${notYet.id}/schedule`, { publish_at: inFuture(3_600_000) });

      await server.close();
      // The restarted server's clock runs past the due time instead of the test waiting for it.
      let skew = dueAt + 100 - Date.now();
      const clock = { now: () => new Date(Date.now() + skew) };
      // Same port, so the base URL (the tokens' audience) is unchanged.
      server = await startTestServer(
        engine,
        { PORT: String(server.config.PORT) },
        { databaseUrl: server.databaseUrl, clock },
      );
      // Connections to the old server may still sit in fetch's pool: start a fresh one.
      setGlobalDispatcher(new Agent());
      connect();

      const after = await anonymous.get<Post>(`/api/v1/posts/${due.id}`);
      assert.equal(after.status, 200, 'published by the restarted server at start');
      assert.equal(after.body.status, 'published');
      assert.equal(after.body.scheduled_at, null);
      assert.ok(after.body.published_at && Date.parse(after.body.published_at) >= dueAt);
      const waiting = await staff.get<Post>(`/api/v1/posts/${notYet.id}`);
      assert.equal(waiting.body.status, 'scheduled', JSON.stringify(waiting.body));

      // The jobs' path: scheduling queued a job due at the time; what falls due is published once, in one go.
      const soon = [await create({ title: 'Soon 1' }), await create({ title: 'Soon 2' })];
      const soonAt = clock.now().getTime() + 1000;
      for (const post of soon)
        await staff.post(`/api/v1/posts/${post.id}/schedule`, { publish_at: new Date(soonAt).toISOString() });
      await server.services.jobs.runDue();
      for (const post of soon)
        assert.equal((await staff.get<Post>(`/api/v1/posts/${post.id}`)).body.status, 'scheduled', 'not due yet');
      skew += 1100;
      assert.equal(await server.services.jobs.runDue(), 2, "each schedule's job ran");
      assert.equal(await server.services.areas.posts.publishDue(), 0, 'the first job published both');
      for (const post of soon)
        assert.equal((await anonymous.get<Post>(`/api/v1/posts/${post.id}`)).body.status, 'published');
      assert.equal((await staff.get<Post>(`/api/v1/posts/${notYet.id}`)).body.status, 'scheduled');
    });
  });
}
