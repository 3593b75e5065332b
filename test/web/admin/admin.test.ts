import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiClient, createUser, tokenFor } from '../../support/api.ts';
import { publishWithALesson } from '../../support/course-content.ts';
import { engines } from '../../support/databases.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { completeSetup, csrfOf, fillIn, OWNER, signedInClient, WebClient } from '../../support/web-client.ts';

for (const engine of engines) {
  describe(`the admin (${engine})`, () => {
    let server: TestServer;
    let owner: WebClient;
    let skew = 0;
    before(async () => {
      server = await startTestServer(engine, {}, { clock: { now: () => new Date(Date.now() + skew) } });
      owner = await completeSetup(server.url, server.setupUrl ?? '');
    });
    after(() => server.close());

    test('a signed-out visitor is sent to sign in and back; a student gets the 404 page', async () => {
      const visitor = new WebClient(server.url);
      const away = await visitor.get('/admin/courses');
      assert.equal(away.status, 303);
      assert.equal(away.location, `/signin?return_to=${encodeURIComponent('/admin/courses')}`);
      const student = await createUser(server, 'student', 'Stu Dent');
      const browser = await signedInClient(server.url, student);
      assert.equal((await browser.get('/admin')).status, 404);
      assert.equal((await browser.get('/admin/courses/new')).status, 404);
      const posted = await browser.postForm('/admin/courses/new', { _csrf: 'x', title: 'Mine' });
      assert.equal(posted.status, 404);
      // Not one write of the admin is open to a student, with a valid CSRF token of their own or without.
      const csrf = csrfOf((await browser.get('/account/calendar')).text);
      const reached: string[] = [];
      for (const route of server.routes.filter(
        (r) => r.url.startsWith('/api/v1') && !['GET', 'HEAD'].includes(r.method),
      )) {
        const name = String(route.schema?.operationId);
        for (const path of [`/admin/operations/${name}`]) {
          const answer = await browser.postForm(path, { _csrf: csrf, confirm: 'yes', id: 'x' });
          if (answer.status !== 404) reached.push(`${name}: ${answer.status}`);
        }
      }
      assert.deepEqual(reached, []);
    });

    test('the owner creates a course, sees the API refuse a bad slug next to its field, and publishes it', async () => {
      const refused = await fillIn(owner, '/admin/courses/new', '/admin/courses/new', {
        title: 'Pottery',
        slug: 'Bad Slug!',
      });
      assert.equal(refused.status, 400, refused.text.slice(0, 500));
      assert.match(refused.text, /id="f-slug-error"/);
      assert.match(refused.text, /value="Pottery"/, 'the typed title is kept');
      const made = await fillIn(owner, '/admin/courses/new', '/admin/courses/new', {
        title: 'Pottery',
        slug: 'pottery',
      });
      assert.equal(made.status, 303, made.text.slice(0, 500));
      const path = (made.location ?? '').split('?')[0] ?? '';
      assert.match(path, /^\/admin\/courses\/crs_/);
      const page = await owner.get(made.location ?? '');
      assert.equal(page.status, 200);
      assert.match(page.text, /The course was created as a draft\./);
      assert.match(page.text, /Pottery/);
      // A draft offers Publish, not Unpublish, and its state reads as a word, not as the API's value.
      assert.match(page.text, /<button type="submit">Publish<\/button>/);
      assert.doesNotMatch(page.text, />Unpublish</);
      assert.match(page.text, /<span class="badge badge-draft">Draft<\/span>/);
      assert.doesNotMatch(page.text, /\/api\/v1|crs_[0-9a-z]{26}<|Written as JSON|0-based/);
      const courseId = path.split('/')[3] ?? '';
      // A course with nothing to learn is not published: the refusal says why, in words.
      const empty = await owner.postForm(`/admin/operations/publishCourse?id=${courseId}`, {
        _csrf: csrfOf(page.text),
        return_to: path,
      });
      assert.equal(empty.status, 409);
      assert.match(empty.text, /A course needs at least one published lesson in a published section before it can be/);
      assert.doesNotMatch(empty.text, /\/api\/v1|publishCourse</);
      const api = apiClient(server.url, await tokenFor(server, OWNER, 'curriculum:write'));
      const section = await api.post<{ id: string }>(`/api/v1/courses/${courseId}/sections`, { title: 'Clay' });
      const lesson = await api.post<{ id: string }>(`/api/v1/sections/${section.body.id}/lessons`, {
        title: 'Wedging',
        type: 'text',
        body: 'Knead the clay.',
      });
      await api.post(`/api/v1/sections/${section.body.id}/publish`);
      await api.post(`/api/v1/lessons/${lesson.body.id}/publish`);
      const published = await owner.postForm(`/admin/operations/publishCourse?id=${courseId}`, {
        _csrf: csrfOf(page.text),
        return_to: path,
      });
      assert.equal(published.status, 303, published.text.slice(0, 800));
      const now = await owner.get(published.location ?? '');
      assert.match(now.text, /The course is published\./);
      assert.match(now.text, />Unpublish</);
      assert.doesNotMatch(now.text, /<button type="submit">Publish<\/button>/);
      const edit = await fillIn(owner, `${path}/edit`, `${path}/edit`, {
        title: 'Pottery for beginners',
        slug: 'pottery',
      });
      assert.equal(edit.status, 303, /role="alert">(.*?)<\/div>/s.exec(edit.text)?.[1]);
      assert.match((await owner.get(path)).text, /Pottery for beginners/);
    });

    test("staff tick an event's attendance; the API records it", async () => {
      const student = await createUser(server, 'student', 'Ann Attendee');
      const staff = apiClient(server.url, await tokenFor(server, OWNER, 'events:read events:write'));
      const startsAt = new Date(Date.now() + 3_600_000);
      const event = await staff.post<{ id: string }>('/api/v1/events', {
        title: 'Open studio',
        starts_at: startsAt.toISOString(),
        ends_at: new Date(startsAt.getTime() + 3_600_000).toISOString(),
        timezone: 'Europe/Berlin',
        address: 'Main hall',
      });
      assert.equal(event.status, 201, JSON.stringify(event.body));
      const registered = await staff.post<{ id: string }>(`/api/v1/events/${event.body.id}/registrations`, {
        user_id: student.id,
      });
      assert.equal(registered.status, 201, JSON.stringify(registered.body));
      const screen = `/admin/events/${event.body.id}/attendance`;
      assert.match((await owner.get(`/admin/events/${event.body.id}`)).text, new RegExp(`href="${screen}"`));
      const early = await fillIn(owner, screen, screen, { attended: registered.body.id });
      assert.equal(early.status, 409, 'before the start the API refuses, and the admin says so');
      assert.match(early.text, /role="alert"/);
      skew = 2 * 3_600_000 - 60_000;
      const saved = await fillIn(owner, screen, screen, { attended: registered.body.id });
      assert.equal(saved.status, 303, saved.text.slice(0, 300));
      skew = 0;
      const rows = await staff.get<{ data: { attended: boolean | null }[] }>(
        `/api/v1/events/${event.body.id}/registrations`,
      );
      assert.deepEqual(
        rows.body.data.map((r) => r.attended),
        [true],
      );
    });

    test("a form's submissions download as the API's CSV", async () => {
      const staff = apiClient(server.url, await tokenFor(server, OWNER, 'pages:write forms:read'));
      const pageMade = await staff.post<{ id: string }>('/api/v1/pages', {
        title: 'Contact',
        draft_body: 'Write to us.',
      });
      const form = await staff.post<{ id: string }>('/api/v1/forms', {
        title: 'Ask',
        page_id: pageMade.body.id,
        fields: [{ name: 'message', label: 'Message', type: 'long_text', required: true }],
      });
      assert.equal(form.status, 201, JSON.stringify(form.body));
      const csv = await owner.get(`/admin/forms/${form.body.id}/submissions.csv`);
      assert.equal(csv.status, 200);
      assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
      assert.match(csv.text, /^Submission,Submitted at,Message/);
      const student = await createUser(server, 'student', 'Nosy Student');
      assert.equal(
        (await (await signedInClient(server.url, student)).get(`/admin/forms/${form.body.id}/submissions.csv`)).status,
        404,
      );
    });

    test('the appearance form shows colours as colour boxes and saves only what changed; the theme follows', async () => {
      const form = await owner.get('/admin/appearance');
      assert.match(form.text, /<input type="color" id="f-colors-primary" name="colors.primary"/);
      const saved = await fillIn(owner, '/admin/appearance', '/admin/appearance/edit', { 'colors.primary': '#aa3300' });
      assert.equal(saved.status, 303, /role="alert">(.*?)<\/div>/s.exec(saved.text)?.[1]);
      const theme = await fetch(`${server.url}/assets/theme.css`);
      assert.match(await theme.text(), /--primary: #aa3300/i);
      const menu = await fillIn(owner, '/admin/appearance/menu', '/admin/appearance/menu', {
        count: '2',
        '0.label': 'Classes',
        '0.goes': '/courses',
        '1.label': 'Blog',
        '1.goes': '/posts',
      });
      assert.equal(menu.status, 303, /role="alert">(.*?)<\/div>/s.exec(menu.text)?.[1]);
      const home = await fetch(`${server.url}/`);
      assert.match(
        await home.text(),
        /<li><a href="\/courses">Classes<\/a><\/li><li><a href="\/posts">Blog<\/a><\/li>/,
      );
    });

    test('an upload address is good only signed, for its own person', async () => {
      const forged = await owner.request('PUT', '/admin/uploads/eyJhc3NldCI6ImFzdF8xIn0.forged', {
        body: 'bytes',
        headers: { 'content-type': 'video/mp4' },
      });
      assert.equal(forged.status, 404);
      const visitor = new WebClient(server.url);
      assert.equal(
        (await visitor.request('PUT', '/admin/uploads/x', { body: 'x' })).status,
        303,
        'signed out: sign in',
      );
    });

    test('in the admin too, only the owner changes roles or removes staff', async () => {
      const colleague = await createUser(server, 'staff', 'Colleague Cole');
      const other = await createUser(server, 'staff', 'Other Olga');
      const asStaff = await signedInClient(server.url, colleague);
      const tried = await fillIn(
        asStaff,
        `/admin/operations/removeStaff?id=${other.id}`,
        '/admin/operations/removeStaff',
        {},
      );
      assert.equal(tried.status, 403);
      assert.match(tried.text, /Only the owner removes staff/);
      const made = await fillIn(asStaff, `/admin/staff/${other.id}/edit`, `/admin/staff/${other.id}/edit`, {
        role: 'owner',
      });
      assert.equal(made.status, 403);
      assert.match(made.text, /Only the owner changes roles/);
      const removed = await fillIn(
        owner,
        `/admin/operations/removeStaff?id=${other.id}`,
        '/admin/operations/removeStaff',
        {},
      );
      assert.equal(removed.status, 303);
    });

    test('e-mail and payments: how mail goes out, what waits in the outbox, who takes payments', async () => {
      const page = await owner.get('/admin/delivery');
      assert.equal(page.status, 200);
      assert.match(page.text, /No SMTP server is configured/);
      assert.match(page.text, /<dt>Held \(no SMTP\)<\/dt><dd>\d+<\/dd>/);
      assert.match(page.text, /No payment provider/);
    });

    test('bulk coupon codes: made from the admin, listed on their batch page and downloaded as CSV', async () => {
      assert.match((await owner.get('/admin/coupons')).text, /Create codes in bulk/);
      const made = await fillIn(owner, '/admin/operations/bulkCreateCoupons', '/admin/operations/bulkCreateCoupons', {
        prefix: 'spring',
        count: '3',
        percent_off: '15',
      });
      assert.equal(made.status, 303, /role="alert">(.*?)<\/div>/s.exec(made.text)?.[1]);
      assert.match(made.location ?? '', /^\/admin\/coupons\/batches\/SPRING\?notice=bulkCreateCoupons$/);
      const batch = await owner.get(made.location ?? '');
      assert.match(batch.text, /3 codes in the batch SPRING/);
      const csv = await owner.get('/admin/coupons/batches/SPRING/codes.csv');
      assert.match(csv.headers.get('content-type') ?? '', /^text\/csv/);
      const lines = csv.text.trim().split('\r\n');
      assert.equal(lines[0], 'code,percent_off,amount_off,expires_at,max_redemptions');
      assert.equal(lines.length, 4);
      assert.ok(
        lines.slice(1).every((l) => /^SPRING-[A-Z0-9]{8},15,,,$/.test(l)),
        lines.join('|'),
      );
    });

    test('students import from CSV: refused text is explained; the job is followed to a report per row', async () => {
      const api = apiClient(server.url, await tokenFor(server, OWNER, 'courses:write curriculum:write'));
      const course = await api.post<{ id: string; slug: string }>('/api/v1/courses', { title: 'Kiln safety' });
      assert.equal((await publishWithALesson(api, course.body.id)).status, 200);
      assert.match((await owner.get('/admin/students')).text, /href="\/admin\/students\/import"/);
      const noHeader = await fillIn(owner, '/admin/students/import', '/admin/students/import', { csv: 'name\nAnn\n' });
      assert.equal(noHeader.status, 400);
      assert.match(noHeader.text, /must name an &quot;email&quot; column/);
      const started = await fillIn(owner, '/admin/students/import', '/admin/students/import', {
        csv: `email,name,course\nann@school.test,Ann Import,${course.body.slug}\nnot-an-address,Bad Row,\nbob@school.test,Bob Import,Kiln safety\n`,
        course: course.body.id,
      });
      assert.equal(started.status, 303, /role="alert">(.*?)<\/div>/s.exec(started.text)?.[1]);
      const progress = await owner.get(started.location ?? '');
      // The server's own job runner may already have taken the job: the page follows it only while it runs.
      if (/Finished: 3 of 3 rows/.test(progress.text))
        assert.match(progress.text, /<progress id="import-progress" max="3" value="3"/);
      else {
        assert.match(progress.text, /<progress id="import-progress" max="3" value="0"/);
        assert.match(progress.text, /<meta http-equiv="refresh" content="2">/, 'the page follows the job by itself');
      }
      await server.services.jobs.runDue();
      const done = await owner.get(started.location ?? '');
      assert.match(done.text, /Finished: 3 of 3 rows/);
      assert.doesNotMatch(done.text, /http-equiv="refresh"/);
      assert.match(done.text, /2 enrolled · 1 invalid/);
      // The refused row's reason names its field as the admin does, not by the API's field name.
      assert.match(done.text, /<td>E-mail address: [^<]+<\/td>/);
      assert.doesNotMatch(done.text, /<td>email: /);
      const report = await owner.get(`${started.location}/report.csv`);
      assert.match(report.text, /^row,outcome,student_id,reason\r\n2,enrolled,usr_/);
      assert.match(report.text, /3,invalid,,/);
    });

    test('every write operation of the API has an admin screen', async () => {
      const writes = server.routes.filter(
        (r) => r.url.startsWith('/api/v1') && !['GET', 'HEAD'].includes(r.method) && r.config.binary !== true,
      );
      const missing: string[] = [];
      for (const route of writes) {
        const name = String(route.schema?.operationId);
        const screen = await owner.get(`/admin/operations/${name}`);
        if (screen.status !== 200) missing.push(`${name}: ${screen.status}`);
        else csrfOf(screen.text);
      }
      assert.deepEqual(missing, []);
    });
  });
}
