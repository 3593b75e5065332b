import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiClient, type Person, schoolWithPeople, tokenFor } from '../../support/api.ts';
import { engines } from '../../support/databases.ts';
import { courseWithLesson, ok, type Plan, type Price } from '../../support/memberships.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { WebClient } from '../../support/web-client.ts';

const STAFF =
  'membership_plans:read membership_plans:write courses:read courses:write curriculum:read curriculum:write';

for (const engine of engines) {
  describe(`the plans pages (${engine})`, () => {
    let server: TestServer;
    let staff: ReturnType<typeof apiClient>;
    let staffPerson: Person;
    let gold: Plan;
    let monthly: Price;
    let lifetime: Price;
    let oldPrice: Price;
    let hidden: Plan;
    let archived: Plan;
    let course: { id: string; title: string; slug: string };
    let draftCourse: { id: string; title: string };

    before(async () => {
      server = await startTestServer(engine, { PAYMENTS_PROVIDER: 'test' });
      staffPerson = (await schoolWithPeople(server)).staff;
      staff = apiClient(server.url, await tokenFor(server, staffPerson, STAFF));
      course = await courseWithLesson(staff, 'Watercolour & <Light>');
      draftCourse = ok(await staff.post('/api/v1/courses', { title: 'Unfinished Course' }), 201);
      gold = ok<Plan>(
        await staff.post('/api/v1/membership-plans', {
          name: 'Gold <Club>',
          description: 'Every course & more.\n\nJoin us.',
          benefits: ['All courses', 'Monthly Q&A'],
          course_ids: [course.id, draftCourse.id],
        }),
        201,
      );
      const price = async (plan: Plan, body: Record<string, unknown>) =>
        ok<Price>(await staff.post(`/api/v1/membership-plans/${plan.id}/prices`, body), 201);
      monthly = await price(gold, { amount: 1500, currency: 'EUR', interval: 'month', trial_days: 14 });
      lifetime = await price(gold, { amount: 29900, currency: 'EUR', interval: 'one_time' });
      oldPrice = await price(gold, { amount: 999, currency: 'EUR', interval: 'year' });
      ok(await staff.post(`/api/v1/membership-plans/${gold.id}/prices/${oldPrice.id}/archive`));
      hidden = ok<Plan>(
        await staff.post('/api/v1/membership-plans', { name: 'Secret Plan', visibility: 'hidden' }),
        201,
      );
      await price(hidden, { amount: 0, currency: 'EUR', interval: 'month' });
      archived = ok<Plan>(await staff.post('/api/v1/membership-plans', { name: 'Old Plan' }), 201);
      ok(await staff.post(`/api/v1/membership-plans/${archived.id}/archive`));
    });
    after(() => server.close());

    test('/plans lists the public plans on sale: benefits, visible courses, active prices with their buttons', async () => {
      const page = await new WebClient(server.url).get('/plans');
      assert.equal(page.status, 200);
      assert.match(page.text, /<h1>Membership plans<\/h1>/);
      assert.match(page.text, new RegExp(`<a href="/plans/${gold.slug}">Gold &lt;Club&gt;</a>`));
      assert.match(page.text, /<li>All courses<\/li><li>Monthly Q&amp;A<\/li>/);
      assert.match(page.text, new RegExp(`<a href="/courses/${course.slug}">Watercolour &amp; &lt;Light&gt;</a>`));
      assert.doesNotMatch(page.text, /Unfinished Course/, 'a draft course is not shown to visitors');
      assert.match(page.text, /14 days free, then €15\.00 \/ month/);
      assert.match(page.text, /€299\.00 once/);
      assert.doesNotMatch(page.text, /€9\.99/, 'an archived price is not offered');
      assert.match(
        page.text,
        new RegExp(`<a class="button" href="/checkout/plan/${monthly.id}"[^>]*>Start the free trial</a>`),
      );
      assert.match(page.text, new RegExp(`<a class="button" href="/checkout/plan/${lifetime.id}"[^>]*>Buy</a>`));
      assert.doesNotMatch(page.text, /Secret Plan/, 'a hidden plan is not listed');
      assert.doesNotMatch(page.text, /Old Plan/);
    });

    test('/plans/<slug>: the plan page; a hidden plan by its link (not indexed); archived and unknown are 404', async () => {
      const visitor = new WebClient(server.url);
      const page = await visitor.get(`/plans/${gold.slug}`);
      assert.equal(page.status, 200);
      assert.match(page.text, /<h1>Gold &lt;Club&gt;<\/h1>/);
      assert.match(page.text, /<p>Every course &amp; more\.<\/p>\s*<p>Join us\.<\/p>/);
      assert.match(page.text, /<h2 id="courses-heading">Courses included<\/h2>/);
      assert.match(page.text, new RegExp(`href="/checkout/plan/${monthly.id}"`));
      assert.doesNotMatch(page.text, /noindex/);
      const secret = await visitor.get(`/plans/${hidden.slug}`);
      assert.equal(secret.status, 200);
      assert.match(secret.text, /anyone with the link can see and buy it/);
      assert.match(secret.text, /Free \/ month/);
      assert.match(secret.text, /<meta name="robots" content="noindex/);
      assert.equal((await visitor.get(`/plans/${archived.slug}`)).status, 404);
      assert.equal((await visitor.get('/plans/no-such-plan')).status, 404);

      const staffWeb = new WebClient(server.url);
      await staffWeb.submit('/signin', '/signin', { email: staffPerson.email, password: staffPerson.password });
      const asStaff = await staffWeb.get(`/plans/${archived.slug}`);
      assert.equal(asStaff.status, 200, 'staff see an archived plan, marked');
      assert.match(asStaff.text, /This plan is archived/);
      assert.match(asStaff.text, /not on sale/);
    });

    test('the sitemap lists /plans and the public plans, not hidden or archived ones', async () => {
      const sitemap = await new WebClient(server.url).get('/sitemap.xml');
      const locs = [...sitemap.text.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => (m[1] ?? '').slice(server.url.length));
      assert.ok(locs.includes('/plans'));
      assert.ok(locs.includes(`/plans/${gold.slug}`));
      assert.ok(!locs.includes(`/plans/${hidden.slug}`));
      assert.ok(!locs.includes(`/plans/${archived.slug}`));
    });
  });

  describe(`the plans pages without a payment provider (${engine})`, () => {
    let server: TestServer;

    before(async () => {
      server = await startTestServer(engine);
      const staffPerson = (await schoolWithPeople(server)).staff;
      const staff = apiClient(server.url, await tokenFor(server, staffPerson, STAFF));
      const plan = ok<Plan>(await staff.post('/api/v1/membership-plans', { name: 'Paid And Free' }), 201);
      for (const amount of [1500, 0])
        ok(
          await staff.post(`/api/v1/membership-plans/${plan.id}/prices`, {
            amount,
            currency: 'EUR',
            interval: 'month',
          }),
          201,
        );
    });
    after(() => server.close());

    test('a paid price’s button says the school does not take payments yet; a free one still links to the checkout', async () => {
      const page = await new WebClient(server.url).get('/plans');
      assert.match(
        page.text,
        /<p><button type="button" disabled>Subscribe<\/button><\/p><p class="meta">The school does not take payments yet\.<\/p>/,
      );
      assert.match(page.text, /<a class="button" href="\/checkout\/plan\/pri_[0-9a-z]{26}"[^>]*>Subscribe<\/a>/);
      const none = await new WebClient(server.url).get('/plans/nothing-here');
      assert.equal(none.status, 404);
    });
  });
}
