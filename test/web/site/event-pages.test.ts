import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import ICAL from 'ical.js';
import { apiClient, createUser, type Person, schoolWithPeople, tokenFor } from '../../support/api.ts';
import { engines } from '../../support/databases.ts';
import { legacyClient } from '../../support/mcp.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { csrfOf, signedInClient, WebClient } from '../../support/web-client.ts';

type Client = ReturnType<typeof apiClient>;
type Made = { id: string; slug: string; title: string };
const HOUR_MS = 3_600_000;

const ok = <T>(response: { status: number; body: unknown }, status = 200) => {
  assert.equal(response.status, status, JSON.stringify(response.body));
  return response.body as T;
};

const signedIn = (server: TestServer, person: Person) => signedInClient(server.url, person);

const veventsOf = (ics: string) =>
  new ICAL.Component(ICAL.parse(ics)).getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));

for (const engine of engines) {
  describe(`the event pages (${engine})`, () => {
    let server: TestServer;
    let staff: Client;
    let student: Person;
    let now = Date.now();
    const at = (offsetMs: number) => new Date(now + offsetMs).toISOString();
    let open: Made;
    let hidden: Made;
    let canceled: Made;
    let past: Made;

    const event = async (input: Record<string, unknown>) =>
      ok<Made>(
        await staff.post('/api/v1/events', {
          starts_at: at(24 * HOUR_MS),
          ends_at: at(25 * HOUR_MS),
          timezone: 'Europe/Warsaw',
          ...('join_url' in input || 'address' in input ? {} : { address: 'Main hall' }),
          ...input,
        }),
        201,
      );

    before(async () => {
      server = await startTestServer(
        engine,
        { LIST_CACHE_MS: '0', DOCS_CACHE_SECONDS: '0' },
        {
          clock: { now: () => new Date(now) },
        },
      );
      const people = await schoolWithPeople(server);
      student = people.student;
      staff = apiClient(server.url, await tokenFor(server, people.staff, 'events:write events:read'));
      open = await event({
        title: 'Open studio',
        description: 'Painting together.',
        join_url: 'https://meet.example.test/open-studio',
      });
      hidden = await event({ title: 'Quiet unlisted session', visibility: 'unlisted', address: 'Room 2' });
      canceled = await event({ title: 'Called-off session' });
      ok(await staff.post(`/api/v1/events/${canceled.id}/cancel`));
      past = await event({ title: 'Last month’s meetup', starts_at: at(2 * HOUR_MS), ends_at: at(3 * HOUR_MS) });
      // The clock moves past "past"'s end: it has ended by itself.
      now += 4 * HOUR_MS;
    });
    after(async () => {
      await server?.close();
    });

    test('/events lists the upcoming public events; unlisted, canceled and ended ones are not listed', async () => {
      const page = await new WebClient(server.url).get('/events');
      assert.equal(page.status, 200);
      assert.match(page.text, /Open studio/);
      assert.doesNotMatch(page.text, /Quiet unlisted session|Called-off session|Last month/);
      assert.match(page.text, /<time class="event-time" datetime="[^"]+" data-end="[^"]+" data-zone="Europe\/Warsaw"/);
      assert.match(
        page.text,
        /Central European (Standard|Summer) Time/,
        'the event’s zone is named without JavaScript',
      );
      assert.match(page.text, /<script src="\/assets\/local-time\.js\?v=[\w-]+" defer><\/script>/);
      const earlier = await new WebClient(server.url).get('/events?when=past');
      assert.match(earlier.text, /Last month/);
      assert.doesNotMatch(earlier.text, /Open studio/);
      const script = await new WebClient(server.url).get('/assets/local-time.js');
      assert.equal(script.status, 200);
      assert.match(script.headers.get('content-type') ?? '', /javascript/);
    });

    test('an event page: schema.org Event markup, unlisted by its link with noindex, unknown ones 404', async () => {
      const page = await new WebClient(server.url).get(`/events/${open.slug}`);
      assert.equal(page.status, 200);
      const jsonLd = JSON.parse(/<script type="application\/ld\+json">(.*?)<\/script>/s.exec(page.text)?.[1] ?? '{}');
      assert.equal(jsonLd['@type'], 'Event');
      assert.equal(jsonLd.eventStatus, 'https://schema.org/EventScheduled');
      assert.equal(jsonLd.location['@type'], 'VirtualLocation');
      assert.equal(jsonLd.organizer.name.length > 0, true);
      assert.match(
        jsonLd.startDate,
        /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0[12]:00$/,
        'Warsaw local time with offset',
      );
      assert.equal(Date.parse(jsonLd.startDate), Math.floor(Date.parse(at(20 * HOUR_MS)) / 1000) * 1000);
      assert.doesNotMatch(page.text, /meet\.example\.test/, 'no join URL for a visitor');
      assert.match(page.text, /Sign in to register/);
      // Anyone may hold the date before deciding or signing in.
      assert.match(page.text, new RegExp(`<a href="/events/${open.slug}\\.ics" download>Add to calendar</a>`));

      const unlisted = await new WebClient(server.url).get(`/events/${hidden.slug}`);
      assert.equal(unlisted.status, 200);
      assert.match(unlisted.text, /<meta name="robots" content="noindex">/);
      assert.match(unlisted.text, /OfflineEventAttendanceMode/);

      const gone = await new WebClient(server.url).get(`/events/${canceled.slug}`);
      assert.match(gone.text, /This event was canceled\./);
      assert.match(gone.text, /EventCancelled/);
      assert.doesNotMatch(gone.text, /Add to calendar/, 'not for a canceled event');
      assert.doesNotMatch((await new WebClient(server.url).get(`/events/${past.slug}`)).text, /Add to calendar/);
      assert.equal((await new WebClient(server.url).get('/events/no-such-event')).status, 404);
      assert.equal((await new WebClient(server.url).get('/events/no-such-event.ics')).status, 404);
    });

    test('the .ics of an event parses back; a canceled one says CANCELLED; a visitor never gets the join URL', async () => {
      const file = await new WebClient(server.url).get(`/events/${open.slug}.ics`);
      assert.equal(file.status, 200);
      assert.match(file.headers.get('content-type') ?? '', /^text\/calendar/);
      assert.match(file.headers.get('content-disposition') ?? '', /attachment; filename="open-studio\.ics"/);
      const [vevent] = veventsOf(file.text);
      assert.equal(vevent?.summary, 'Open studio');
      assert.doesNotMatch(file.text, /meet\.example\.test/);
      const off = await new WebClient(server.url).get(`/events/${canceled.slug}.ics`);
      assert.equal(veventsOf(off.text)[0]?.component.getFirstPropertyValue('status'), 'CANCELLED');
    });

    test('registering from the page needs sign-in and the CSRF token; the page then shows the registration', async () => {
      const visitor = new WebClient(server.url);
      const anonymous = await visitor.postForm(`/events/${open.slug}/register`, {});
      assert.equal(anonymous.status, 303);
      assert.equal(anonymous.location, `/signin?return_to=${encodeURIComponent(`/events/${open.slug}`)}`);

      const person = await createUser(server, 'student', 'Page Registrant');
      const client = await signedIn(server, person);
      const forged = await client.postForm(`/events/${open.slug}/register`, { _csrf: 'forged' });
      assert.equal(forged.status, 403, 'a forged CSRF token is refused');
      const done = await client.submit(`/events/${open.slug}`, `/events/${open.slug}/register`, {});
      assert.equal(done.status, 303);
      assert.equal(done.location, `/events/${open.slug}`);
      const page = await client.get(`/events/${open.slug}`);
      assert.match(page.text, /You are registered\./);
      assert.equal(page.text.match(/Add to calendar/g)?.length, 1, 'once, beside the feed');
      assert.equal(page.headers.get('cache-control'), 'private, no-store');
      const again = await client.submit(`/events/${hidden.slug}`, `/events/${canceled.slug}/register`, {});
      assert.equal(again.status, 409, 'a canceled event refuses, on the page');
      assert.match(again.text, /class="error" role="alert"/);

      const left = await client.submit(`/events/${open.slug}`, `/events/${open.slug}/unregister`, {});
      assert.equal(left.status, 303);
      const after = await client.get(`/events/${open.slug}`);
      assert.match(after.text, /<button type="submit">Register<\/button>/);
      assert.match(after.text, /Add to calendar/, 'a signed-in person not registered gets it too');
    });

    test('the private calendar feed: signed in to see its address, lists the person’s events, replaced on request', async () => {
      const signedOut = await new WebClient(server.url).get('/account/calendar');
      assert.equal(signedOut.status, 303);
      const client = await signedIn(server, student);
      ok(
        await apiClient(server.url, await tokenFor(server, student, 'account:write')).post(
          `/api/v1/events/${open.id}/register`,
        ),
        200,
      );
      const page = await client.get('/account/calendar');
      assert.equal(page.status, 200);
      const feedUrl = /id="feed-url" type="text" readonly value="([^"]+)"/.exec(page.text)?.[1] ?? '';
      assert.match(feedUrl, new RegExp(`^${server.url}/calendar/[\\w-]+\\.ics$`));
      assert.match(page.text, /href="webcal:\/\//);
      const feed = await new WebClient(server.url).get(new URL(feedUrl).pathname);
      assert.equal(feed.status, 200);
      assert.match(feed.headers.get('content-type') ?? '', /^text\/calendar/);
      assert.equal(feed.headers.get('x-robots-tag'), 'noindex');
      assert.deepEqual(
        veventsOf(feed.text).map((e) => e.summary),
        ['Open studio'],
      );

      const reset = await client.postForm('/account/calendar/reset', { _csrf: csrfOf(page.text) });
      assert.equal(reset.status, 303);
      const after_ = await client.get(reset.location ?? '');
      assert.match(after_.text, /the old one no longer works/);
      const newUrl = /id="feed-url" type="text" readonly value="([^"]+)"/.exec(after_.text)?.[1] ?? '';
      assert.notEqual(newUrl, feedUrl);
      assert.equal(
        (await new WebClient(server.url).get(new URL(feedUrl).pathname)).status,
        404,
        'the old address is gone',
      );
      assert.equal((await new WebClient(server.url).get(new URL(newUrl).pathname)).status, 200);
      assert.equal((await new WebClient(server.url).get('/calendar/not-a-secret.ics')).status, 404);
      const secret = new URL(feedUrl).pathname.split('/').pop()?.replace('.ics', '') ?? '';
      assert.ok(secret.length > 20);
      assert.ok(!server.logs.some((line) => line.includes(secret)), 'the feed secret never reaches the log');
      assert.ok(
        server.logs.some((line) => line.includes('/calendar/[redacted]')),
        'the fetches are logged, redacted',
      );
    });

    test('the sitemap, /llms.txt and the anonymous MCP tools list the upcoming public events only', async () => {
      const sitemap = await new WebClient(server.url).get('/sitemap.xml');
      assert.match(sitemap.text, new RegExp(`<loc>${server.url}/events/${open.slug}</loc>`));
      assert.doesNotMatch(sitemap.text, new RegExp(`/events/(${hidden.slug}|${canceled.slug}|${past.slug})<`));
      const llms = await new WebClient(server.url).get('/llms.txt');
      assert.match(llms.text, /## Upcoming events/);
      assert.match(
        llms.text,
        new RegExp(`- \\[Open studio\\]\\(${server.url}/events/${open.slug}\\): .*Central European`),
      );
      assert.match(llms.text, new RegExp(`API ${server.url}/api/v1/events/${open.id}`));
      assert.doesNotMatch(llms.text, /Quiet unlisted session|Called-off session|Last month/);
      const mcp = await legacyClient(server.url);
      const listed = await mcp.callTool({ name: 'listEvents', arguments: { when: 'upcoming' } });
      await mcp.close();
      const text = JSON.stringify(listed.structuredContent);
      assert.match(text, /Open studio/);
      assert.doesNotMatch(text, /Quiet unlisted session/);
    });
  });
}
