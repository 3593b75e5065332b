import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AUDIT_SENTENCES } from '../../../src/web/admin/audit-sentences.ts';
import { apiClient, tokenFor } from '../../support/api.ts';
import { engines } from '../../support/databases.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { completeSetup, csrfOf, OWNER, type WebClient } from '../../support/web-client.ts';

for (const engine of engines) {
  describe(`the admin's audit log as sentences, and a course's drafts published in one step (${engine})`, () => {
    let server: TestServer;
    let owner: WebClient;
    let api: ReturnType<typeof apiClient>;
    before(async () => {
      server = await startTestServer(engine);
      owner = await completeSetup(server.url, server.setupUrl ?? '');
      api = apiClient(server.url, await tokenFor(server, OWNER, 'courses:write curriculum:write school:write'));
      await api.patch('/api/v1/school', { timezone: 'Europe/Berlin', locale: 'en-GB' });
    });
    after(() => server.close());

    test('every audited write operation has its sentence, and no sentence names an operation that is gone', () => {
      const audited = [...new Set(server.auditedRoutes.map((r) => r.operation))].sort();
      assert.deepEqual(
        audited.filter((operation) => !AUDIT_SENTENCES[operation]),
        [],
        'write operations the audit screen cannot say',
      );
      assert.deepEqual(
        Object.keys(AUDIT_SENTENCES).filter((operation) => !audited.includes(operation)),
        [],
      );
    });

    test('the drafts screen lists what is still a draft and publishes it all with one button', async () => {
      const course = (await api.post<{ id: string }>('/api/v1/courses', { title: 'Hatching eggs' })).body;
      const section = (await api.post<{ id: string }>(`/api/v1/courses/${course.id}/sections`, { title: 'Warmth' }))
        .body;
      const empty = (
        await api.post<{ id: string }>(`/api/v1/sections/${section.id}/lessons`, { title: 'Candling', type: 'video' })
      ).body;
      await api.post(`/api/v1/sections/${section.id}/lessons`, { title: 'The brooder', body: 'Keep it at 37.5 °C.' });

      const screen = await owner.get(`/admin/courses/${course.id}/drafts`);
      assert.equal(screen.status, 200);
      assert.match(screen.text, /Warmth<\/a> <span class="meta">section still a draft/);
      assert.match(screen.text, /The brooder<\/a> <span class="meta">lesson still a draft/);
      assert.match(screen.text, /Publish the course with its sections and lessons/);
      assert.match((await owner.get(`/admin/courses/${course.id}`)).text, /href="[^"]+\/drafts">What is still a draft/);

      const publish = () => owner.postForm(`/admin/courses/${course.id}/drafts`, { _csrf: csrfOf(screen.text) });
      const refused = await publish();
      assert.equal(refused.status, 400);
      assert.match(refused.text, /nothing was published/);
      assert.match(refused.text, new RegExp(`href="/admin/lessons/${empty.id}">Candling</a> has nothing in it yet`));
      assert.doesNotMatch(refused.text, /asset_url|lessons\.les_/);

      await api.delete(`/api/v1/lessons/${empty.id}`);
      const done = await publish();
      assert.equal(done.status, 303, done.text);
      const after = await owner.get(done.location ?? '');
      assert.match(after.text, /The course is <strong>published<\/strong>/);
      assert.match(after.text, /Every section and lesson is published/);
    });

    test('the audit screen says who did what to which object, and when, in the school time zone', async () => {
      const page = await owner.get('/admin/audit');
      assert.equal(page.status, 200);
      const text = page.text;
      assert.match(
        text,
        /Ada Owner \(owner\) published the course <a href="\/admin\/courses\/crs_[0-9a-z]{26}">“Hatching eggs”<\/a> with its sections and lessons(, through the app “[^”]+”)? · <a href="\/admin\/audit\/aud_[0-9a-z]{26}"><time datetime="[^"]+">\d{1,2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2}<\/time><\/a>/,
      );
      assert.match(
        text,
        /Ada Owner \(owner\) deleted the lesson(, through the app “[^”]+”)? · /,
        'a deleted object is told by the phrase alone',
      );
      assert.match(text, /Times are in Europe\/Berlin time\./);
      const entry = /datetime="([^"]+)">([^<]+)<\/time>/.exec(text);
      const berlin = new Intl.DateTimeFormat('en-GB', {
        day: 'numeric',
        month: 'short',
        year: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
        timeZone: 'Europe/Berlin',
      }).format(new Date(entry?.[1] ?? ''));
      assert.equal(entry?.[2], berlin);
      assert.doesNotMatch(text, /publishCourse|\/api\/v1/);
    });
  });
}
