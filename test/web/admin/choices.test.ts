import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiClient, tokenFor } from '../../support/api.ts';
import { engines } from '../../support/databases.ts';
import { planWithPrice, subscribe } from '../../support/memberships.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { completeSetup, csrfOf, OWNER, type WebClient } from '../../support/web-client.ts';

const SCOPES =
  'courses:write curriculum:read curriculum:write students:write digital_products:read digital_products:write ' +
  'membership_plans:write lecturers:write students:read';

/** The options of a select, as [value, words]. */
const optionsOf = (page: string, name: string) => {
  const select = new RegExp(`<select[^>]*name="${name}"[^>]*>([\\s\\S]*?)</select>`).exec(page)?.[1] ?? '';
  return [...select.matchAll(/<option value="([^"]*)"[^>]*>([^<]*)</g)].map((m) => [m[1], m[2]]);
};

for (const engine of engines) {
  describe(`the admin offers every reference by name (${engine})`, () => {
    let server: TestServer;
    let owner: WebClient;
    let api: ReturnType<typeof apiClient>;

    before(async () => {
      server = await startTestServer(engine);
      owner = await completeSetup(server.url, server.setupUrl ?? '');
      api = apiClient(server.url, await tokenFor(server, OWNER, SCOPES));
    });
    after(() => server.close());

    const submit = async (path: string, fields: Record<string, string>) =>
      owner.postForm(path.split('?')[0] ?? path, { _csrf: csrfOf((await owner.get(path)).text), ...fields });

    test("a lesson moves to a section of its own course, picked by the section's title", async () => {
      const course = (await api.post<{ id: string }>('/api/v1/courses', { title: 'Raku' })).body.id;
      const [first, second] = await Promise.all(
        ['Preparing', 'Firing'].map(
          async (title) => (await api.post<{ id: string }>(`/api/v1/courses/${course}/sections`, { title })).body.id,
        ),
      );
      const other = (await api.post<{ id: string }>('/api/v1/courses', { title: 'Enamel' })).body.id;
      await api.post(`/api/v1/courses/${other}/sections`, { title: 'Elsewhere' });
      const lesson = (await api.post<{ id: string }>(`/api/v1/sections/${first}/lessons`, { title: 'Smoke' })).body.id;

      const screen = `/admin/operations/moveLesson?id=${lesson}`;
      const options = optionsOf((await owner.get(screen)).text, 'section_id');
      assert.deepEqual(
        options.map(([, words]) => words).sort(),
        ['Firing', 'Preparing', '—'],
        "only the lesson's own course's sections, by title",
      );
      const moved = await submit(screen, { id: lesson, section_id: second ?? '', confirm: 'yes' });
      assert.equal(moved.status, 303, moved.text.slice(0, 300));
      const now = (await api.get<{ section_id: string }>(`/api/v1/lessons/${lesson}`)).body.section_id;
      assert.equal(now, second);
      // A new order is given by moving things in the course builder, not by typing every id in order.
      for (const path of [`reorderSections?id=${course}`, `reorderLessons?id=${second}`]) {
        const answer = await owner.get(`/admin/operations/${path}`);
        assert.equal(answer.status, 303, path);
        assert.equal(answer.location, `/admin/courses/${course}/curriculum`);
      }
    });

    test("a subscription changes to a plan's recurring price, named by plan, amount and period", async () => {
      const gold = await planWithPrice(api, { name: 'Gold' }, { amount: 1500, currency: 'EUR', interval: 'month' });
      await api.post(`/api/v1/membership-plans/${gold.plan.id}/prices`, {
        amount: 15000,
        currency: 'EUR',
        interval: 'year',
      });
      await api.post(`/api/v1/membership-plans/${gold.plan.id}/prices`, {
        amount: 40000,
        currency: 'EUR',
        interval: 'one_time',
      });
      const student = (await api.post<{ id: string }>('/api/v1/students', { email: 'sub@school.test', name: 'Sub' }))
        .body.id;
      const { id } = await subscribe(server, { userId: student, priceId: gold.price.id });
      const options = optionsOf(
        (await owner.get(`/admin/operations/changeSubscriptionPlan?id=${id}`)).text,
        'price_id',
      ).map(([, words]) => words);
      assert.deepEqual(options.sort(), ['Gold: €15.00 a month', 'Gold: €150.00 a year', '—']);
    });

    test('with more students than a list shows, a person is typed by name or e-mail address and found', async () => {
      const product = (await api.post<{ id: string }>('/api/v1/digital-products', { title: 'Glaze recipes' })).body.id;
      for (let from = 0; from < 101; from += 20)
        await Promise.all(
          Array.from({ length: Math.min(20, 101 - from) }, (_, i) =>
            api.post('/api/v1/students', { email: `pupil${from + i}@school.test`, name: `Pupil ${from + i}` }),
          ),
        );
      const screen = `/admin/operations/grantDigitalProduct?id=${product}`;
      const page = (await owner.get(screen)).text;
      assert.match(page, /<input[^>]*name="user_id"/, 'a box to type in, not a list of 100+ names');
      assert.match(page, /Type the name or e-mail address: there are too many to list/);

      const refused = await submit(screen, { id: product, user_id: 'Nobody Here' });
      assert.equal(refused.status, 400);
      assert.match(refused.text, /No student is called “Nobody Here”\./);
      assert.match(refused.text, /value="Nobody Here"/, 'what was typed stays');
      const exact = await submit(screen, { id: product, user_id: 'Pupil 1' });
      assert.equal(exact.status, 303, 'an exact name is the one meant, though "Pupil 10" also contains it');
      const vague = await submit(screen, { id: product, user_id: 'pupil' });
      assert.equal(vague.status, 400);
      assert.match(vague.text, /“pupil” fits several: Pupil \d+, Pupil \d+, Pupil \d+ …/);
      const byEmail = await submit(screen, { id: product, user_id: 'PUPIL42@school.test' });
      assert.equal(byEmail.status, 303, byEmail.text.slice(0, 300));

      const grants = (await api.get<{ data: { user_id: string }[] }>(`/api/v1/digital-products/${product}/grants`)).body
        .data;
      const idOf = async (email: string) =>
        (await api.get<{ data: { id: string }[] }>(`/api/v1/students?q=${encodeURIComponent(email)}`)).body.data[0]?.id;
      assert.deepEqual(
        grants.map((g) => g.user_id).sort(),
        [await idOf('pupil1@school.test'), await idOf('pupil42@school.test')].sort(),
        'granted to the very people named',
      );

      const pupil = (await api.get<{ data: { id: string }[] }>('/api/v1/students?q=pupil5%40')).body.data[0]?.id;
      const lecturer = (await api.post<{ id: string }>('/api/v1/lecturers', { name: 'Pia', user_id: pupil })).body.id;
      const edit = (await owner.get(`/admin/lecturers/${lecturer}/edit`)).text;
      assert.match(edit, /name="user_id"[^>]*value="Pupil 5"/, 'the person it holds is shown by name');
      const kept = await submit(`/admin/lecturers/${lecturer}/edit`, { name: 'Pia', user_id: 'Pupil 5' });
      assert.equal(kept.status, 303, /role="alert"[\s\S]{0,600}|field-error">[^<]*/.exec(kept.text)?.[0]);
      assert.match(
        (await owner.get(kept.location ?? '')).text,
        /Nothing was changed\./,
        'saved as it was: no empty change',
      );
      // A namesake: the name alone now fits two people, yet the form saved as shown keeps the one it held.
      await api.post('/api/v1/students', { email: 'another.pupil5@school.test', name: 'Pupil 5' });
      const again = (await owner.get(`/admin/lecturers/${lecturer}/edit`)).text;
      const heldPair = /name="user_id\.held" value="([^"]*)"/.exec(again)?.[1] ?? '';
      assert.equal(heldPair, `${pupil}\tPupil 5`);
      const asShown = await submit(`/admin/lecturers/${lecturer}/edit`, {
        name: 'Pia',
        user_id: 'Pupil 5',
        'user_id.held': heldPair,
      });
      assert.equal(asShown.status, 303);
      const bare = await submit(`/admin/lecturers/${lecturer}/edit`, { name: 'Pia', user_id: 'Pupil 5' });
      assert.equal(bare.status, 400, 'without what the form held, the name fits two');
      assert.match(bare.text, /“Pupil 5” fits several/);
    });
  });
}
