import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiClient, type Person, schoolWithPeople, tokenFor } from '../../support/api.ts';
import { engines } from '../../support/databases.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { csrfOf, WebClient } from '../../support/web-client.ts';

type Post = { id: string; slug: string };

for (const engine of engines) {
  describe(`a post's public page and its comment form (${engine})`, () => {
    let server: TestServer;
    let staff: ReturnType<typeof apiClient>;
    let student: Person;
    let staffPerson: Person;
    let signedIn: WebClient;

    before(async () => {
      server = await startTestServer(engine);
      const people = await schoolWithPeople(server);
      student = people.student;
      staffPerson = people.staff;
      staff = apiClient(server.url, await tokenFor(server, people.staff, 'posts:read posts:write'));
      signedIn = new WebClient(server.url);
      const login = await signedIn.submit('/signin', '/signin', { email: student.email, password: student.password });
      assert.equal(login.status, 303);
    });
    after(() => server.close());

    let n = 0;
    const post = async (body: Record<string, unknown> = {}, publish = true) => {
      const created = await staff.post<Post>('/api/v1/posts', { title: `Post ${n++}`, ...body });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      if (publish) assert.equal((await staff.post(`/api/v1/posts/${created.body.id}/publish`)).status, 200);
      return created.body;
    };
    const commentCount = async (postId: string) =>
      (await server.database.db.selectFrom('comments').select('id').where('target_id', '=', postId).execute()).length;

    test('anyone reads a published post, escaped, with a sign-in link instead of the form', async () => {
      const p = await post({ title: 'Fish & <Chips>', body: 'First <b>para</b>\n\nSecond line', tags: ['food'] });
      const page = await new WebClient(server.url).get(`/posts/${p.slug}`);
      assert.equal(page.status, 200);
      assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
      assert.match(page.text, /<h1>Fish &amp; &lt;Chips&gt;<\/h1>/);
      assert.match(page.text, /<p>First &lt;b&gt;para&lt;\/b&gt;<\/p>\s*<p>Second line<\/p>/);
      assert.doesNotMatch(page.text, /<b>para<\/b>/);
      assert.match(page.text, /No comments yet\./);
      assert.match(page.text, new RegExp(`<a href="/signin\\?return_to=%2Fposts%2F${p.slug}">Sign in</a> to comment`));
      assert.doesNotMatch(page.text, /<textarea/);
      assert.doesNotMatch(page.text, /name="_csrf"/);
    });

    test('a signed-in user posts a comment through the form; it is shown escaped', async () => {
      const p = await post({ title: 'Comment Here' });
      const page = await signedIn.get(`/posts/${p.slug}`);
      assert.match(page.text, /<label for="f-comment">Comment<\/label>/);
      assert.match(page.text, /<textarea id="f-comment" name="body"[^>]*><\/textarea>/);
      assert.match(page.text, /<button type="submit">Post comment<\/button>/);
      assert.match(page.text, new RegExp(`<form method="post" action="/posts/${p.slug}/comments">`));

      const posted = await signedIn.postForm(`/posts/${p.slug}/comments`, {
        _csrf: csrfOf(page.text),
        body: '<script>alert(1)</script>',
      });
      assert.equal(posted.status, 303, posted.text.slice(0, 500));
      assert.match(posted.location ?? '', new RegExp(`^/posts/${p.slug}#comment-cmt_[0-9a-z]{26}$`));
      const after = await new WebClient(server.url).get(`/posts/${p.slug}`);
      assert.match(after.text, /&lt;script&gt;alert\(1\)&lt;\/script&gt;/);
      assert.doesNotMatch(after.text, /<script>alert\(1\)<\/script>/);
      assert.match(after.text, new RegExp(`<strong>${student.name}</strong>`));
      assert.doesNotMatch(after.text, /No comments yet/);
      assert.equal(await commentCount(p.id), 1);
    });

    test('the form refuses a missing or wrong CSRF token', async () => {
      const p = await post();
      await signedIn.get(`/posts/${p.slug}`);
      const missing = await signedIn.postForm(`/posts/${p.slug}/comments`, { body: 'no token' });
      assert.equal(missing.status, 403);
      assert.match(missing.text, /did not come from this site/);
      const wrong = await signedIn.postForm(`/posts/${p.slug}/comments`, { _csrf: 'forged', body: 'bad token' });
      assert.equal(wrong.status, 403);
      assert.equal(await commentCount(p.id), 0);
    });

    test('signed-out visitors are sent to sign in and come back to the post', async () => {
      const p = await post();
      const visitor = new WebClient(server.url);
      const posted = await visitor.postForm(`/posts/${p.slug}/comments`, { body: 'hello' });
      assert.equal(posted.status, 303);
      assert.equal(posted.location, `/signin?return_to=%2Fposts%2F${p.slug}`);
      assert.equal(await commentCount(p.id), 0);
      const back = await visitor.submit(posted.location ?? '', '/signin', {
        email: student.email,
        password: student.password,
        return_to: `/posts/${p.slug}`,
      });
      assert.equal(back.location, `/posts/${p.slug}`);
      assert.match((await visitor.get(`/posts/${p.slug}`)).text, /Post comment/);
    });

    test('the body must be 1–5000 characters, and unknown fields are refused; the text is kept', async () => {
      const p = await post();
      for (const [fields, message] of [
        [{ body: '' }, /Comment: Write your comment\./],
        [{ body: 'x'.repeat(5001) }, /Comment: must be at most 5000 characters/],
        [{ body: '   \n  ' }, /A comment needs 1 to 5000 characters/],
        [{ body: 'hi', parent_id: 'cmt_x' }, /This form: was sent with something it does not have/],
      ] as const) {
        const refused = await signedIn.submit(`/posts/${p.slug}`, `/posts/${p.slug}/comments`, fields);
        assert.equal(refused.status, 400, JSON.stringify(fields).slice(0, 50));
        assert.match(refused.text, message);
        assert.match(refused.text, /role="alert"/);
        assert.match(refused.text, /<textarea id="f-comment"/, 'the form is shown again');
      }
      const kept = await signedIn.submit(`/posts/${p.slug}`, `/posts/${p.slug}/comments`, {
        body: 'keep <me>',
        extra: '1',
      });
      assert.match(kept.text, />keep &lt;me&gt;<\/textarea>/);
      const exact = await signedIn.submit(`/posts/${p.slug}`, `/posts/${p.slug}/comments`, { body: 'y'.repeat(5000) });
      assert.equal(exact.status, 303);
      assert.equal(await commentCount(p.id), 1);
    });

    test('drafts, scheduled posts, unknown slugs, and members/plans posts for non-staff are 404', async () => {
      const draft = await post({}, false);
      const scheduled = await post({}, false);
      await staff.post(`/api/v1/posts/${scheduled.id}/schedule`, {
        publish_at: new Date(Date.now() + 3_600_000).toISOString(),
      });
      for (const slug of [draft.slug, scheduled.slug, 'no-such-post']) {
        const page = await signedIn.get(`/posts/${slug}`);
        assert.equal(page.status, 404, slug);
        assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
      }
      const csrf = csrfOf((await signedIn.get(`/posts/${(await post()).slug}`)).text);
      const onDraft = await signedIn.postForm(`/posts/${draft.slug}/comments`, { _csrf: csrf, body: 'sneaky' });
      assert.equal(onDraft.status, 404);
      assert.equal(await commentCount(draft.id), 0);

      // Members and plans posts fail closed until memberships exist: not for anonymous or signed-in students.
      const members = await post({ visibility: 'members' });
      const plans = await post({ visibility: 'plans', plan_ids: ['pln_gold'] });
      for (const paid of [members, plans]) {
        assert.equal((await new WebClient(server.url).get(`/posts/${paid.slug}`)).status, 404, paid.slug);
        assert.equal((await signedIn.get(`/posts/${paid.slug}`)).status, 404, paid.slug);
        const comment = await signedIn.postForm(`/posts/${paid.slug}/comments`, { _csrf: csrf, body: 'sneaky' });
        assert.equal(comment.status, 404, paid.slug);
        assert.equal(await commentCount(paid.id), 0);
      }
      const staffViewer = new WebClient(server.url);
      const login = { email: staffPerson.email, password: staffPerson.password };
      assert.equal((await staffViewer.submit('/signin', '/signin', login)).status, 303);
      assert.equal((await staffViewer.get(`/posts/${plans.slug}`)).status, 200, 'staff still read them');
    });

    test('hidden comments are not shown on the page', async () => {
      const p = await post();
      const first = await signedIn.submit(`/posts/${p.slug}`, `/posts/${p.slug}/comments`, { body: 'stays visible' });
      const second = await signedIn.submit(`/posts/${p.slug}`, `/posts/${p.slug}/comments`, { body: 'gets hidden' });
      assert.equal(first.status, 303);
      assert.equal(second.status, 303, 'otherwise nothing was hidden and the check below proves nothing');
      const hiddenId = /#comment-(cmt_\w+)$/.exec(second.location ?? '')?.[1] ?? '';
      await server.database.db.updateTable('comments').set({ status: 'hidden' }).where('id', '=', hiddenId).execute();
      const page = await new WebClient(server.url).get(`/posts/${p.slug}`);
      assert.match(page.text, /stays visible/);
      assert.doesNotMatch(page.text, /gets hidden/);
    });
  });
}
