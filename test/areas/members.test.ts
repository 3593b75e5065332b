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
import { courseWithLesson, ok, opens, planWithPrice, subscribe } from '../support/memberships.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { paginatesLikeEveryList } from '../support/shared-examples.ts';

type Client = ReturnType<typeof apiClient>;
type Member = {
  id: string;
  email: string;
  name: string;
  status: 'free' | 'paid' | 'comped';
  labels: string[];
  newsletter_opt_in: boolean;
  note: string;
  plan_ids: string[];
  comp: { plan_id: string; until: string | null } | null;
  created_at: string;
};

const HOUR_MS = 3_600_000;
const STAFF =
  'members:read members:write subscriptions:read subscriptions:write membership_plans:read membership_plans:write courses:read courses:write curriculum:read curriculum:write';
const OWN = 'curriculum:read account:read';

for (const engine of engines) {
  describe(`members API (${engine})`, () => {
    let server: TestServer;
    let skew = 0;
    let staffPerson: Person;
    let owner: Person;
    let staff: Client;
    let anonymous: Client;
    const serverNow = () => new Date(Date.now() + skew);

    before(async () => {
      server = await startTestServer(
        engine,
        { JOBS_POLL_MS: '60000', OAUTH_REGISTRATIONS_PER_HOUR: '1000' },
        { clock: { now: serverNow } },
      );
      const people = await schoolWithPeople(server);
      staffPerson = people.staff;
      owner = people.owner;
      staff = apiClient(server.url, await tokenFor(server, staffPerson, STAFF));
      anonymous = apiClient(server.url);
    });
    after(() => server.close());

    const create = async (body: Record<string, unknown>, status = 201) =>
      ok<Member>(await staff.post('/api/v1/members', body), status);
    const member = async (id: string) => ok<Member>(await staff.get(`/api/v1/members/${id}`));
    const email = (name: string) => `${name}.${Math.random().toString(36).slice(2, 8)}@school.test`;

    test('every operation: anonymous, tokens without the scope and students (who cannot hold it) are 403', async () => {
      const usr = newId('usr');
      const operations: [string, string, string, unknown?][] = [
        ['GET', '/api/v1/members', 'members:read'],
        ['GET', `/api/v1/members/${usr}`, 'members:read'],
        ['POST', '/api/v1/members', 'members:write', { email: 'a@school.test', name: 'A' }],
        ['PATCH', `/api/v1/members/${usr}`, 'members:write', { note: 'x' }],
        ['DELETE', `/api/v1/members/${usr}`, 'members:write'],
        ['POST', `/api/v1/members/${usr}/comp`, 'members:write', { plan_id: newId('pln'), until: null }],
        ['DELETE', `/api/v1/members/${usr}/comp`, 'members:write'],
      ];
      const student = await createUser(server, 'student');
      const staffWithout = apiClient(server.url, await tokenFor(server, staffPerson, 'courses:read'));
      // A student may not grant the members scopes: they are dropped from the grant.
      const studentAsking = apiClient(server.url, await tokenFor(server, student, 'openid members:read members:write'));
      for (const [method, path, scope, body] of operations) {
        for (const [who, client] of [
          ['anonymous', anonymous],
          ['staff without the scope', staffWithout],
          ['student', studentAsking],
        ] as const) {
          const response = await client.call(method, path, body);
          assert.equal(response.status, 403, `${method} ${path} as ${who}`);
          assert.equal((response.body as { error: string }).error, 'insufficient_scope');
          assert.match(response.headers.get('www-authenticate') ?? '', insufficientScopeChallenge(scope));
        }
      }
    });

    test('create is an upsert by e-mail: a new person is invited; a student becomes a member; a member is updated; staff 409', async () => {
      const address = email('Nina.New');
      const made = await create({
        email: address.toUpperCase(),
        name: ' Nina ',
        labels: ['vip'],
        newsletter_opt_in: true,
        note: 'Met at the fair',
      });
      assert.match(made.id, /^usr_[0-9a-z]{26}$/);
      assert.deepEqual(
        [made.email, made.name, made.status, made.labels, made.newsletter_opt_in, made.note, made.plan_ids, made.comp],
        [address.toLowerCase(), 'Nina', 'free', ['vip'], true, 'Met at the fair', [], null],
      );
      const invitation = await server.database.db
        .selectFrom('outbox')
        .select('kind')
        .where('to_address', '=', address.toLowerCase())
        .executeTakeFirst();
      assert.equal(invitation?.kind, 'invitation', 'a new person is invited to choose a password');
      const role = await server.database.db
        .selectFrom('users')
        .select('role')
        .where('id', '=', made.id)
        .executeTakeFirst();
      assert.equal(role?.role, 'student');

      const again = await create({ email: address, name: 'Nina Two', note: 'Renewed' }, 200);
      assert.equal(again.id, made.id);
      assert.deepEqual(
        [again.name, again.note, again.labels, again.newsletter_opt_in],
        ['Nina Two', 'Renewed', ['vip'], true],
      );

      const student = await createUser(server, 'student', 'Sam Student');
      const joined = await create({ email: student.email, name: 'Sam S' });
      assert.equal(joined.id, student.id, 'a student of the school becomes a member, keeping their account');
      assert.equal(joined.name, 'Sam S');

      for (const staffEmail of [staffPerson.email, owner.email]) {
        const refused = await staff.post('/api/v1/members', { email: staffEmail, name: 'X' });
        assert.equal(refused.status, 409);
        assert.match(String(refused.body.error_description), /staff account/);
      }
      for (const bad of [
        { email: 'not-an-email', name: 'X' },
        { email: email('x'), name: '   ' },
        { email: email('x'), name: 'X', labels: ['a', 'a'] },
        { email: email('x'), name: 'X', colour: 'red' },
        { email: email('x'), name: 'X', comp_plan_id: newId('pln') },
      ])
        assert.equal((await staff.post('/api/v1/members', bad)).status, 400, JSON.stringify(bad));
    });

    test('update changes the given fields; get and update of a non-member are 404', async () => {
      const made = await create({ email: email('upd'), name: 'Up Date' });
      const updated = ok<Member>(
        await staff.patch(`/api/v1/members/${made.id}`, { labels: ['a', 'b'], newsletter_opt_in: true, note: 'N' }),
      );
      assert.deepEqual(
        [updated.name, updated.labels, updated.newsletter_opt_in, updated.note],
        ['Up Date', ['a', 'b'], true, 'N'],
      );
      assert.equal(ok<Member>(await staff.patch(`/api/v1/members/${made.id}`, { name: 'Renamed' })).name, 'Renamed');
      assert.equal((await staff.patch(`/api/v1/members/${made.id}`, { name: ' ' })).status, 400);
      assert.equal((await staff.patch(`/api/v1/members/${made.id}`, {})).status, 400);
      assert.equal((await staff.patch(`/api/v1/members/${made.id}`, { email: 'x@y.zz' })).status, 400);
      const stranger = await createUser(server, 'student');
      assert.equal((await staff.get(`/api/v1/members/${stranger.id}`)).status, 404, 'a student is not a member');
      assert.equal((await staff.patch(`/api/v1/members/${stranger.id}`, { note: 'x' })).status, 404);
      assert.equal((await staff.get(`/api/v1/members/${newId('usr')}`)).status, 404);
    });

    test('status is derived: free, paid while a subscription holds a plan, comped while only a comp does', async () => {
      const course = await courseWithLesson(staff);
      const { plan, price } = await planWithPrice(staff, { name: 'Status Plan', course_ids: [course.id] });
      const other = await planWithPrice(staff, { name: 'Other Status Plan' });
      const person = await createUser(server, 'student');
      const made = await create({ email: person.email, name: person.name });
      assert.equal(made.status, 'free');
      const { id } = await subscribe(server, { userId: person.id, priceId: price.id });
      const paid = await member(person.id);
      assert.deepEqual([paid.status, paid.plan_ids], ['paid', [plan.id]]);
      ok(await staff.post(`/api/v1/members/${person.id}/comp`, { plan_id: other.plan.id, until: null }));
      const both = await member(person.id);
      assert.equal(both.status, 'paid', 'a subscription outranks a comp');
      assert.deepEqual(both.plan_ids.sort(), [plan.id, other.plan.id].sort());
      ok(await staff.post(`/api/v1/subscriptions/${id}/cancel`, { at_period_end: false }));
      const comped = await member(person.id);
      assert.deepEqual([comped.status, comped.plan_ids], ['comped', [other.plan.id]]);
      ok(await staff.delete(`/api/v1/members/${person.id}/comp`));
      assert.deepEqual([(await member(person.id)).status, (await member(person.id)).comp], ['free', null]);

      const subscriber = await createUser(server, 'student');
      await subscribe(server, { userId: subscriber.id, priceId: price.id });
      const profile = await member(subscriber.id);
      assert.equal(profile.status, 'paid', 'a subscription makes the member profile it needs');
      assert.deepEqual([profile.labels, profile.note, profile.newsletter_opt_in], [[], '', false]);
    });

    test('a comp opens the plan’s courses until its date; past the date they close; taking it back closes them', async () => {
      const course = await courseWithLesson(staff);
      const { plan } = await planWithPrice(staff, { name: 'Comp Plan', course_ids: [course.id] });
      const person = await createUser(server, 'student');
      await create({ email: person.email, name: person.name });
      let own = apiClient(server.url, await tokenFor(server, person, OWN));
      assert.equal(await opens(own, course.lessonId), false);
      const until = new Date(serverNow().getTime() + 2 * HOUR_MS).toISOString();
      const comped = ok<Member>(await staff.post(`/api/v1/members/${person.id}/comp`, { plan_id: plan.id, until }));
      assert.deepEqual(
        [comped.status, comped.comp, comped.plan_ids],
        ['comped', { plan_id: plan.id, until }, [plan.id]],
      );
      assert.equal(await opens(own, course.lessonId), true);

      skew += 3 * HOUR_MS;
      staff = apiClient(server.url, await tokenFor(server, staffPerson, STAFF));
      own = apiClient(server.url, await tokenFor(server, person, OWN));
      assert.equal(await opens(own, course.lessonId), false, 'the comp’s date passed: closed, with no job to run');
      const lapsed = await member(person.id);
      assert.deepEqual([lapsed.status, lapsed.plan_ids, lapsed.comp], ['free', [], { plan_id: plan.id, until }]);

      ok(await staff.post(`/api/v1/members/${person.id}/comp`, { plan_id: plan.id, until: null }));
      assert.equal(await opens(own, course.lessonId), true, 'a comp without a date');
      ok(await staff.delete(`/api/v1/members/${person.id}/comp`));
      assert.equal(await opens(own, course.lessonId), false, 'taken back: closed at once');

      const past = await staff.post(`/api/v1/members/${person.id}/comp`, {
        plan_id: plan.id,
        until: new Date(serverNow().getTime() - 1000).toISOString(),
      });
      assert.equal(past.status, 400);
      const unknown = await staff.post(`/api/v1/members/${person.id}/comp`, { plan_id: newId('pln'), until: null });
      assert.equal(unknown.status, 400);
      assert.equal((unknown.body.errors as { field: string }[])[0]?.field, 'plan_id');
      const archived = await planWithPrice(staff, { name: 'Archived Comp Plan' });
      ok(await staff.post(`/api/v1/membership-plans/${archived.plan.id}/archive`));
      assert.equal(
        (await staff.post(`/api/v1/members/${person.id}/comp`, { plan_id: archived.plan.id, until: null })).status,
        409,
      );
      const stranger = await createUser(server, 'student');
      assert.equal(
        (await staff.post(`/api/v1/members/${stranger.id}/comp`, { plan_id: plan.id, until: null })).status,
        404,
      );
    });

    test('delete: 409 while paying; once canceled the profile goes (the account stays); a comp goes with it', async () => {
      const course = await courseWithLesson(staff);
      const { price, plan } = await planWithPrice(staff, { name: 'Delete Plan', course_ids: [course.id] });
      const payer = await createUser(server, 'student');
      const { id } = await subscribe(server, { userId: payer.id, priceId: price.id });
      const refused = await staff.delete(`/api/v1/members/${payer.id}`);
      assert.equal(refused.status, 409);
      assert.match(String(refused.body.error_description), /subscription under way/);
      ok(await staff.post(`/api/v1/subscriptions/${id}/pause`));
      assert.equal((await staff.delete(`/api/v1/members/${payer.id}`)).status, 409, 'paused counts as under way');
      ok(await staff.post(`/api/v1/subscriptions/${id}/cancel`, { at_period_end: false }));
      assert.equal((await staff.delete(`/api/v1/members/${payer.id}`)).status, 204);
      assert.equal((await staff.get(`/api/v1/members/${payer.id}`)).status, 404);
      assert.equal((await staff.delete(`/api/v1/members/${payer.id}`)).status, 404);
      const account = await server.database.db
        .selectFrom('users')
        .select('id')
        .where('id', '=', payer.id)
        .executeTakeFirst();
      assert.equal(account?.id, payer.id);

      const comped = await createUser(server, 'student');
      await create({ email: comped.email, name: comped.name });
      ok(await staff.post(`/api/v1/members/${comped.id}/comp`, { plan_id: plan.id, until: null }));
      const own = apiClient(server.url, await tokenFor(server, comped, OWN));
      assert.equal(await opens(own, course.lessonId), true);
      assert.equal((await staff.delete(`/api/v1/members/${comped.id}`)).status, 204);
      assert.equal(await opens(own, course.lessonId), false, 'the comp went with the profile');
    });

    test('list filters: status, label, plan held, q; pagination', async () => {
      const run = Math.random().toString(36).slice(2, 8);
      const { plan, price } = await planWithPrice(staff, { name: `Filter Plan ${run}` });
      const free = await create({ email: email(`free-${run}`), name: `Free ${run}`, labels: ['c++', `l-${run}`] });
      const payer = await createUser(server, 'student', `Payer ${run}`);
      await subscribe(server, { userId: payer.id, priceId: price.id });
      const compee = await create({ email: email(`comp-${run}`), name: `Comp ${run}` });
      ok(await staff.post(`/api/v1/members/${compee.id}/comp`, { plan_id: plan.id, until: null }));
      const ids = async (query: string) =>
        (await listAll<Member>(staff, `/api/v1/members?q=${run}&${query}`)).map((m) => m.id).sort();
      assert.deepEqual(await ids(''), [free.id, payer.id, compee.id].sort());
      assert.deepEqual(await ids('status=free'), [free.id]);
      assert.deepEqual(await ids('status=paid'), [payer.id]);
      assert.deepEqual(await ids('status=comped'), [compee.id]);
      assert.deepEqual(await ids(`plan_id=${plan.id}`), [payer.id, compee.id].sort());
      assert.deepEqual(await ids(`label=${encodeURIComponent('c++')}`), [free.id]);
      assert.deepEqual(await ids('label=c'), [], 'a label matches whole');
      assert.deepEqual(
        (await listAll<Member>(staff, `/api/v1/members?q=${encodeURIComponent(`FREE ${run}`)}`)).map((m) => m.id),
        [free.id],
        'q matches the name, case-insensitively',
      );
      assert.equal((await staff.get('/api/v1/members?status=rich')).status, 400);

      const page = Math.random().toString(36).slice(2, 8);
      await paginatesLikeEveryList({
        staff,
        query: `/api/v1/members?q=${page}`,
        make: async (i) => create({ email: email(`page-${page}-${i}`), name: `Page ${page} ${i}` }),
        remove: async (id) => staff.delete(`/api/v1/members/${id}`),
      });
    });

    test('Idempotency-Key replays the first create; another body with the key is 409', async () => {
      const key = `member-${Date.now()}`;
      const body = { email: email('idem'), name: 'Idem' };
      const first = await staff.post<Member>('/api/v1/members', body, { 'idempotency-key': key });
      const again = await staff.post<Member>('/api/v1/members', body, { 'idempotency-key': key });
      assert.equal(first.status, 201);
      assert.equal(again.status, 201);
      assert.equal(again.body.id, first.body.id);
      assert.equal(again.headers.get('idempotent-replayed'), 'true');
      const other = await staff.post('/api/v1/members', { ...body, name: 'Other' }, { 'idempotency-key': key });
      assert.equal(other.status, 409);
    });
  });
}
