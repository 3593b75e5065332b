import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import {
  apiClient,
  createUser,
  insufficientScopeChallenge,
  type Person,
  schoolWithPeople,
  tokenFor,
} from '../support/api.ts';
import { engines } from '../support/databases.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { paginatesLikeEveryList, seenOnlyBy } from '../support/shared-examples.ts';

type Certificate = {
  id: string;
  user_id: string;
  course_id: string;
  recipient_name: string;
  course_title: string;
  status: 'valid' | 'revoked';
  revoked_reason: string | null;
  verification_url: string;
  pdf_url: string;
};
type Client = ReturnType<typeof apiClient>;

async function pdfText(bytes: ArrayBuffer): Promise<string> {
  const pdf = await getDocument({ data: new Uint8Array(bytes), useSystemFonts: false }).promise;
  const page = await pdf.getPage(1);
  const content = await page.getTextContent();
  return content.items.map((item) => ('str' in item ? item.str : '')).join(' ');
}

for (const engine of engines) {
  describe(`certificates (${engine})`, () => {
    let server: TestServer;
    let staff: Client;
    let studentApi: Client;
    let anonymous: Client;
    let student: Person;
    let courseId: string;

    before(async () => {
      server = await startTestServer(engine);
      const people = await schoolWithPeople(server);
      student = people.student;
      staff = apiClient(server.url, await tokenFor(server, people.staff, 'students:read students:write courses:write'));
      studentApi = apiClient(server.url, await tokenFor(server, student, 'students:read'));
      anonymous = apiClient(server.url);
      const course = await staff.post<{ id: string }>('/api/v1/courses', { title: 'Watercolour Basics' });
      assert.equal(course.status, 201);
      courseId = course.body.id;
    });
    after(() => server.close());

    /** Completion issues certificates inside the students area's transaction; here the service is called directly. */
    const issue = (userId: string, course = courseId) =>
      server.database.db.transaction().execute((trx) => server.services.areas.certificates.issue(trx, userId, course));

    test('issued once per person and course, with the names of the day', async () => {
      const person = await createUser(server, 'student', 'Zoë Łukasiewicz-Дмитриева');
      const first = await issue(person.id);
      const again = await issue(person.id);
      assert.equal(again.id, first.id);
      assert.equal(first.status, 'valid');
      assert.equal(first.recipient_name, 'Zoë Łukasiewicz-Дмитриева');
      assert.equal(first.course_title, 'Watercolour Basics');
      assert.match(first.verification_url, new RegExp(`^${server.config.BASE_URL}/certificates/[A-Za-z0-9_-]{24}$`));
      assert.equal(first.pdf_url, `${first.verification_url}.pdf`);
    });

    test('staff see every certificate, a student their own, anonymous callers and other scopes are refused', async () => {
      const own = await issue(student.id);
      const other = await issue((await createUser(server, 'student')).id);
      const principals = { anonymous: staff, student: studentApi, staff };
      await seenOnlyBy(
        principals,
        { id: own.id, get: `/api/v1/certificates/${own.id}`, list: '/api/v1/certificates' },
        ['anonymous', 'student', 'staff'],
      );
      await seenOnlyBy(
        principals,
        { id: other.id, get: `/api/v1/certificates/${other.id}`, list: '/api/v1/certificates' },
        ['anonymous', 'staff'],
      );
      for (const path of ['/api/v1/certificates', `/api/v1/certificates/${own.id}`]) {
        const refused = await anonymous.get(path);
        assert.equal(refused.status, 403, path);
        assert.match(refused.headers.get('www-authenticate') ?? '', insufficientScopeChallenge('students:read'));
      }
      const wrongScope = apiClient(server.url, await tokenFor(server, student, 'courses:read'));
      assert.equal((await wrongScope.get('/api/v1/certificates')).status, 403);
      const revokeByStudent = await studentApi.post(`/api/v1/certificates/${own.id}/revoke`, {});
      assert.equal(revokeByStudent.status, 403);
      assert.match(revokeByStudent.headers.get('www-authenticate') ?? '', insufficientScopeChallenge('students:write'));
    });

    test('lists page like every list, filtered by course, person and status', async () => {
      const course = await staff.post<{ id: string }>('/api/v1/courses', { title: 'Paged course' });
      await paginatesLikeEveryList({
        staff,
        query: `/api/v1/certificates?course_id=${course.body.id}&status=valid`,
        make: async () => issue((await createUser(server, 'student')).id, course.body.id),
        remove: (id) => staff.post(`/api/v1/certificates/${id}/revoke`, {}),
      });
      const revoked = await staff.get<{ data: Certificate[] }>(
        `/api/v1/certificates?course_id=${course.body.id}&status=revoked`,
      );
      assert.equal(revoked.body.data.length, 1);
      const mine = await staff.get<{ data: Certificate[] }>(`/api/v1/certificates?user_id=${student.id}`);
      assert.ok(mine.body.data.every((c) => c.user_id === student.id) && mine.body.data.length > 0);
      assert.equal((await staff.post('/api/v1/certificates/cer_nope/revoke', {})).status, 400);
      assert.equal((await staff.post(`/api/v1/certificates/${revoked.body.data[0]?.id}/revoke`, { x: 1 })).status, 400);
    });

    test('anyone with the link verifies it and downloads the PDF; a revoked one says so; unknown codes are 404', async () => {
      const person = await createUser(server, 'student', 'Ana Verify');
      const certificate = await issue(person.id);
      const page = await fetch(certificate.verification_url, { headers: { accept: 'text/html' } });
      assert.equal(page.status, 200);
      assert.equal(page.headers.get('x-robots-tag'), 'noindex');
      const text = await page.text();
      assert.match(text, /Valid\./);
      assert.match(text, /Ana Verify/);
      assert.match(text, /Watercolour Basics/);

      const pdf = await fetch(certificate.pdf_url);
      assert.equal(pdf.status, 200);
      assert.equal(pdf.headers.get('content-type'), 'application/pdf');
      const printed = await pdfText(await pdf.arrayBuffer());
      assert.match(printed, /Certificate of Completion/);
      assert.match(printed, /Ana Verify/);
      assert.match(printed, /Watercolour Basics/);
      assert.match(printed, /Test Academy/);

      const revoked = await staff.post<Certificate>(`/api/v1/certificates/${certificate.id}/revoke`, {
        reason: 'Issued in error',
      });
      assert.equal(revoked.status, 200);
      assert.equal(revoked.body.status, 'revoked');
      assert.equal(revoked.body.revoked_reason, 'Issued in error');
      const twice = await staff.post<{ error: string }>(`/api/v1/certificates/${certificate.id}/revoke`, {});
      assert.equal(twice.status, 409);
      const after = await (await fetch(certificate.verification_url)).text();
      assert.match(after, /Revoked\./);
      assert.match(after, /Issued in error/);
      assert.match(await pdfText(await (await fetch(certificate.pdf_url)).arrayBuffer()), /has been revoked/);

      for (const path of ['/certificates/AAAAAAAAAAAAAAAAAAAAAAAA', '/certificates/short', '/certificates/x.pdf']) {
        assert.equal((await fetch(`${server.url}${path}`)).status, 404, path);
      }

      // The code is what verifies the certificate (whoever has it sees the name and the course): like a calendar
      // feed's secret it never reaches the request log, which still shows the page was fetched.
      const code = new URL(certificate.verification_url).pathname.split('/').pop() ?? '';
      assert.ok(code.length >= 20);
      assert.ok(!server.logs.some((line) => line.includes(code)), 'the certificate code never reaches the log');
      assert.ok(server.logs.some((line) => line.includes('"url":"/certificates/[redacted]"')));
    });
  });
}
