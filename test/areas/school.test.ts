import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  type ApiResponse,
  apiClient,
  insufficientScopeChallenge,
  type Person,
  schoolWithPeople,
  tokenFor,
} from '../support/api.ts';
import { engines } from '../support/databases.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { OWNER } from '../support/web-client.ts';

type School = {
  name: string;
  description: string;
  default_currency: string;
  timezone: string;
  locale: string;
  support_email: string | null;
  terms_url: string | null;
  privacy_url: string | null;
  signup_enabled: boolean;
  created_at: string;
  updated_at: string;
};

const challenge = insufficientScopeChallenge;

for (const engine of engines) {
  describe(`school API (${engine})`, () => {
    let server: TestServer;
    let staff: ReturnType<typeof apiClient>;
    let staffReadOnly: ReturnType<typeof apiClient>;
    let coursesOnly: ReturnType<typeof apiClient>;
    let studentApi: ReturnType<typeof apiClient>;
    let anonymous: ReturnType<typeof apiClient>;
    let beforeSetup: ApiResponse;
    let people: { staff: Person; student: Person };

    before(async () => {
      server = await startTestServer(engine);
      anonymous = apiClient(server.url);
      beforeSetup = await anonymous.get('/api/v1/school');
      people = await schoolWithPeople(server);
      staff = apiClient(server.url, await tokenFor(server, people.staff, 'school:read school:write'));
      staffReadOnly = apiClient(server.url, await tokenFor(server, people.staff, 'school:read'));
      coursesOnly = apiClient(server.url, await tokenFor(server, people.staff, 'courses:read'));
      studentApi = apiClient(server.url, await tokenFor(server, people.student, 'school:read school:write'));
    });
    after(() => server.close());

    test('before first-run setup there is no school: 404', () => {
      assert.equal(beforeSetup.status, 404);
      assert.equal(beforeSetup.body.error, 'not_found');
      assert.match(String(beforeSetup.body.error_description), /not set up yet.*setup link/);
    });

    test('get returns what setup stored; the support address is hidden from anonymous callers only', async () => {
      const anon = await anonymous.get<School>('/api/v1/school');
      assert.equal(anon.status, 200);
      assert.equal(anon.body.name, 'Test Academy');
      assert.equal(anon.body.default_currency, 'EUR');
      assert.equal(anon.body.timezone, 'Europe/Berlin');
      assert.equal(anon.body.locale, 'en');
      assert.equal(anon.body.signup_enabled, true);
      assert.equal(anon.body.support_email, null);
      for (const client of [studentApi, staff]) {
        const got = await client.get<School>('/api/v1/school');
        assert.equal(got.status, 200);
        assert.equal(got.body.support_email, OWNER.email);
        assert.equal(got.body.name, 'Test Academy');
      }
    });

    test('update changes only the given fields; name, locale and support address are normalised', async () => {
      const before = (await staff.get<School>('/api/v1/school')).body;
      const updated = await staff.patch<School>('/api/v1/school', {
        name: '  Lyceum of Paint ',
        description: 'Paint, mostly.',
        default_currency: 'USD',
        timezone: 'America/New_York',
        locale: 'pt-br',
        support_email: 'Help@Lyceum.Example',
        terms_url: 'https://lyceum.example/terms',
        privacy_url: 'https://lyceum.example/privacy',
      });
      assert.equal(updated.status, 200, JSON.stringify(updated.body));
      assert.equal(updated.body.name, 'Lyceum of Paint');
      assert.equal(updated.body.locale, 'pt-BR');
      assert.equal(updated.body.support_email, 'help@lyceum.example');
      assert.equal(updated.body.signup_enabled, true, 'untouched');
      assert.equal(updated.body.created_at, before.created_at);
      assert.ok(updated.body.updated_at >= before.updated_at);
      assert.deepEqual((await staff.get<School>('/api/v1/school')).body, updated.body);
      const anon = (await anonymous.get<School>('/api/v1/school')).body;
      assert.equal(anon.terms_url, 'https://lyceum.example/terms');
      assert.equal(anon.support_email, null);

      const utc = await staff.patch<School>('/api/v1/school', {
        timezone: 'UTC',
        support_email: null,
        terms_url: null,
      });
      assert.equal(utc.status, 200);
      assert.equal(utc.body.timezone, 'UTC');
      assert.equal(utc.body.support_email, null);
      assert.equal(utc.body.terms_url, null);
      assert.equal(utc.body.privacy_url, 'https://lyceum.example/privacy');
    });

    test('signup_enabled closes and reopens the sign-up page', async () => {
      const closed = await staff.patch<School>('/api/v1/school', { signup_enabled: false });
      assert.equal(closed.body.signup_enabled, false);
      assert.equal((await anonymous.get<School>('/api/v1/school')).body.signup_enabled, false);
      const page = await fetch(`${server.url}/signup`);
      assert.equal(page.status, 403);
      assert.match(await page.text(), /does not accept new accounts/);
      await staff.patch('/api/v1/school', { signup_enabled: true });
      assert.equal((await fetch(`${server.url}/signup`)).status, 200);
    });

    test('currency, time zone and locale must be real: 400 saying what to use', async () => {
      const cases: [Record<string, unknown>, string, RegExp][] = [
        [{ default_currency: 'XYZ' }, 'default_currency', /ISO 4217/],
        [{ default_currency: 'eur' }, 'default_currency', /pattern/],
        [{ timezone: 'Mars/Olympus_Mons' }, 'timezone', /IANA time zone/],
        [{ locale: 'en_US' }, 'locale', /BCP 47/],
        [{ locale: 'zz' }, 'locale', /BCP 47/],
      ];
      for (const [body, field, message] of cases) {
        const response = await staff.patch('/api/v1/school', body);
        assert.equal(response.status, 400, JSON.stringify(body));
        assert.equal((response.body.errors as { field: string }[])[0]?.field, field);
        assert.match(String(response.body.error_description), message);
      }
      const after = (await staff.get<School>('/api/v1/school')).body;
      assert.notEqual(after.default_currency, 'XYZ');
      assert.notEqual(after.locale, 'zz');
    });

    test('validation: unknown field, wrong type, too long, bad URL or email, blank name, empty body', async () => {
      const unknown = await staff.patch('/api/v1/school', { name: 'x', motto: 'Ars longa' });
      assert.equal(unknown.status, 400);
      assert.equal((unknown.body.errors as { code: string; field: string }[])[0]?.field, 'motto');
      assert.equal((unknown.body.errors as { code: string }[])[0]?.code, 'unknown_field');
      const wrongType = await staff.patch('/api/v1/school', { signup_enabled: 'yes' });
      assert.equal(wrongType.status, 400);
      assert.equal((wrongType.body.errors as { field: string }[])[0]?.field, 'signup_enabled');
      const tooLong = await staff.patch('/api/v1/school', { name: 'n'.repeat(121) });
      assert.equal(tooLong.status, 400);
      assert.equal((tooLong.body.errors as { field: string }[])[0]?.field, 'name');
      assert.equal((await staff.patch('/api/v1/school', { description: 'd'.repeat(5_001) })).status, 400);
      assert.equal((await staff.patch('/api/v1/school', { terms_url: 'javascript:alert(1)' })).status, 400);
      assert.equal((await staff.patch('/api/v1/school', { privacy_url: 'ftp://x.example/p' })).status, 400);
      assert.equal((await staff.patch('/api/v1/school', { support_email: 'not-an-address' })).status, 400);
      const blank = await staff.patch('/api/v1/school', { name: '   ' });
      assert.equal(blank.status, 400);
      assert.match(String(blank.body.error_description), /give the school a name/);
      assert.equal((await staff.patch('/api/v1/school', {})).status, 400);
      assert.equal((await staff.patch('/api/v1/school', ['name'])).status, 400);
      assert.notEqual((await staff.get<School>('/api/v1/school')).body.name.trim(), '');
    });

    test('updates need school:write, reads school:read: 403 insufficient_scope with WWW-Authenticate', async () => {
      const name = (await staff.get<School>('/api/v1/school')).body.name;
      for (const client of [anonymous, studentApi, staffReadOnly]) {
        const response = await client.patch('/api/v1/school', { name: 'Hijacked' });
        assert.equal(response.status, 403);
        assert.equal(response.body.error, 'insufficient_scope');
        assert.match(response.headers.get('www-authenticate') ?? '', challenge('school:write'));
      }
      assert.equal((await staff.get<School>('/api/v1/school')).body.name, name);
      const noRead = await coursesOnly.get('/api/v1/school');
      assert.equal(noRead.status, 403);
      assert.match(noRead.headers.get('www-authenticate') ?? '', challenge('school:read'));
      assert.equal((await staffReadOnly.get('/api/v1/school')).status, 200);
    });
  });
}
