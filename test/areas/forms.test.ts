import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newId } from '../../src/db/ids.ts';
import {
  apiClient,
  insufficientScopeChallenge,
  listAll,
  type Person,
  schoolWithPeople,
  tokenFor,
} from '../support/api.ts';
import { engines } from '../support/databases.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { paginatesLikeEveryList } from '../support/shared-examples.ts';
import { unique } from '../support/unique.ts';
import { csrfOf, WebClient } from '../support/web-client.ts';

type Client = ReturnType<typeof apiClient>;
type Field = {
  name: string;
  label: string;
  type: string;
  required: boolean;
  help: string | null;
  max_length: number | null;
  options?: string[];
};
type Form = {
  id: string;
  title: string;
  page_id: string | null;
  status: string;
  fields: Field[];
  success_message: string;
  notify_emails: string[];
  submission_count: number;
  created_at: string;
};
type Submission = {
  id: string;
  form_id: string;
  values: Record<string, string | boolean>;
  email: string | null;
  user_id: string | null;
  created_at: string;
};
type List<T> = { data: T[]; has_more: boolean; next_cursor: string | null };
type Refusal = { error: string; errors?: { field: string; code: string }[] };

const WINDOW_SECONDS = 60;
const PER_WINDOW = 3;
const CONSENT = 'I agree that the school keeps my message to answer it.';

const ok = <T>(response: { status: number; body: unknown }, status = 200) => {
  assert.equal(response.status, status, JSON.stringify(response.body));
  return response.body as T;
};
/** A submission taken: the answer is a redirect (303) to the page. */
const seeOther = (response: { status: number; text: string }) =>
  assert.equal(response.status, 303, response.text.slice(0, 500));

/** The fields of a contact form: every type once. */
const contactFields = () => [
  { name: 'name', label: 'Your name', type: 'text', required: true },
  { name: 'email', label: 'E-mail', type: 'email', required: true, help: 'We answer here.' },
  { name: 'message', label: 'Message', type: 'long_text', required: true, max_length: 500 },
  { name: 'topic', label: 'Topic', type: 'choice', options: ['Courses', 'Billing', 'Other'] },
  { name: 'newsletter', label: 'Send me the newsletter', type: 'checkbox' },
  { name: 'consent', label: CONSENT, type: 'consent' },
];

for (const engine of engines) {
  describe(`forms API and their public pages (${engine})`, () => {
    let server: TestServer;
    let skew = 0;
    let staff: Client;
    let readOnly: Client;
    let readToken: string;
    let writeOnly: Client;
    let otherScope: Client;
    let studentApi: Client;
    let anonymous: Client;
    let people: { owner: Person; staff: Person; student: Person };

    const db = () => server.database.db;

    before(async () => {
      // The server's clock runs `skew` ahead of the test's: the rate-limit window is passed by moving it, not waited for.
      server = await startTestServer(
        engine,
        {
          TRUST_PROXY: '1',
          FORM_SUBMISSIONS_PER_WINDOW: String(PER_WINDOW),
          FORM_SUBMISSION_WINDOW_SECONDS: String(WINDOW_SECONDS),
        },
        { clock: { now: () => new Date(Date.now() + skew) } },
      );
      people = await schoolWithPeople(server);
      staff = apiClient(
        server.url,
        await tokenFor(server, people.staff, 'forms:read pages:read pages:write school:write'),
      );
      readToken = await tokenFor(server, people.staff, 'forms:read');
      readOnly = apiClient(server.url, readToken);
      writeOnly = apiClient(server.url, await tokenFor(server, people.staff, 'pages:write'));
      otherScope = apiClient(server.url, await tokenFor(server, people.staff, 'pages:read'));
      // A student may not grant forms:read or pages:write (staff only): both are dropped from their token.
      studentApi = apiClient(server.url, await tokenFor(server, people.student, 'forms:read pages:write pages:read'));
      anonymous = apiClient(server.url);
    });
    after(() => server.close());

    /** A published page to place forms on. */
    async function page(title = `Contact ${unique()}`) {
      const made = ok<{ id: string; slug: string }>(
        await staff.post('/api/v1/pages', { title, draft_body: 'Write to us.' }),
        201,
      );
      ok(await staff.post(`/api/v1/pages/${made.id}/publish`));
      return made;
    }
    const create = async (body: Record<string, unknown>) =>
      ok<Form>(await staff.post('/api/v1/forms', { title: `Form ${unique()}`, fields: contactFields(), ...body }), 201);

    /** A visitor at their own address (the server trusts one proxy hop, so X-Forwarded-For is the address). */
    function visitor(address = `10.0.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`) {
      const web = new WebClient(server.url);
      const headers = { 'x-forwarded-for': address };
      return {
        web,
        open: (path: string) => web.request('GET', path, { headers }),
        /** Opens the page and posts `fields` to the form, as the browser would (its CSRF token included). */
        async send(slug: string, formId: string, fields: Record<string, string>) {
          const shown = await web.request('GET', `/p/${slug}`, { headers });
          assert.equal(shown.status, 200, shown.text.slice(0, 300));
          return web.request('POST', `/p/${slug}/forms/${formId}`, {
            body: new URLSearchParams({ _csrf: csrfOf(shown.text), ...fields }).toString(),
            headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' },
          });
        },
        /** The same as a JSON body: what a script, not a browser, can send (nested values included). */
        async sendJson(slug: string, formId: string, fields: Record<string, unknown>) {
          const shown = await web.request('GET', `/p/${slug}`, { headers });
          return web.request('POST', `/p/${slug}/forms/${formId}`, {
            body: JSON.stringify({ _csrf: csrfOf(shown.text), ...fields }),
            headers: { ...headers, 'content-type': 'application/json' },
          });
        },
      };
    }
    const good = (overrides: Record<string, string> = {}) => ({
      name: 'Vera Visitor',
      email: 'Vera@Example.test',
      message: 'Do you teach oils on Sundays?',
      topic: 'Courses',
      consent: 'yes',
      ...overrides,
    });
    const submissions = (formId: string, query = '') =>
      listAll<Submission>(staff, `/api/v1/forms/${formId}/submissions${query}`);
    const notices = (formId: string) =>
      db()
        .selectFrom('outbox')
        .selectAll()
        .where('kind', '=', 'form_submission')
        .where('text_body', 'like', `%/api/v1/forms/${formId}/submissions%`)
        .orderBy('to_address')
        .execute();

    test('every operation: anonymous, a student and a token without the scope are 403; reading and defining are separate scopes', async () => {
      const id = newId('frm');
      const operations: [string, string, string, unknown?][] = [
        ['GET', '/api/v1/forms', 'forms:read'],
        ['GET', `/api/v1/forms/${id}`, 'forms:read'],
        ['GET', `/api/v1/forms/${id}/submissions`, 'forms:read'],
        ['GET', `/api/v1/forms/${id}/submissions/export`, 'forms:read'],
        ['POST', '/api/v1/forms', 'pages:write', { title: 'X', fields: contactFields() }],
        ['PATCH', `/api/v1/forms/${id}`, 'pages:write', { title: 'Y' }],
        ['DELETE', `/api/v1/forms/${id}`, 'pages:write'],
      ];
      for (const [method, path, scope, body] of operations) {
        const callers: [string, Client][] = [
          ['anonymous', anonymous],
          ['staff without the scope', otherScope],
          ['a student', studentApi],
          ['staff with the other forms scope', scope === 'forms:read' ? writeOnly : readOnly],
        ];
        for (const [who, client] of callers) {
          const response = await client.call(method, path, body);
          assert.equal(response.status, 403, `${method} ${path} as ${who}`);
          assert.equal((response.body as { error: string }).error, 'insufficient_scope');
          assert.match(response.headers.get('www-authenticate') ?? '', insufficientScopeChallenge(scope));
        }
      }
      assert.equal((await readOnly.get('/api/v1/forms')).status, 200);
      assert.equal((await readOnly.get(`/api/v1/forms/${id}`)).status, 404);
      assert.equal((await writeOnly.delete(`/api/v1/forms/${id}`)).status, 404);
    });

    test('create fills in the defaults of every field type; get returns the same', async () => {
      const where = await page();
      const form = await create({ title: '  Contact us  ', page_id: where.id });
      assert.match(form.id, /^frm_[0-9a-z]{26}$/);
      assert.equal(form.title, 'Contact us');
      assert.equal(form.page_id, where.id);
      assert.equal(form.status, 'active');
      assert.equal(form.success_message, 'Thank you, we have received your message.');
      assert.deepEqual(form.notify_emails, []);
      assert.equal(form.submission_count, 0);
      assert.deepEqual(form.fields, [
        { name: 'name', label: 'Your name', type: 'text', required: true, help: null, max_length: 200 },
        { name: 'email', label: 'E-mail', type: 'email', required: true, help: 'We answer here.', max_length: 254 },
        { name: 'message', label: 'Message', type: 'long_text', required: true, help: null, max_length: 500 },
        {
          name: 'topic',
          label: 'Topic',
          type: 'choice',
          required: false,
          help: null,
          max_length: null,
          options: ['Courses', 'Billing', 'Other'],
        },
        {
          name: 'newsletter',
          label: 'Send me the newsletter',
          type: 'checkbox',
          required: false,
          help: null,
          max_length: null,
        },
        { name: 'consent', label: CONSENT, type: 'consent', required: true, help: null, max_length: null },
      ]);
      assert.deepEqual(ok<Form>(await readOnly.get(`/api/v1/forms/${form.id}`)), form);
      const minimal = await create({ fields: [{ name: 'q', label: 'Question', type: 'long_text' }] });
      assert.equal(minimal.page_id, null);
      assert.equal(minimal.fields[0]?.max_length, 5000);
    });

    test('choice options are kept as a browser sends them back; a value that is not text is refused', async () => {
      const where = await page();
      const form = await create({
        page_id: where.id,
        fields: [{ name: 'pick', label: 'Pick', type: 'choice', required: true, options: ['  Two   words ', 'Other'] }],
      });
      assert.deepEqual(form.fields[0]?.options, ['Two words', 'Other']);
      seeOther(await visitor().send(where.slug, form.id, { pick: 'Two words' }));
      const blank = await staff.post<Refusal>('/api/v1/forms', {
        title: 'Blank option',
        fields: [{ name: 'pick', label: 'Pick', type: 'choice', options: ['A', '   '] }],
      });
      assert.equal(blank.status, 400);
      assert.deepEqual(
        blank.body.errors?.map((e) => e.field),
        ['fields[0].options'],
      );
      const tampered = await visitor().sendJson(where.slug, form.id, { pick: { $ne: '' } });
      assert.equal(tampered.status, 400);
    });

    test('a definition that cannot work is refused, each problem naming its field', async () => {
      const refused = async (body: Record<string, unknown>, fields: string[]) => {
        const response = await staff.post<Refusal>('/api/v1/forms', { title: 'Bad', ...body });
        assert.equal(response.status, 400, JSON.stringify(response.body));
        assert.equal(response.body.error, 'invalid_request');
        assert.deepEqual(
          response.body.errors?.map((e) => e.field),
          fields,
          JSON.stringify(response.body),
        );
      };
      await refused(
        {
          fields: [
            { name: 'a', label: 'A', type: 'text' },
            { name: 'a', label: 'Again', type: 'text' },
            { name: 'c', label: 'C', type: 'choice' },
            { name: 'd', label: 'D', type: 'choice', options: ['x', 'x'] },
            { name: 'e', label: 'E', type: 'text', options: ['x'] },
            { name: 'f', label: 'F', type: 'checkbox', max_length: 10 },
            { name: 'g', label: 'G', type: 'text', max_length: 5000 },
            { name: 'h', label: 'H', type: 'consent', required: false },
            { name: 'i', label: '   ', type: 'text' },
            { name: 'j', label: 'J'.repeat(201), type: 'text' },
          ],
        },
        [
          'fields[1].name',
          'fields[2].options',
          'fields[3].options',
          'fields[4].options',
          'fields[5].max_length',
          'fields[6].max_length',
          'fields[7].required',
          'fields[8].label',
          'fields[9].label',
        ],
      );
      await refused({ fields: [{ name: 'a', label: 'A', type: 'text' }], page_id: newId('pag') }, ['page_id']);
      // The schema's own limits: no fields, too many, an unknown type or property, a name that is not a key.
      const many = Array.from({ length: 51 }, (_, i) => ({ name: `f${i}`, label: `F${i}`, type: 'text' }));
      for (const body of [
        { fields: [] },
        { fields: many },
        { fields: [{ name: 'a', label: 'A', type: 'date' }] },
        { fields: [{ name: 'Bad Name', label: 'A', type: 'text' }] },
        { fields: [{ name: 'a', label: 'A', type: 'text', colour: 'red' }] },
        { fields: [{ name: 'a', label: 'A', type: 'text' }], surprise: true },
        { fields: [{ name: 'a', label: 'A', type: 'text' }], notify_emails: ['not-an-address'] },
      ]) {
        const response = await staff.post<Refusal>('/api/v1/forms', { title: 'Bad', ...body });
        assert.equal(response.status, 400, JSON.stringify(body));
        assert.equal(response.body.error, 'invalid_request');
      }
      const shape = await staff.patch<Refusal>(`/api/v1/forms/${(await create({})).id}`, {
        fields: [{ name: 'x', label: 'X', type: 'choice', options: [] }],
      });
      assert.deepEqual(
        shape.body.errors?.map((e) => e.field),
        ['fields[0].options'],
      );
    });

    test('the page shows its active forms after its body; a good submission is stored, e-mailed and shown as sent after a redirect', async () => {
      const where = await page();
      const form = await create({ page_id: where.id, success_message: 'Thanks! We answer within a day.' });
      const closed = await create({ page_id: where.id, title: 'Old survey', status: 'closed' });
      const person = visitor();
      const shown = await person.open(`/p/${where.slug}`);
      assert.equal(shown.status, 200);
      assert.match(shown.headers.get('cache-control') ?? '', /no-store/, 'a page with a form carries a CSRF token');
      assert.ok(shown.text.indexOf('Write to us.') < shown.text.indexOf(form.title), 'the form follows the body');
      assert.ok(shown.text.includes(`action="/p/${where.slug}/forms/${form.id}"`));
      assert.ok(!shown.text.includes(closed.title), 'a closed form is off the page');
      assert.match(shown.text, /<label for="[^"]+-_website">Leave this empty<\/label>/);

      const sent = await person.send(where.slug, form.id, good({ newsletter: 'yes' }));
      assert.equal(sent.status, 303, sent.text.slice(0, 500));
      assert.equal(sent.location, `/p/${where.slug}?sent=${form.id}#form-${form.id}`);
      const after = await person.open(sent.location ?? '');
      assert.match(after.text, /<p class="notice" role="status">Thanks! We answer within a day\.<\/p>/);

      const [stored, ...others] = await submissions(form.id);
      assert.equal(others.length, 0);
      assert.match(stored?.id ?? '', /^fsb_[0-9a-z]{26}$/);
      assert.equal(stored?.email, 'vera@example.test', 'the first e-mail field, lower-cased');
      assert.equal(stored?.user_id, null);
      assert.deepEqual(stored?.values, {
        name: 'Vera Visitor',
        email: 'Vera@Example.test',
        message: 'Do you teach oils on Sundays?',
        topic: 'Courses',
        newsletter: true,
        consent: CONSENT,
      });
      assert.equal(ok<Form>(await staff.get(`/api/v1/forms/${form.id}`)).submission_count, 1);
      // No recipients named: the school's support address (the owner's, from setup) is told.
      const mail = await notices(form.id);
      assert.deepEqual(
        mail.map((m) => m.to_address),
        ['owner@school.test'],
      );
      assert.match(mail[0]?.subject ?? '', new RegExp(`New submission: ${form.title}`));
      assert.match(mail[0]?.text_body ?? '', /Message: Do you teach oils on Sundays\?/);
      assert.match(mail[0]?.text_body ?? '', /Send me the newsletter: yes/);
    });

    test('a signed-in sender is recorded; named recipients are e-mailed, and without a support address every owner and staff member is', async () => {
      const where = await page();
      const named = await create({ page_id: where.id, notify_emails: ['Desk@School.test', 'head@school.test'] });
      const fallback = await create({ page_id: where.id });
      const student = visitor();
      const signin = await student.web.submit('/signin', '/signin', {
        email: people.student.email,
        password: people.student.password,
      });
      assert.equal(signin.status, 303);
      seeOther(await student.send(where.slug, named.id, good()));
      const [mine] = await submissions(named.id);
      assert.equal(mine?.user_id, people.student.id);
      assert.deepEqual(
        (await notices(named.id)).map((m) => m.to_address),
        ['desk@school.test', 'head@school.test'],
      );

      ok(await staff.patch('/api/v1/school', { support_email: null }));
      try {
        assert.equal((await visitor().send(where.slug, fallback.id, good())).status, 303);
        const to = (await notices(fallback.id)).map((m) => m.to_address);
        const team = await db().selectFrom('users').select('email').where('role', 'in', ['owner', 'staff']).execute();
        assert.deepEqual(to, team.map((u) => u.email).sort());
        assert.ok(to.includes('owner@school.test') && to.includes(people.staff.email));
      } finally {
        ok(await staff.patch('/api/v1/school', { support_email: 'owner@school.test' }));
      }
    });

    test('a bad submission shows the page again with each problem next to its field and the values kept; nothing is stored', async () => {
      const where = await page();
      const form = await create({ page_id: where.id });
      const person = visitor();
      const refused = await person.send(where.slug, form.id, {
        name: 'Vera <b>Visitor</b>',
        email: 'not an address',
        message: 'x'.repeat(501),
        topic: 'Astrology',
      });
      assert.equal(refused.status, 400);
      assert.match(refused.headers.get('cache-control') ?? '', /no-store/);
      const errorOf = (name: string) =>
        new RegExp(`<span class="field-error" id="${form.id}-${name}-error">([^<]+)</span>`).exec(refused.text)?.[1];
      assert.equal(errorOf('email'), 'Enter an e-mail address, like name@example.com.');
      assert.equal(errorOf('message'), 'Use at most 500 characters.');
      assert.equal(errorOf('topic'), 'Choose one of the options.');
      assert.equal(errorOf('consent'), 'You need to agree to this to send the form.');
      assert.equal(errorOf('name'), undefined);
      assert.match(
        refused.text,
        new RegExp(
          `id="${form.id}-email"[^>]*aria-describedby="${form.id}-email-help ${form.id}-email-error" aria-invalid="true"`,
        ),
      );
      assert.ok(refused.text.includes('value="Vera &lt;b&gt;Visitor&lt;/b&gt;"'), 'values kept, escaped');
      assert.ok(refused.text.includes('value="not an address"'));
      assert.match(refused.text, /<div class="error" role="alert">/);
      assert.deepEqual(await submissions(form.id), []);
      assert.deepEqual(await notices(form.id), []);

      const missing = await person.send(where.slug, form.id, { consent: 'yes' });
      assert.equal(missing.status, 400);
      assert.equal(
        (missing.text.match(/class="field-error" id="[^"]+">Please fill this in\./g) ?? []).length,
        3,
        'name, email and message',
      );
      const tampered = await person.send(where.slug, form.id, { ...good(), admin: '1' });
      assert.equal(tampered.status, 400, 'a field the form does not have');
      const repeated = await person.web.request('POST', `/p/${where.slug}/forms/${form.id}`, {
        body: `_csrf=${encodeURIComponent(csrfOf((await person.open(`/p/${where.slug}`)).text))}&name=a&name=b`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-forwarded-for': '10.9.9.9' },
      });
      assert.equal(repeated.status, 400);
      assert.deepEqual(await submissions(form.id), []);
    });

    test('without its CSRF token, on another page, closed, or too big, a submission is refused', async () => {
      const where = await page();
      const elsewhere = await page();
      const form = await create({ page_id: where.id });
      const person = visitor();
      await person.open(`/p/${where.slug}`);
      const forged = await person.web.request('POST', `/p/${where.slug}/forms/${form.id}`, {
        body: new URLSearchParams(good()).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      assert.equal(forged.status, 403);
      assert.equal((await person.send(where.slug, newId('frm'), good())).status, 404);
      // Posted to a page the form is not on (the token comes from the form's own page).
      const shown = await person.open(`/p/${where.slug}`);
      const wrongPage = await person.web.request('POST', `/p/${elsewhere.slug}/forms/${form.id}`, {
        body: new URLSearchParams({ _csrf: csrfOf(shown.text), ...good() }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      assert.equal(wrongPage.status, 404);
      const huge = await person.web.request('POST', `/p/${where.slug}/forms/${form.id}`, {
        body: new URLSearchParams({ _csrf: csrfOf(shown.text), ...good({ message: 'x'.repeat(300_000) }) }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      assert.equal(huge.status, 413);
      const opened = await person.open(`/p/${where.slug}`);
      ok(await staff.patch(`/api/v1/forms/${form.id}`, { status: 'closed' }));
      const late = await person.web.request('POST', `/p/${where.slug}/forms/${form.id}`, {
        body: new URLSearchParams({ _csrf: csrfOf(opened.text), ...good() }).toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      assert.equal(late.status, 409);
      assert.match(late.text, /This form is closed and no longer takes submissions\./);
      assert.deepEqual(await submissions(form.id), []);
    });

    test('a filled honeypot is answered like a submission, and nothing is kept or sent', async () => {
      const where = await page();
      const form = await create({ page_id: where.id });
      const robot = await visitor().send(where.slug, form.id, { ...good(), _website: 'https://spam.example' });
      assert.equal(robot.status, 303);
      assert.equal(robot.location, `/p/${where.slug}?sent=${form.id}#form-${form.id}`);
      assert.deepEqual(await submissions(form.id), []);
      assert.deepEqual(await notices(form.id), []);
    });

    test('one address may send a form a few times per window: then 429 with Retry-After, until the window passes', async () => {
      const where = await page();
      const form = await create({ page_id: where.id });
      const other = await create({ page_id: where.id });
      const person = visitor('10.77.0.1');
      // A refused submission is a mistake being corrected, not spam: it does not count.
      assert.equal((await person.send(where.slug, form.id, { consent: 'yes' })).status, 400);
      for (let i = 0; i < PER_WINDOW; i++) assert.equal((await person.send(where.slug, form.id, good())).status, 303);
      const limited = await person.send(where.slug, form.id, good());
      assert.equal(limited.status, 429);
      assert.match(limited.headers.get('retry-after') ?? '', /^\d+$/);
      assert.match(limited.text, /Too many attempts; try again in \d+ seconds\./);
      assert.ok(limited.text.includes('value="Vera Visitor"'), 'the values are kept for later');
      assert.equal((await person.send(where.slug, other.id, good())).status, 303, 'another form');
      assert.equal((await visitor('10.77.0.2').send(where.slug, form.id, good())).status, 303, 'another address');
      skew += (WINDOW_SECONDS + 1) * 1000;
      assert.equal((await person.send(where.slug, form.id, good())).status, 303, 'a new window');
      assert.equal((await submissions(form.id)).length, PER_WINDOW + 2);
      // Nothing of the address is stored with a submission.
      const stored = await db().selectFrom('form_submissions').selectAll().where('form_id', '=', form.id).execute();
      assert.ok(!JSON.stringify(stored).includes('10.77.0.'));
    });

    test('once a form has submissions its fields keep their names and types; delete is refused, closing is the way', async () => {
      const where = await page();
      const form = await create({ page_id: where.id });
      const fields = contactFields();
      // Before any submission the fields may change freely.
      const reshaped = ok<Form>(
        await staff.patch(`/api/v1/forms/${form.id}`, { fields: fields.filter((f) => f.name !== 'topic') }),
      );
      assert.deepEqual(
        reshaped.fields.map((f) => f.name),
        ['name', 'email', 'message', 'newsletter', 'consent'],
      );
      ok(await staff.patch(`/api/v1/forms/${form.id}`, { fields }));
      seeOther(await visitor().send(where.slug, form.id, good()));
      for (const next of [
        fields.filter((f) => f.name !== 'topic'),
        fields.map((f) => (f.name === 'name' ? { ...f, name: 'full_name' } : f)),
        fields.map((f) => (f.name === 'message' ? { ...f, type: 'text' } : f)),
      ]) {
        const refused = await staff.patch<Refusal>(`/api/v1/forms/${form.id}`, { fields: next });
        assert.equal(refused.status, 409, JSON.stringify(refused.body));
        assert.equal(refused.body.error, 'conflict');
      }
      const grown = ok<Form>(
        await staff.patch(`/api/v1/forms/${form.id}`, {
          fields: [
            { name: 'phone', label: 'Phone', type: 'text' },
            ...[...fields].reverse().map((f) => ({ ...f, label: `${f.label}!`, required: f.type === 'consent' })),
          ],
          title: 'Renamed',
        }),
      );
      assert.equal(grown.fields[0]?.name, 'phone');
      assert.equal(grown.title, 'Renamed');
      assert.equal(grown.submission_count, 1);

      const refusedDelete = await staff.delete<Refusal>(`/api/v1/forms/${form.id}`);
      assert.equal(refusedDelete.status, 409);
      const closed = ok<Form>(await staff.patch(`/api/v1/forms/${form.id}`, { status: 'closed' }));
      assert.equal(closed.status, 'closed');
      assert.ok(!(await visitor().open(`/p/${where.slug}`)).text.includes('Renamed'));
      assert.equal((await submissions(form.id)).length, 1, 'kept');

      const unused = await create({ page_id: where.id });
      assert.equal((await staff.delete(`/api/v1/forms/${unused.id}`)).status, 204);
      assert.equal((await staff.get(`/api/v1/forms/${unused.id}`)).status, 404);
      assert.equal((await staff.delete(`/api/v1/forms/${unused.id}`)).status, 404);
      assert.equal((await staff.patch(`/api/v1/forms/${unused.id}`, { title: 'Gone' })).status, 404);
    });

    test('a delete racing submissions: the form goes with none taken, or stays with every one taken', async () => {
      const forms = server.services.areas.forms;
      for (let round = 0; round < 3; round++) {
        const where = await page();
        const form = await create({ page_id: where.id });
        const sends = Array.from({ length: 8 }, (_, i) =>
          forms
            .submit({ formId: form.id, pageId: where.id, posted: good(), userId: null, address: `10.5.${round}.${i}` })
            .then(
              () => 'sent',
              (error: { status?: number }) => error.status,
            ),
        );
        const [removal, ...outcomes] = await Promise.all([
          staff.delete(`/api/v1/forms/${form.id}`).then((r) => r.status),
          ...sends,
        ]);
        const stored = await db().selectFrom('form_submissions').select('id').where('form_id', '=', form.id).execute();
        if (removal === 204) {
          assert.deepEqual(new Set(outcomes), new Set([404]), `round ${round}`);
          assert.equal(stored.length, 0);
        } else {
          assert.equal(removal, 409, `round ${round}`);
          assert.deepEqual(new Set(outcomes), new Set(['sent']), `round ${round}`);
          assert.equal(stored.length, 8);
        }
      }
    });

    test('a page that goes takes its forms off it, and they are kept', async () => {
      const draft = ok<{ id: string }>(await staff.post('/api/v1/pages', { title: `Draft ${unique()}` }), 201);
      const form = await create({ page_id: draft.id });
      assert.equal((await staff.delete(`/api/v1/pages/${draft.id}`)).status, 204);
      assert.equal(ok<Form>(await staff.get(`/api/v1/forms/${form.id}`)).page_id, null);
    });

    test('listForms filters by status, page and title, and pages like every list', async () => {
      const where = await page();
      const tag = unique();
      const open = await create({ title: `Survey ${tag} open`, page_id: where.id });
      const shut = await create({ title: `Survey ${tag} shut`, status: 'closed' });
      const ids = async (query: string, q = tag) =>
        (await listAll<Form>(readOnly, `/api/v1/forms?q=${q}${query}`)).map((f) => f.id);
      assert.deepEqual(await ids(''), [shut.id, open.id]);
      assert.deepEqual(await ids('&status=active'), [open.id]);
      assert.deepEqual(await ids('&status=closed'), [shut.id]);
      assert.deepEqual(await ids(`&page_id=${where.id}`), [open.id]);
      assert.deepEqual(await ids('', `${tag.toUpperCase()}%20SHUT`), [shut.id]);
      const other = unique();
      await paginatesLikeEveryList({
        staff,
        query: `/api/v1/forms?q=${other}`,
        make: (i) => create({ title: `Paged ${other} ${i}` }),
        remove: (id) => staff.delete(`/api/v1/forms/${id}`),
      });
    });

    test('listFormSubmissions filters by e-mail, text and time, and pages like every list', async () => {
      const where = await page();
      const form = await create({ page_id: where.id });
      const send = async (i: number, extra: Record<string, string> = {}) => {
        seeOther(await visitor().send(where.slug, form.id, good({ email: `person${i}@example.test`, ...extra })));
        const [latest] = (await readOnly.get<List<Submission>>(`/api/v1/forms/${form.id}/submissions?limit=1`)).body
          .data;
        assert.ok(latest);
        return latest;
      };
      const first = await send(1, { message: 'About 100% of the WATERCOLOUR course' });
      const second = await send(2, { message: 'Billing question' });
      const list = (query: string) =>
        listAll<Submission>(readOnly, `/api/v1/forms/${form.id}/submissions?${query}`).then((s) => s.map((x) => x.id));
      assert.deepEqual(await list('email=PERSON1@example.test'), [first.id]);
      assert.deepEqual(await list('q=watercolour'), [first.id]);
      assert.deepEqual(await list('q=100%25'), [first.id], '% is a plain character');
      assert.deepEqual(await list('q=person2@'), [second.id]);
      // The answers are searched, not their JSON: field names, booleans and punctuation match nothing.
      for (const q of ['name', 'topic', 'true', '%7B', '%22']) assert.deepEqual(await list(`q=${q}`), [], q);
      assert.deepEqual((await list('q=Vera%20Visitor')).sort(), [first.id, second.id].sort(), 'an answer as typed');
      assert.deepEqual(await list(`created_after=${first.created_at}`), [second.id]);
      assert.deepEqual(await list(`created_before=${second.created_at}`), [first.id]);
      assert.equal((await readOnly.get(`/api/v1/forms/${newId('frm')}/submissions`)).status, 404);

      const paged = await create({ page_id: where.id });
      await paginatesLikeEveryList({
        staff: readOnly,
        query: `/api/v1/forms/${paged.id}/submissions?q=example`,
        make: async (i) => {
          seeOther(await visitor().send(where.slug, paged.id, good({ email: `paged${i}@example.test` })));
          const [latest] = (await readOnly.get<List<Submission>>(`/api/v1/forms/${paged.id}/submissions?limit=1`)).body
            .data;
          assert.ok(latest);
          return latest;
        },
        // Submissions are not deleted through the API; the cursor check needs a gone row, so it is removed here.
        remove: (id) => db().deleteFrom('form_submissions').where('id', '=', id).execute(),
      });
    });

    test('exportFormSubmissions: a CSV with a header of the labels, one line per submission, formulas defused', async () => {
      const where = await page();
      const form = await create({ page_id: where.id });
      seeOther(
        await visitor().send(where.slug, form.id, {
          ...good({ name: '=HYPERLINK("http://evil.example","click")', message: 'Line one\nline "two", three' }),
          newsletter: 'yes',
        }),
      );
      seeOther(
        await visitor().send(where.slug, form.id, good({ name: '+1 555', email: 'other@example.test', topic: '' })),
      );
      const [newest, oldest] = await submissions(form.id);
      const raw = await exportText(form.id);
      assert.equal(raw.status, 200);
      assert.match(raw.type, /^text\/csv; charset=utf-8/);
      assert.match(raw.disposition, new RegExp(`attachment; filename="form-${form.id}.csv"`));
      const expected = [
        `Submission,Submitted at,Your name,E-mail,Message,Topic,Send me the newsletter,${CONSENT},Signed-in user`,
        `${newest?.id},${newest?.created_at},'+1 555,other@example.test,Do you teach oils on Sundays?,,no,agreed: ${CONSENT},`,
        `${oldest?.id},${oldest?.created_at},"'=HYPERLINK(""http://evil.example"",""click"")",Vera@Example.test,"Line one\nline ""two"", three",Courses,yes,agreed: ${CONSENT},`,
      ];
      assert.equal(raw.text, `${expected.join('\r\n')}\r\n`);
      const filtered = await exportText(form.id, '?email=other@example.test&sort=created_at');
      assert.equal(filtered.text.split('\r\n').length, 3, 'a header, one line, the final line break');
      assert.equal((await exportText(newId('frm'))).status, 404);
    });

    /** The export, read as text with the forms:read token. */
    async function exportText(formId: string, query = '') {
      const response = await fetch(`${server.url}/api/v1/forms/${formId}/submissions/export${query}`, {
        headers: { authorization: `Bearer ${readToken}` },
      });
      return {
        status: response.status,
        type: response.headers.get('content-type') ?? '',
        disposition: response.headers.get('content-disposition') ?? '',
        text: await response.text(),
      };
    }
  });
}
