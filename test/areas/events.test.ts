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
import { courseWithLesson, ok, planWithPrice } from '../support/memberships.ts';
import { refusedOnExactly } from '../support/refusals.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { paginatesLikeEveryList } from '../support/shared-examples.ts';
import { unique } from '../support/unique.ts';

type Client = ReturnType<typeof apiClient>;
type Own = { id: string; status: string; waitlist_position: number | null; registered_at: string };
type Event = {
  id: string;
  slug: string;
  title: string;
  starts_at: string;
  ends_at: string;
  timezone: string;
  online: boolean;
  join_url: string | null;
  join_opens_at: string | null;
  capacity: number | null;
  registered_count: number;
  waitlisted_count: number;
  seats_left: number | null;
  lecturer_ids: string[];
  course_id: string | null;
  plan_id: string | null;
  visibility: string;
  status: string;
  registration: Own | null;
  canceled_at: string | null;
};
type Registration = {
  id: string;
  event_id: string;
  user_id: string;
  email: string;
  status: string;
  waitlist_position: number | null;
  attended: boolean | null;
  promoted_at: string | null;
  canceled_at: string | null;
};
type Page<T> = { data: T[]; has_more: boolean; next_cursor: string | null };

const STAFF_SCOPES =
  'events:read events:write account:write courses:write curriculum:write students:write membership_plans:write members:write lecturers:write analytics:read';
// A student may not grant events:write: it is dropped from their token.
const STUDENT_SCOPES = 'events:read events:write account:write';
const MINUTE = 60_000;

const conflict = (response: { status: number; body: unknown }, pattern?: RegExp) => {
  assert.equal(response.status, 409, JSON.stringify(response.body));
  if (pattern) assert.match((response.body as { error_description: string }).error_description, pattern);
};

for (const engine of engines) {
  describe(`events API (${engine})`, () => {
    let server: TestServer;
    let skew = 0;
    let staff: Client;
    let readOnly: Client;
    let otherScope: Client;
    let anonymous: Client;
    let student: Person;
    let studentApi: Client;
    let studentRead: Client;
    let other: Person;
    let otherApi: Client;

    const now = () => new Date(Date.now() + skew);
    const inMinutes = (m: number) => new Date(now().getTime() + m * MINUTE).toISOString();
    const events = () => server.services.areas.events;

    before(async () => {
      // The server's clock runs `skew` ahead of the test's: moved by hand, never waited for.
      server = await startTestServer(
        engine,
        { JOBS_POLL_MS: '60000', OAUTH_REGISTRATIONS_PER_HOUR: '1000', OAUTH_ACCESS_TOKEN_TTL_SECONDS: '86400' },
        { clock: { now } },
      );
      const people = await schoolWithPeople(server);
      student = people.student;
      other = await createUser(server, 'student', 'Otto Other');
      staff = apiClient(server.url, await tokenFor(server, people.staff, STAFF_SCOPES));
      readOnly = apiClient(server.url, await tokenFor(server, people.staff, 'events:read'));
      otherScope = apiClient(server.url, await tokenFor(server, people.staff, 'courses:read'));
      studentApi = apiClient(server.url, await tokenFor(server, student, STUDENT_SCOPES));
      studentRead = apiClient(server.url, await tokenFor(server, student, 'events:read'));
      otherApi = apiClient(server.url, await tokenFor(server, other, STUDENT_SCOPES));
      anonymous = apiClient(server.url);
    });
    after(() => server.close());

    const create = async (body: Record<string, unknown> = {}) =>
      ok<Event>(
        await staff.post('/api/v1/events', {
          title: `Live session ${unique()}`,
          starts_at: inMinutes(60 * 48),
          ends_at: inMinutes(60 * 49),
          // Where it is held: an address unless the test gives a join URL or an address of its own.
          ...('join_url' in body || 'address' in body ? {} : { address: 'Studio 1, Main Street' }),
          ...body,
        }),
        201,
      );
    const register = async (client: Client, key: string, status = 200) =>
      ok<Event>(await client.post(`/api/v1/events/${key}/register`), status);
    const registrations = (id: string, query = '') =>
      listAll<Registration>(staff, `/api/v1/events/${id}/registrations?sort=created_at&${query}`);

    test('every operation: anonymous, a token without the scope and a student on staff writes are 403', async () => {
      const id = newId('evt');
      const reg = newId('reg');
      const operations: [string, string, string, unknown?][] = [
        ['POST', '/api/v1/events', 'events:write', { title: 'X', starts_at: inMinutes(60), ends_at: inMinutes(90) }],
        ['PATCH', `/api/v1/events/${id}`, 'events:write', { title: 'Y' }],
        ['DELETE', `/api/v1/events/${id}`, 'events:write'],
        ['POST', `/api/v1/events/${id}/cancel`, 'events:write', {}],
        ['POST', `/api/v1/events/${id}/registrations`, 'events:write', { user_id: student.id }],
        ['DELETE', `/api/v1/events/${id}/registrations/${reg}`, 'events:write'],
        [
          'POST',
          `/api/v1/events/${id}/attendance`,
          'events:write',
          { records: [{ user_id: student.id, attended: true }] },
        ],
        ['GET', `/api/v1/events/${id}/registrations`, 'events:read'],
        ['POST', `/api/v1/events/${id}/register`, 'account:write', {}],
        ['POST', `/api/v1/events/${id}/unregister`, 'account:write', {}],
      ];
      for (const [method, path, scope, body] of operations) {
        const callers: [string, Client][] = [
          ['anonymous', anonymous],
          ['staff without the scope', otherScope],
          ...(scope === 'events:write'
            ? [
                ['a student', studentApi] as [string, Client],
                ['staff with events:read only', readOnly] as [string, Client],
              ]
            : []),
          ...(scope === 'account:write' ? [['a student with events:read only', studentRead] as [string, Client]] : []),
        ];
        for (const [who, client] of callers) {
          const response = await client.call(method, path, body);
          assert.equal(response.status, 403, `${method} ${path} as ${who}`);
          assert.equal((response.body as { error: string }).error, 'insufficient_scope');
          assert.match(response.headers.get('www-authenticate') ?? '', insufficientScopeChallenge(scope));
        }
      }
      for (const path of ['/api/v1/events', `/api/v1/events/${id}`]) {
        assert.equal((await otherScope.get(path)).status, 403, `${path} with a token lacking the scope`);
        assert.notEqual((await anonymous.get(path)).status, 403, `${path} serves anonymous callers`);
      }
    });

    test('create: defaults, lecturers in order, get by id or slug; refusals name every field at once', async () => {
      const lecturers = await Promise.all(
        ['Ada', 'Bea'].map(async (name) => ok<{ id: string }>(await staff.post('/api/v1/lecturers', { name }), 201)),
      );
      const made = await create({
        title: '  Ink drawing live ',
        lecturer_ids: [lecturers[1]?.id, lecturers[0]?.id],
        join_url: 'https://meet.example.test/ink',
        capacity: 30,
      });
      assert.match(made.id, /^evt_[0-9a-z]{26}$/);
      assert.equal(made.title, 'Ink drawing live');
      assert.match(made.slug, /^ink-drawing-live/);
      const school = await server.database.db.selectFrom('school').select('timezone').executeTakeFirstOrThrow();
      assert.equal(made.timezone, school.timezone, "the school's zone by default");
      assert.equal(made.status, 'scheduled');
      assert.equal(made.visibility, 'public');
      assert.equal(made.online, true);
      assert.equal(made.join_url, 'https://meet.example.test/ink', 'staff see the join URL');
      assert.equal(made.join_opens_at, new Date(Date.parse(made.starts_at) - 15 * MINUTE).toISOString());
      assert.deepEqual(made.lecturer_ids, [lecturers[1]?.id, lecturers[0]?.id]);
      assert.equal(made.seats_left, 30);
      for (const key of [made.id, made.slug]) {
        const seen = ok<Event>(await anonymous.get(`/api/v1/events/${key}`));
        assert.equal(seen.id, made.id);
        assert.equal(seen.join_url, null, 'anonymous callers never see the join URL');
        assert.equal(seen.registration, null);
      }
      assert.equal((await anonymous.get('/api/v1/events/no-such-event')).status, 404);

      refusedOnExactly(
        await staff.post('/api/v1/events', {
          title: 'Backwards',
          starts_at: inMinutes(120),
          ends_at: inMinutes(60),
          timezone: 'Mars/Olympus_Mons',
          course_id: newId('crs'),
          plan_id: newId('pln'),
          lecturer_ids: [newId('lec')],
        }),
        'ends_at',
        'join_url',
        'timezone',
        'course_id',
        'plan_id',
        'lecturer_ids',
      );
      const unknownField = await staff.post('/api/v1/events', {
        title: 'X',
        starts_at: inMinutes(60),
        ends_at: inMinutes(90),
        seats: 3,
      });
      assert.equal(unknownField.status, 400);
      assert.equal((await staff.post('/api/v1/events', { title: 'No times' })).status, 400);
      conflict(
        await staff.post('/api/v1/events', {
          title: 'X',
          address: 'Room 2',
          slug: made.slug,
          starts_at: inMinutes(60),
          ends_at: inMinutes(90),
        }),
      );
      refusedOnExactly(await staff.patch(`/api/v1/events/${made.id}`, { ends_at: made.starts_at }), 'ends_at');
      refusedOnExactly(
        await staff.patch(`/api/v1/events/${made.id}`, { course_id: newId('crs'), timezone: 'Nowhere' }),
        'timezone',
        'course_id',
      );
      // Only the IANA database's own names: an alias in the wrong case would not match a browser's zone.
      refusedOnExactly(await staff.patch(`/api/v1/events/${made.id}`, { timezone: 'europe/berlin' }), 'timezone');
      refusedOnExactly(await staff.patch(`/api/v1/events/${made.id}`, { join_url: null }), 'join_url');
      assert.equal(
        ok<Event>(await staff.patch(`/api/v1/events/${made.id}`, { join_url: null, address: 'Hall B' })).online,
        false,
        'an address instead of the link',
      );
      ok(await staff.patch(`/api/v1/events/${made.id}`, { join_url: 'https://meet.example.test/ink', address: null }));
      assert.equal(
        (await staff.post(`/api/v1/events/${newId('evt')}/registrations`, { user_id: newId('usr') })).status,
        404,
        'an unknown event is 404 whatever the body names',
      );
      const zoned = ok<Event>(
        await staff.patch(`/api/v1/events/${made.id}`, { timezone: 'Europe/Berlin', lecturer_ids: [lecturers[0]?.id] }),
      );
      assert.equal(zoned.timezone, 'Europe/Berlin');
      assert.deepEqual(zoned.lecturer_ids, [lecturers[0]?.id]);
    });

    test('lists: public events for everyone, unlisted ones to staff only (anyone with the link gets them)', async () => {
      const tag = unique();
      const shown = await create({ title: `Listed ${tag}` });
      const hidden = await create({ title: `Hidden ${tag}`, visibility: 'unlisted' });
      const ids = async (client: Client) => (await listAll<Event>(client, `/api/v1/events?q=${tag}`)).map((e) => e.id);
      assert.deepEqual(await ids(staff), [hidden.id, shown.id]);
      for (const client of [anonymous, studentRead]) {
        assert.deepEqual(await ids(client), [shown.id]);
        assert.equal(ok<Event>(await client.get(`/api/v1/events/${hidden.slug}`)).id, hidden.id);
      }
    });

    test('lists page like every list (newest created first)', async () => {
      const tag = unique();
      await paginatesLikeEveryList({
        staff,
        query: `/api/v1/events?q=${tag}`,
        make: (i) => create({ title: `Paged ${tag} ${i}` }),
        remove: (id) => staff.delete(`/api/v1/events/${id}`),
      });
    });

    test('when=upcoming goes by start time, soonest first, page by page; when=past latest first', async () => {
      const tag = unique();
      const later = await create({ title: `Order ${tag} c`, starts_at: inMinutes(300), ends_at: inMinutes(360) });
      const soon = await create({ title: `Order ${tag} a`, starts_at: inMinutes(100), ends_at: inMinutes(160) });
      const middle = await create({ title: `Order ${tag} b`, starts_at: inMinutes(200), ends_at: inMinutes(260) });
      const canceled = await create({ title: `Order ${tag} x`, starts_at: inMinutes(150), ends_at: inMinutes(170) });
      ok(await staff.post(`/api/v1/events/${canceled.id}/cancel`));
      const first = ok<Page<Event>>(await anonymous.get(`/api/v1/events?q=${tag}&when=upcoming&limit=2`));
      assert.deepEqual(
        first.data.map((e) => e.id),
        [soon.id, middle.id],
      );
      assert.equal(first.next_cursor, middle.id);
      const second = ok<Page<Event>>(
        await anonymous.get(`/api/v1/events?q=${tag}&when=upcoming&limit=2&starting_after=${first.next_cursor}`),
      );
      assert.deepEqual(
        second.data.map((e) => e.id),
        [later.id],
      );
      assert.equal(second.has_more, false);
      assert.deepEqual(
        (await events().upcomingPublic(100)).filter((e) => e.title.includes(tag)).map((e) => e.id),
        [soon.id, middle.id, later.id],
      );
      assert.deepEqual(
        (await listAll<Event>(anonymous, `/api/v1/events?q=${tag}&status=canceled`)).map((e) => e.id),
        [canceled.id],
      );
      skew += 400 * MINUTE;
      try {
        const past = await listAll<Event>(anonymous, `/api/v1/events?q=${tag}&when=past`);
        assert.deepEqual(
          past.map((e) => e.id),
          [later.id, middle.id, soon.id],
        );
        assert.ok(past.every((e) => e.status === 'ended'));
        assert.deepEqual(await listAll(anonymous, `/api/v1/events?q=${tag}&when=upcoming`), []);
      } finally {
        skew -= 400 * MINUTE;
      }
      assert.equal((await anonymous.get(`/api/v1/events?when=upcoming&starting_after=nope`)).status, 400);
    });

    test('status follows the clock; cancel only while scheduled; delete only what nobody registered for', async () => {
      const event = await create({ starts_at: inMinutes(10), ends_at: inMinutes(20) });
      skew += 10 * MINUTE;
      try {
        assert.equal(ok<Event>(await anonymous.get(`/api/v1/events/${event.id}`)).status, 'live');
        conflict(
          await staff.patch(`/api/v1/events/${event.id}`, { starts_at: inMinutes(60), ends_at: inMinutes(120) }),
          /started; its times/,
        );
        assert.equal(
          ok<Event>(await staff.patch(`/api/v1/events/${event.id}`, { title: 'Renamed live' })).title,
          'Renamed live',
        );
        conflict(await staff.post(`/api/v1/events/${event.id}/cancel`), /live event cannot be canceled/);
        conflict(await studentApi.post(`/api/v1/events/${event.id}/register`), /started/);
        skew += 10 * MINUTE;
        assert.equal(ok<Event>(await anonymous.get(`/api/v1/events/${event.id}`)).status, 'ended');
        conflict(await staff.patch(`/api/v1/events/${event.id}`, { ends_at: inMinutes(600) }), /ended; its times/);
        conflict(await studentApi.post(`/api/v1/events/${event.id}/register`), /ended/);
      } finally {
        skew -= 20 * MINUTE;
      }
      const kept = await create();
      await register(studentApi, kept.id);
      conflict(await staff.delete(`/api/v1/events/${kept.id}`), /cancel it instead/);
      const canceled = ok<Event>(await staff.post(`/api/v1/events/${kept.id}/cancel`));
      assert.equal(canceled.status, 'canceled');
      assert.ok(canceled.canceled_at);
      assert.equal(canceled.registered_count, 0, 'the registrations ended with it');
      assert.equal(ok<Event>(await staff.post(`/api/v1/events/${kept.id}/cancel`)).status, 'canceled');
      conflict(await studentApi.post(`/api/v1/events/${kept.id}/register`), /canceled/);
      conflict(await staff.patch(`/api/v1/events/${kept.id}`, { title: 'Again' }));
      const [row] = await registrations(kept.id);
      assert.equal(row?.status, 'canceled');
      const empty = await create();
      assert.equal((await staff.delete(`/api/v1/events/${empty.id}`)).status, 204);
      assert.equal((await anonymous.get(`/api/v1/events/${empty.id}`)).status, 404);
      assert.equal((await staff.delete(`/api/v1/events/${empty.id}`)).status, 404);
    });

    test('register and unregister yourself: idempotent, your own registration shown; only people with a token', async () => {
      const event = await create({ capacity: 1 });
      const mine = await register(studentApi, event.slug);
      assert.equal(mine.registration?.status, 'registered');
      assert.equal(mine.registration?.waitlist_position, null);
      assert.equal(mine.registered_count, 1);
      assert.equal(mine.seats_left, 0);
      const again = await register(studentApi, event.id);
      assert.equal(again.registration?.id, mine.registration?.id, 'registering again changes nothing');
      assert.equal(again.registered_count, 1);
      const waiting = await register(otherApi, event.id);
      assert.equal(waiting.registration?.status, 'waitlisted');
      assert.equal(waiting.registration?.waitlist_position, 1);
      assert.equal(waiting.waitlisted_count, 1);
      assert.equal(ok<Event>(await anonymous.get(`/api/v1/events/${event.id}`)).registration, null);

      const left = ok<Event>(await studentApi.post(`/api/v1/events/${event.id}/unregister`));
      assert.equal(left.registration, null);
      assert.equal(left.registered_count, 1, 'the seat went to the first in line');
      const promoted = ok<Event>(await otherApi.get(`/api/v1/events/${event.id}`));
      assert.equal(promoted.registration?.status, 'registered');
      const rows = await registrations(event.id);
      assert.deepEqual(
        rows.map((r) => [r.user_id, r.status]),
        [
          [student.id, 'canceled'],
          [other.id, 'registered'],
        ],
      );
      assert.ok(rows[1]?.promoted_at);
      assert.equal(ok<Event>(await studentApi.post(`/api/v1/events/${event.id}/unregister`)).registration, null);
      assert.equal((await studentApi.post(`/api/v1/events/${newId('evt')}/register`)).status, 404);
      const back = await register(studentApi, event.id);
      assert.equal(back.registration?.status, 'waitlisted', 'registering again after leaving joins the line anew');
      assert.notEqual(back.registration?.id, mine.registration?.id);
    });

    test('registrations: staff see and manage all; a student sees only their own row', async () => {
      const event = await create({ capacity: 1 });
      await register(studentApi, event.id);
      const added = ok<Registration>(
        await staff.post(`/api/v1/events/${event.id}/registrations`, { user_id: other.id }),
        201,
      );
      assert.equal(added.status, 'waitlisted');
      assert.equal(added.waitlist_position, 1);
      assert.equal(added.email, other.email);
      const same = ok<Registration>(
        await staff.post(`/api/v1/events/${event.id}/registrations`, { user_id: other.id }),
      );
      assert.equal(same.id, added.id);
      refusedOnExactly(
        await staff.post(`/api/v1/events/${event.id}/registrations`, { user_id: newId('usr') }),
        'user_id',
      );
      assert.equal(
        (await staff.post(`/api/v1/events/${newId('evt')}/registrations`, { user_id: other.id })).status,
        404,
      );

      const own = ok<Page<Registration>>(await studentRead.get(`/api/v1/events/${event.slug}/registrations`));
      assert.deepEqual(
        own.data.map((r) => r.user_id),
        [student.id],
      );
      assert.equal((await registrations(event.id)).length, 2);
      assert.deepEqual(
        (await registrations(event.id, 'status=waitlisted')).map((r) => r.id),
        [added.id],
      );

      const [seat] = await registrations(event.id, 'status=registered');
      const removed = ok<Registration>(await staff.delete(`/api/v1/events/${event.id}/registrations/${seat?.id}`));
      assert.equal(removed.status, 'canceled');
      assert.equal(
        ok<Registration>(await staff.delete(`/api/v1/events/${event.id}/registrations/${seat?.id}`)).status,
        'canceled',
      );
      assert.equal((await registrations(event.id, 'status=registered'))[0]?.id, added.id, 'the seat went to the next');
      assert.equal((await staff.delete(`/api/v1/events/${event.id}/registrations/${newId('reg')}`)).status, 404);
    });

    test('a course event takes its students; a plan event its members; staff are not asked', async () => {
      const course = await courseWithLesson(staff);
      const forCourse = await create({ course_id: course.id });
      conflict(await studentApi.post(`/api/v1/events/${forCourse.id}/register`), /enrolled in its course/);
      ok(await staff.post(`/api/v1/students/${student.id}/enrollments`, { course_id: course.id }), 201);
      assert.equal((await register(studentApi, forCourse.id)).registration?.status, 'registered');

      const { plan } = await planWithPrice(staff, { name: `Events plan ${unique()}` });
      const forPlan = await create({ plan_id: plan.id });
      conflict(await otherApi.post(`/api/v1/events/${forPlan.id}/register`), /holding its plan/);
      const member = ok<{ id: string }>(
        await staff.post('/api/v1/members', { email: other.email, name: other.name }),
        201,
      );
      ok(await staff.post(`/api/v1/members/${member.id}/comp`, { plan_id: plan.id, until: null }));
      assert.equal((await register(otherApi, forPlan.id)).registration?.status, 'registered');
      assert.equal((await register(staff, forPlan.id)).registration?.status, 'registered');
    });

    test('20 people registering at once for 5 seats: 5 seats and a waitlist of 15 in order', async () => {
      const event = await create({ capacity: 5 });
      const crowd = await Promise.all(
        Array.from({ length: 20 }, (_, i) => createUser(server, 'student', `Crowd ${unique()} ${i}`)),
      );
      const clients: Client[] = [];
      for (const person of crowd) clients.push(apiClient(server.url, await tokenFor(server, person, 'account:write')));
      const answers = await Promise.all(clients.map((client) => register(client, event.id)));
      const seats = answers.filter((e) => e.registration?.status === 'registered');
      const waiting = answers.filter((e) => e.registration?.status === 'waitlisted');
      assert.equal(seats.length, 5);
      assert.equal(waiting.length, 15);
      assert.deepEqual(
        waiting.map((e) => e.registration?.waitlist_position).sort((a, b) => (a ?? 0) - (b ?? 0)),
        Array.from({ length: 15 }, (_, i) => i + 1),
      );
      const line = await registrations(event.id, 'status=waitlisted');
      assert.deepEqual(
        line.map((r) => r.waitlist_position),
        Array.from({ length: 15 }, (_, i) => i + 1),
      );
      const counted = ok<Event>(await anonymous.get(`/api/v1/events/${event.id}`));
      assert.equal(counted.registered_count, 5);
      assert.equal(counted.waitlisted_count, 15);

      // Two seats freed at the same moment promote the first two in line, each once.
      const seated = answers
        .map((answer, i) => ({ answer, client: clients[i] as Client }))
        .filter((x) => x.answer.registration?.status === 'registered')
        .slice(0, 2);
      await Promise.all(seated.map((x) => x.client.post(`/api/v1/events/${event.id}/unregister`)));
      const after = await registrations(event.id);
      const byId = new Map(after.map((r) => [r.id, r]));
      for (const first of line.slice(0, 2)) {
        assert.equal(byId.get(first.id)?.status, 'registered', 'the first two in line got the seats');
        assert.ok(byId.get(first.id)?.promoted_at);
      }
      assert.equal(after.filter((r) => r.status === 'registered').length, 5);
      assert.deepEqual(
        after.filter((r) => r.status === 'waitlisted').map((r) => [r.id, r.waitlist_position]),
        line.slice(2).map((r, i) => [r.id, i + 1]),
      );
      const promotions = await server.database.db
        .selectFrom('outbox')
        .select('to_address')
        .where('kind', '=', 'event_promoted')
        .where(
          'to_address',
          'in',
          crowd.map((p) => p.email),
        )
        .execute();
      assert.deepEqual(
        promotions.map((m) => m.to_address).sort(),
        line
          .slice(0, 2)
          .map((r) => r.email)
          .sort(),
        'each promoted person is told once',
      );
    });

    test('capacity: lowering it bumps nobody; raising it promotes in order', async () => {
      const event = await create({ capacity: 2 });
      const people = await Promise.all([1, 2, 3, 4].map((i) => createUser(server, 'student', `Cap ${unique()} ${i}`)));
      for (const person of people) {
        ok(await staff.post(`/api/v1/events/${event.id}/registrations`, { user_id: person.id }), 201);
      }
      const lowered = ok<Event>(await staff.patch(`/api/v1/events/${event.id}`, { capacity: 1 }));
      assert.equal(lowered.registered_count, 2, 'nobody loses a seat');
      assert.equal(lowered.seats_left, 0);
      const raised = ok<Event>(await staff.patch(`/api/v1/events/${event.id}`, { capacity: 3 }));
      assert.equal(raised.registered_count, 3);
      const seated = (await registrations(event.id, 'status=registered')).map((r) => r.user_id);
      assert.deepEqual(seated, [people[0]?.id, people[1]?.id, people[2]?.id], 'the first in line got the new seat');
      const unlimited = ok<Event>(await staff.patch(`/api/v1/events/${event.id}`, { capacity: null }));
      assert.equal(unlimited.registered_count, 4);
      assert.equal(unlimited.seats_left, null);
    });

    test('the join URL: staff always; a seat holder from join_opens_at to the end; nobody else', async () => {
      const event = await create({
        starts_at: inMinutes(60),
        ends_at: inMinutes(120),
        join_url: 'https://meet.example.test/room',
        join_opens_minutes: 10,
        capacity: 1,
      });
      await register(studentApi, event.id);
      await register(otherApi, event.id);
      const seen = async (client: Client) => ok<Event>(await client.get(`/api/v1/events/${event.id}`)).join_url;
      assert.equal(await seen(staff), 'https://meet.example.test/room');
      assert.equal(await seen(studentApi), null, 'not yet');
      skew += 50 * MINUTE;
      try {
        assert.equal(await seen(studentApi), 'https://meet.example.test/room', 'ten minutes before the start');
        assert.equal(await seen(otherApi), null, 'a waitlisted person has no seat');
        assert.equal(await seen(anonymous), null);
        skew += 70 * MINUTE;
        assert.equal(await seen(studentApi), null, 'over');
        assert.equal(await seen(staff), 'https://meet.example.test/room');
      } finally {
        skew -= 120 * MINUTE;
      }
    });

    test('attendance is for seat holders: a waitlisted person had no seat to come to', async () => {
      const event = await create({ starts_at: inMinutes(30), ends_at: inMinutes(90), capacity: 1 });
      await register(studentApi, event.id);
      const waiting = await register(otherApi, event.id);
      assert.equal(waiting.registration?.status, 'waitlisted');
      skew += 40 * MINUTE;
      try {
        refusedOnExactly(
          await staff.post(`/api/v1/events/${event.id}/attendance`, {
            records: [{ user_id: other.id, attended: true }],
          }),
          'records[0]',
        );
        ok(
          await staff.post(`/api/v1/events/${event.id}/attendance`, {
            records: [{ user_id: student.id, attended: true }],
          }),
        );
      } finally {
        skew -= 40 * MINUTE;
      }
    });

    test('attendance: once started, by registration or person, all or nothing; analytics counts it', async () => {
      const event = await create({ starts_at: inMinutes(30), ends_at: inMinutes(90) });
      const extra = await createUser(server, 'student', `Att ${unique()}`);
      const mine = await register(studentApi, event.id);
      await register(otherApi, event.id);
      ok(await staff.post(`/api/v1/events/${event.id}/registrations`, { user_id: extra.id }), 201);
      const records = { records: [{ registration_id: mine.registration?.id, attended: true }] };
      conflict(await staff.post(`/api/v1/events/${event.id}/attendance`, records), /once an event has started/);
      skew += 100 * MINUTE;
      try {
        refusedOnExactly(
          await staff.post(`/api/v1/events/${event.id}/attendance`, {
            records: [
              { registration_id: mine.registration?.id, attended: true },
              { user_id: newId('usr'), attended: true },
              { attended: false },
            ],
          }),
          'records[1]',
          'records[2]',
        );
        assert.equal((await registrations(event.id, 'attended=true')).length, 0, 'nothing was written');
        const recorded = ok<{ data: Registration[] }>(
          await staff.post(`/api/v1/events/${event.id}/attendance`, {
            records: [
              { registration_id: mine.registration?.id, attended: true },
              { user_id: other.id, attended: false },
              { user_id: extra.id, attended: true },
            ],
          }),
        );
        assert.deepEqual(
          recorded.data.map((r) => [r.user_id, r.attended]),
          [
            [student.id, true],
            [other.id, false],
            [extra.id, true],
          ],
        );
        const tooMany = Array.from({ length: 1001 }, () => ({ user_id: other.id, attended: true }));
        assert.equal((await staff.post(`/api/v1/events/${event.id}/attendance`, { records: tooMany })).status, 400);
        const stats = ok<
          Page<{
            event_id: string;
            registered: number;
            attended: number;
            no_show: number;
            attendance_rate: number | null;
          }>
        >(await staff.get(`/api/v1/analytics/events?limit=100`));
        const figures = stats.data.find((s) => s.event_id === event.id);
        assert.deepEqual(figures && [figures.registered, figures.attended, figures.no_show, figures.attendance_rate], [
          3,
          2,
          1,
          2 / 3,
        ]);
        assert.equal((await studentRead.get('/api/v1/analytics/events')).status, 403);
      } finally {
        skew -= 100 * MINUTE;
      }
    });
  });
}
