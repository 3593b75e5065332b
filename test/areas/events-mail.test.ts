import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import ICAL from 'ical.js';
import { ApiError } from '../../src/http/errors.ts';
import { ANONYMOUS, type Principal } from '../../src/http/principal.ts';
import { apiClient, createUser, type Person, schoolWithPeople, tokenFor } from '../support/api.ts';
import { engines } from '../support/databases.ts';
import { ok } from '../support/memberships.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { startSmtpServer } from '../support/smtp.ts';
import { unique } from '../support/unique.ts';

type Client = ReturnType<typeof apiClient>;
type Event = { id: string; slug: string; starts_at: string; ends_at: string; registration: { status: string } | null };

const MINUTE = 60_000;
/** iCalendar times have whole seconds. */
const toSecond = (at: string) => new Date(Math.floor(Date.parse(at) / 1000) * 1000).toISOString();
const userPrincipal = (person: Person, role: Person['role'] = 'student'): Principal => ({
  kind: 'user',
  userId: person.id,
  role,
  clientId: 'test',
  scopes: new Set(),
});

/** The VEVENTs of an iCalendar text, read back by ical.js (the parser calendar software is built on). */
function vevents(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  return calendar.getAllSubcomponents('vevent').map((component) => {
    const event = new ICAL.Event(component);
    return {
      uid: event.uid,
      summary: event.summary,
      start: event.startDate.toJSDate().toISOString(),
      end: event.endDate.toJSDate().toISOString(),
      sequence: event.sequence,
      location: event.location,
      description: event.description,
      url: String(component.getFirstPropertyValue('url')),
      status: String(component.getFirstPropertyValue('status')),
      stamp: component.getFirstPropertyValue('dtstamp'),
    };
  });
}

/** The events area's e-mail and calendars, end to end: messages over a real SMTP server, calendars parsed back. */
for (const engine of engines) {
  describe(`events e-mail, reminders and calendars (${engine})`, () => {
    let server: TestServer;
    let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
    let skew = 0;
    let staff: Client;
    let student: Person;
    let studentApi: Client;
    let other: Person;
    let otherApi: Client;

    const now = () => new Date(Date.now() + skew);
    const inMinutes = (m: number) => new Date(now().getTime() + m * MINUTE).toISOString();
    const events = () => server.services.areas.events;

    before(async () => {
      smtp = await startSmtpServer();
      server = await startTestServer(
        engine,
        { SMTP_URL: smtp.url, JOBS_POLL_MS: '60000', OAUTH_ACCESS_TOKEN_TTL_SECONDS: '86400' },
        { clock: { now } },
      );
      const people = await schoolWithPeople(server);
      student = people.student;
      other = await createUser(server, 'student', 'Olga Other');
      staff = apiClient(server.url, await tokenFor(server, people.staff, 'events:read events:write'));
      studentApi = apiClient(server.url, await tokenFor(server, student, 'events:read account:write'));
      otherApi = apiClient(server.url, await tokenFor(server, other, 'events:read account:write'));
      // The setup's own messages go out first, so each test counts only its own.
      const queued = await server.database.db.selectFrom('outbox').select('id').execute();
      await server.services.jobs.runDue();
      await smtp.waitFor(queued.length);
    });
    after(async () => {
      await server.close();
      await smtp.close();
    });

    const create = async (body: Record<string, unknown> = {}) =>
      ok<Event>(
        await staff.post('/api/v1/events', {
          title: `Evening class ${unique()}`,
          starts_at: inMinutes(60 * 48),
          ends_at: inMinutes(60 * 49),
          // Where it is held: an address unless the test gives a join URL or an address of its own.
          ...('join_url' in body || 'address' in body ? {} : { address: 'Studio 1, Main Street' }),
          ...body,
        }),
        201,
      );
    /** Runs the due jobs (deliveries, reminders) and returns the messages that arrived since `seen`. */
    async function arrived(seen: number, count: number) {
      await server.services.jobs.runDue();
      await smtp.waitFor(seen + count);
      return smtp.received.slice(seen);
    }
    const sentOf = async (kind: string, eventTitle: string) =>
      (
        await server.database.db
          .selectFrom('outbox')
          .select(['to_address', 'subject'])
          .where('kind', '=', kind)
          .execute()
      ).filter((m) => m.subject.includes(eventTitle));

    test('registration, waitlist and promotion mails: the time in the event’s zone, named; the .ics linked', async () => {
      const event = await create({
        title: 'Lino printing',
        starts_at: '2027-01-12T17:00:00Z',
        ends_at: '2027-01-12T18:30:00Z',
        timezone: 'Europe/Berlin',
        join_url: 'https://meet.example.test/lino',
        address: null,
        capacity: 1,
      });
      let seen = smtp.received.length;
      ok(await studentApi.post(`/api/v1/events/${event.id}/register`));
      const [confirmation] = await arrived(seen, 1);
      assert.deepEqual(confirmation?.to, [student.email]);
      assert.equal(confirmation?.subject, 'You are registered for Lino printing');
      assert.match(
        confirmation?.text ?? '',
        /Tuesday, January 12, 2027, 6:00\sPM–7:30\sPM Central European Standard Time \(Europe\/Berlin\)/,
      );
      assert.match(confirmation?.text ?? '', new RegExp(`/events/${event.slug}\\.ics`));
      assert.match(
        confirmation?.text ?? '',
        /link to join shows on the event page .* from .*5:45\sPM Central European Standard Time \(Europe\/Berlin\)/,
      );
      assert.doesNotMatch(confirmation?.text ?? '', /meet\.example\.test/, 'the join URL itself is not mailed');

      seen = smtp.received.length;
      ok(await otherApi.post(`/api/v1/events/${event.slug}/register`));
      const [waitlisted] = await arrived(seen, 1);
      assert.deepEqual(waitlisted?.to, [other.email]);
      assert.equal(waitlisted?.subject, 'You are on the waitlist for Lino printing');
      assert.match(waitlisted?.text ?? '', /number 1 in line/);

      seen = smtp.received.length;
      ok(await studentApi.post(`/api/v1/events/${event.id}/unregister`));
      const [promoted] = await arrived(seen, 1);
      assert.deepEqual(promoted?.to, [other.email]);
      assert.equal(promoted?.subject, 'A seat freed up: you are registered for Lino printing');
    });

    test('a move and a cancel are told to everyone registered and waitlisted', async () => {
      const title = `Watercolour ${unique()}`;
      const event = await create({
        title,
        capacity: 1,
        starts_at: '2027-03-02T10:00:00Z',
        ends_at: '2027-03-02T11:00:00Z',
      });
      ok(await studentApi.post(`/api/v1/events/${event.id}/register`));
      ok(await otherApi.post(`/api/v1/events/${event.id}/register`));
      await arrived(smtp.received.length, 0);
      let seen = smtp.received.length;
      ok(await staff.patch(`/api/v1/events/${event.id}`, { description: 'Bring brushes.' }));
      assert.equal((await sentOf('event_moved', title)).length, 0, 'a change that is not a move tells nobody');
      ok(
        await staff.patch(`/api/v1/events/${event.id}`, {
          starts_at: '2027-03-03T10:00:00Z',
          ends_at: '2027-03-03T11:00:00Z',
        }),
      );
      const moved = await arrived(seen, 2);
      assert.deepEqual(moved.flatMap((m) => m.to).sort(), [other.email, student.email].sort());
      for (const message of moved) {
        assert.equal(message.subject, `${title} has moved`);
        assert.match(message.text, /Wednesday, March 3, 2027/);
        assert.match(message.text, /it was Tuesday, March 2, 2027/);
      }
      seen = smtp.received.length;
      ok(await staff.post(`/api/v1/events/${event.id}/cancel`));
      const canceled = await arrived(seen, 2);
      assert.deepEqual(canceled.flatMap((m) => m.to).sort(), [other.email, student.email].sort());
      for (const message of canceled) assert.equal(message.subject, `${title} is canceled`);
    });

    test('the reminder: a day before, to seat holders, once even when run twice or at once; not after a move or cancel', async () => {
      const title = `Reminded ${unique()}`;
      const event = await create({
        title,
        capacity: 1,
        starts_at: inMinutes(24 * 60 + 30),
        ends_at: inMinutes(25 * 60),
      });
      const movedTitle = `Moved ${unique()}`;
      const moved = await create({
        title: movedTitle,
        starts_at: inMinutes(24 * 60 + 20),
        ends_at: inMinutes(25 * 60),
      });
      const canceledTitle = `Called off ${unique()}`;
      const canceled = await create({
        title: canceledTitle,
        starts_at: inMinutes(24 * 60 + 20),
        ends_at: inMinutes(25 * 60),
      });
      for (const id of [event.id, moved.id, canceled.id]) ok(await studentApi.post(`/api/v1/events/${id}/register`));
      ok(await otherApi.post(`/api/v1/events/${event.id}/register`));
      const later = { starts_at: inMinutes(72 * 60), ends_at: inMinutes(73 * 60) };
      ok(await staff.patch(`/api/v1/events/${moved.id}`, later));
      ok(await staff.post(`/api/v1/events/${canceled.id}/cancel`));
      await arrived(smtp.received.length, 0);
      await server.services.jobs.runDue();
      assert.equal((await sentOf('event_reminder', title)).length, 0, 'not yet due');

      const seen = smtp.received.length;
      skew += 31 * MINUTE;
      try {
        const [reminder] = await arrived(seen, 1);
        assert.deepEqual(reminder?.to, [student.email], 'the seat holder, not the waitlisted person');
        assert.equal(reminder?.subject, `Reminder: ${title} starts soon`);
        assert.deepEqual(await events().remind({ event_id: event.id, starts_at: event.starts_at }), { sent: 0 });
        assert.equal((await sentOf('event_reminder', title)).length, 1, 'run twice, sent once');
        assert.equal((await sentOf('event_reminder', movedTitle)).length, 0, "the moved event's old job did nothing");
        assert.equal((await sentOf('event_reminder', canceledTitle)).length, 0, 'a canceled event reminds nobody');
        // Two instances running the moved event's new job at the same moment: one reminder.
        const twice = await Promise.all([
          events().remind({ event_id: moved.id, starts_at: new Date(later.starts_at).toISOString() }),
          events().remind({ event_id: moved.id, starts_at: new Date(later.starts_at).toISOString() }),
        ]);
        assert.equal(
          twice.reduce((n, r) => n + r.sent, 0),
          1,
        );
        assert.equal((await sentOf('event_reminder', movedTitle)).length, 1);
      } finally {
        skew -= 31 * MINUTE;
      }
    });

    test('.ics: stable UID, UTC times, SEQUENCE up with a move, CANCELLED; the join URL only when the caller sees it', async () => {
      const event = await create({
        title: 'Etching; with acid, carefully',
        description: 'Plates provided.',
        starts_at: inMinutes(120),
        ends_at: inMinutes(180),
        timezone: 'America/New_York',
        join_url: 'https://meet.example.test/etch',
      });
      ok(await studentApi.post(`/api/v1/events/${event.id}/register`));
      const host = new URL(server.url).hostname;
      const [asStudent] = vevents(await events().eventCalendar(userPrincipal(student), event.slug));
      assert.equal(asStudent?.uid, `${event.id}@${host}`);
      assert.equal(asStudent?.summary, 'Etching; with acid, carefully');
      assert.equal(asStudent?.start, toSecond(event.starts_at));
      assert.equal(asStudent?.end, toSecond(event.ends_at));
      assert.equal(asStudent?.sequence, 0);
      assert.equal(asStudent?.status, 'CONFIRMED');
      assert.equal(asStudent?.url, `${server.url}/events/${event.slug}`);
      assert.match(asStudent?.description ?? '', /Plates provided\.[\s\S]*America\/New_York/);
      assert.ok(asStudent?.stamp, 'DTSTAMP');
      assert.doesNotMatch(JSON.stringify(asStudent), /meet\.example\.test/, 'not yet: the join link opens later');
      const staffView = vevents(await events().eventCalendar(userPrincipal(student, 'staff'), event.id))[0];
      assert.match(staffView?.location ?? '', /meet\.example\.test\/etch/);
      skew += 110 * MINUTE;
      try {
        const [joinable] = vevents(await events().eventCalendar(userPrincipal(student), event.id));
        assert.equal(joinable?.location, 'https://meet.example.test/etch');
        const [stranger] = vevents(await events().eventCalendar(ANONYMOUS, event.id));
        assert.doesNotMatch(JSON.stringify(stranger), /meet\.example\.test/);
      } finally {
        skew -= 110 * MINUTE;
      }
      ok(await staff.patch(`/api/v1/events/${event.id}`, { starts_at: inMinutes(150), ends_at: inMinutes(200) }));
      const [movedOne] = vevents(await events().eventCalendar(ANONYMOUS, event.id));
      assert.equal(movedOne?.sequence, 1);
      assert.equal(movedOne?.uid, asStudent?.uid);
      ok(await staff.post(`/api/v1/events/${event.id}/cancel`));
      const [canceledOne] = vevents(await events().eventCalendar(ANONYMOUS, event.id));
      assert.equal(canceledOne?.status, 'CANCELLED');
      assert.equal(canceledOne?.sequence, 2);
    });

    test('the private feed: the same URL until reset, then the old one is not found; seats, waitlist and cancels in it', async () => {
      const person = await createUser(server, 'student', `Feed ${unique()}`);
      const client = apiClient(server.url, await tokenFor(server, person, 'account:write'));
      const seat = await create({ title: 'Feed seat' });
      const full = await create({ title: 'Feed full', capacity: 1 });
      const off = await create({ title: 'Feed off' });
      const left = await create({ title: 'Feed left' });
      ok(await studentApi.post(`/api/v1/events/${full.id}/register`));
      for (const e of [seat, full, off, left]) ok(await client.post(`/api/v1/events/${e.id}/register`));
      ok(await client.post(`/api/v1/events/${left.id}/unregister`));
      ok(await staff.post(`/api/v1/events/${off.id}/cancel`));

      const me = userPrincipal(person);
      const url = await events().calendarFeedUrl(me);
      assert.match(url, new RegExp(`^${server.url}/calendar/[A-Za-z0-9_-]{43}\\.ics$`));
      assert.equal(await events().calendarFeedUrl(me), url, 'the same URL when asked again');
      const secret = (url.split('/calendar/')[1] ?? '').replace(/\.ics$/, '');
      const feed = vevents(await events().feedCalendar(secret));
      assert.deepEqual(feed.map((e) => [e.summary, e.status]).sort(), [
        ['Feed full', 'TENTATIVE'],
        ['Feed off', 'CANCELLED'],
        ['Feed seat', 'CONFIRMED'],
      ]);
      const stored = await server.database.db
        .selectFrom('calendar_feeds')
        .selectAll()
        .where('user_id', '=', person.id)
        .executeTakeFirstOrThrow();
      assert.ok(!JSON.stringify(stored).includes(secret), 'the secret itself is not stored');

      const fresh = await events().resetCalendarFeed(me);
      assert.notEqual(fresh, url);
      assert.equal(await events().calendarFeedUrl(me), fresh);
      await assert.rejects(events().feedCalendar(secret), (e: unknown) => e instanceof ApiError && e.status === 404);
      await assert.rejects(
        events().feedCalendar('not-a-secret'),
        (e: unknown) => e instanceof ApiError && e.status === 404,
      );
      assert.equal(
        vevents(await events().feedCalendar((fresh.split('/calendar/')[1] ?? '').replace(/\.ics$/, ''))).length,
        3,
      );
      await assert.rejects(
        events().calendarFeedUrl(ANONYMOUS),
        (e: unknown) => e instanceof ApiError && e.status === 403,
      );
    });
  });
}
