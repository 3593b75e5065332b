import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import ICAL from 'ical.js';
import type { Browser, Page } from 'playwright-core';
import { apiClient, createUser, type Person, schoolWithPeople, tokenFor } from '../../support/api.ts';
import {
  accessibilityProblems,
  downloadedText,
  launchChromium,
  photograph,
  screenshotDir,
} from '../../support/browser.ts';
import { engines } from '../../support/databases.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { startSmtpServer } from '../../support/smtp.ts';

const PHONE = { width: 390, height: 844 };
const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

// One engine is enough for the browser: what the data layer decides is tested over HTTP on both.
const engine = engines[0] ?? 'sqlite';

describe(`events in Chromium (${engine})`, () => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  let browser: Browser;
  let staff: ReturnType<typeof apiClient>;
  let skew = 0;
  const shots = screenshotDir(`events-${engine}`);
  const at = (offsetMs: number) => new Date(Date.now() + skew + offsetMs).toISOString();

  const ok = async <T>(promise: Promise<{ status: number; body: unknown }>) => {
    const response = await promise;
    assert.ok(response.status < 300, JSON.stringify(response.body));
    return response.body as T;
  };

  type Made = { id: string; slug: string; title: string };
  const event = (input: Record<string, unknown>) => ok<Made>(staff.post('/api/v1/events', input));

  async function signIn(page: Page, person: Person) {
    await page.getByLabel('Email').fill(person.email);
    await page.getByLabel('Password').fill(person.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
  }

  /** The next message to `email` whose text names `title`, delivering what is due first. */
  async function mailTo(email: string, match: RegExp) {
    const find = () => smtp.received.find((m) => m.to.includes(email) && match.test(`${m.subject}\n${m.text}`));
    for (let round = 0; round < 20 && !find(); round++) {
      await server.services.jobs.runDue();
      if (!find()) await Promise.race([smtp.waitFor(smtp.received.length + 1), server.services.jobs.runDue()]);
    }
    const found = find();
    assert.ok(found, `a message to ${email} matching ${match}`);
    return found;
  }

  before(async () => {
    smtp = await startSmtpServer();
    server = await startTestServer(
      engine,
      { SMTP_URL: smtp.url, OAUTH_ACCESS_TOKEN_TTL_SECONDS: '86400', JOBS_POLL_MS: '50' },
      { clock: { now: () => new Date(Date.now() + skew) } },
    );
    const people = await schoolWithPeople(server);
    staff = apiClient(server.url, await tokenFor(server, people.staff, 'events:write events:read'));
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await smtp?.close();
  });

  test('register from the event page, get the confirmation, add the .ics, and see the join link only from its time', async () => {
    const startsAt = at(3 * HOUR_MS);
    const endsAt = at(4 * HOUR_MS);
    const seconds = (timestamp: string) => Math.floor(Date.parse(timestamp) / 1000) * 1000;
    const made = await event({
      title: 'Live critique night',
      description: 'Bring one drawing.',
      starts_at: startsAt,
      ends_at: endsAt,
      timezone: 'Europe/Warsaw',
      join_url: 'https://meet.example.test/critique',
      join_opens_minutes: 15,
      capacity: 30,
    });
    const visitor = await createUser(server, 'student', 'Rita Registrant');
    // The visitor's browser is in New York: the page names that zone, and the event's own zone too.
    const context = await browser.newContext({
      viewport: PHONE,
      timezoneId: 'America/New_York',
      acceptDownloads: true,
    });
    const page = await context.newPage();
    try {
      await page.goto(`${server.url}/events`);
      await page.getByRole('link', { name: 'Live critique night' }).click();
      await page.waitForURL(`${server.url}/events/${made.slug}`);
      const when = (await page.textContent('.course-head .when')) ?? '';
      assert.match(when, /Eastern (Standard|Daylight) Time/, 'the time is shown in the visitor’s zone, named');
      assert.match(when, /in the event's time zone: .*Central European/, 'and in the event’s own zone');
      const jsonLd = JSON.parse((await page.textContent('script[type="application/ld+json"]')) ?? '{}');
      assert.equal(jsonLd['@type'], 'Event');
      assert.equal(jsonLd.name, 'Live critique night');
      assert.equal(jsonLd.eventAttendanceMode, 'https://schema.org/OnlineEventAttendanceMode');
      assert.equal(Date.parse(jsonLd.startDate), seconds(startsAt));
      assert.deepEqual(await accessibilityProblems(page), []);
      await photograph(page, join(shots, '1-event-signed-out.png'));

      await page.getByRole('link', { name: 'Sign in to register' }).click();
      await signIn(page, visitor);
      await page.waitForURL(`${server.url}/events/${made.slug}`);
      await page.getByRole('button', { name: 'Register' }).click();
      await page.waitForURL(`${server.url}/events/${made.slug}`);
      const box = page.getByRole('complementary', { name: 'Registration' });
      assert.match((await box.textContent()) ?? '', /You are registered\./);
      assert.equal(await page.getByRole('link', { name: 'Join the event' }).count(), 0, 'no join link 3 hours ahead');
      assert.match((await box.textContent()) ?? '', /The link to join appears here from/);
      assert.equal((await page.content()).includes('meet.example.test'), false, 'the join URL is not in the page');
      assert.deepEqual(await accessibilityProblems(page), []);
      await photograph(page, join(shots, '2-registered.png'));

      const confirmation = await mailTo(visitor.email, /You are registered for Live critique night/);
      assert.match(confirmation.text, /Central European/, 'the mail names the event’s time zone');

      const [download] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('link', { name: 'Add to calendar (.ics)' }).click(),
      ]);
      const ics = await downloadedText(download);
      const calendar = new ICAL.Component(ICAL.parse(ics));
      const vevent = calendar.getFirstSubcomponent('vevent');
      assert.ok(vevent, 'the file holds an event');
      const parsed = new ICAL.Event(vevent);
      assert.equal(parsed.summary, 'Live critique night');
      assert.equal(parsed.startDate.toJSDate().getTime(), seconds(startsAt));
      assert.equal(parsed.endDate.toJSDate().getTime(), seconds(endsAt));
      assert.ok(parsed.uid, 'a stable UID');

      // 2 h 50 min later the join link is 10 minutes from the start: inside the 15 minutes it opens before.
      skew += 2 * HOUR_MS + 50 * MINUTE_MS;
      await page.reload();
      const join_ = page.getByRole('link', { name: 'Join the event' });
      assert.equal(await join_.getAttribute('href'), 'https://meet.example.test/critique');
      await photograph(page, join(shots, '3-join-link.png'));
    } finally {
      skew = 0;
      await context.close();
    }
  });

  test('a full event: the second person joins the waitlist and gets the seat the first one gives up', async () => {
    const made = await event({
      title: 'One-seat portfolio review',
      starts_at: at(48 * HOUR_MS),
      ends_at: at(49 * HOUR_MS),
      timezone: 'UTC',
      address: 'Studio 4, Main Street 1',
      capacity: 1,
    });
    const first = await createUser(server, 'student', 'Fay First');
    const second = await createUser(server, 'student', 'Sid Second');
    const one = await browser.newContext({ viewport: PHONE });
    const two = await browser.newContext({ viewport: PHONE });
    try {
      const a = await one.newPage();
      await a.goto(`${server.url}/signin?return_to=${encodeURIComponent(`/events/${made.slug}`)}`);
      await signIn(a, first);
      await a.waitForURL(`${server.url}/events/${made.slug}`);
      await a.getByRole('button', { name: 'Register' }).click();
      await a.waitForURL(`${server.url}/events/${made.slug}`);
      assert.match((await a.textContent('aside')) ?? '', /You are registered\./);

      const b = await two.newPage();
      await b.goto(`${server.url}/signin?return_to=${encodeURIComponent(`/events/${made.slug}`)}`);
      await signIn(b, second);
      await b.waitForURL(`${server.url}/events/${made.slug}`);
      assert.match((await b.textContent('aside')) ?? '', /The event is full/);
      await b.getByRole('button', { name: 'Join the waitlist' }).click();
      await b.waitForURL(`${server.url}/events/${made.slug}`);
      assert.match((await b.textContent('aside')) ?? '', /You are on the waitlist, number 1\./);
      assert.deepEqual(await accessibilityProblems(b), []);
      await photograph(b, join(shots, '4-waitlisted.png'));

      await a.getByRole('button', { name: 'Cancel my registration' }).click();
      await a.waitForURL(`${server.url}/events/${made.slug}`);
      // The freed seat went to the waitlist at once, so the event is full again for the one who left.
      assert.match((await a.textContent('aside')) ?? '', /Join the waitlist/);

      await b.reload();
      assert.match((await b.textContent('aside')) ?? '', /You are registered\./, 'promoted from the waitlist');
      await mailTo(second.email, /You are on the waitlist for One-seat portfolio review/);
      await mailTo(second.email, /A seat freed up: you are registered for One-seat portfolio review/);
      const { body } = await staff.get(`/api/v1/events/${made.id}`);
      assert.equal((body as { registered_count: number }).registered_count, 1);
      assert.equal((body as { waitlisted_count: number }).waitlisted_count, 0);
    } finally {
      await one.close();
      await two.close();
    }
  });
});
