import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiClient, createUser, type Person, schoolWithPeople, tokenFor } from '../../support/api.ts';
import { engines } from '../../support/databases.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { csrfOf, signedInClient, WebClient } from '../../support/web-client.ts';

type Client = ReturnType<typeof apiClient>;
const DAY_MS = 86_400_000;

const ok = <T>(response: { status: number; body: unknown }, status = 200) => {
  assert.equal(response.status, status, JSON.stringify(response.body));
  return response.body as T;
};

const signedIn = (server: TestServer, person: Person) => signedInClient(server.url, person);

for (const engine of engines) {
  describe(`the learner's pages (${engine})`, () => {
    let server: TestServer;
    let staff: Client;
    let staffPerson: Person;

    before(async () => {
      server = await startTestServer(engine);
      const people = await schoolWithPeople(server);
      staffPerson = people.staff;
      staff = apiClient(
        server.url,
        await tokenFor(server, staffPerson, 'courses:write courses:read curriculum:write curriculum:read'),
      );
    });
    after(() => server.close());

    /** A free published course: a text lesson, an embed lesson, a video lesson, a quiz, and a section that drips. */
    async function course() {
      const made = ok<{ id: string; slug: string }>(
        await staff.post('/api/v1/courses', { title: `Painting ${Math.random().toString(36).slice(2, 7)}` }),
        201,
      );
      const section = async (title: string, drip?: Record<string, unknown>) => {
        const s = ok<{ id: string }>(
          await staff.post(`/api/v1/courses/${made.id}/sections`, { title, ...(drip ? { drip } : {}) }),
          201,
        );
        ok(await staff.post(`/api/v1/sections/${s.id}/publish`));
        return s.id;
      };
      const lesson = async (sectionId: string, body: Record<string, unknown>) => {
        const l = ok<{ id: string }>(await staff.post(`/api/v1/sections/${sectionId}/lessons`, body), 201);
        ok(await staff.post(`/api/v1/lessons/${l.id}/publish`));
        return l.id;
      };
      const first = await section('Basics');
      const text = await lesson(first, { title: 'Brushes', body: 'Round brushes hold water.\n\nFlat ones do not.' });
      const embed = await lesson(first, {
        title: 'Colour mixer',
        type: 'embed',
        body: '<script>document.body.dataset.ran = "yes"</script><p>Mix here</p>',
      });
      const video = await lesson(first, {
        title: 'Washes',
        type: 'video',
        asset_url: 'https://video.example/washes.mp4',
        body: 'Watch the wash.',
      });
      const quiz = await lesson(first, {
        title: 'Check yourself',
        type: 'quiz',
        body: 'Two questions.',
        quiz: {
          pass_percent: 100,
          questions: [
            { prompt: 'Which brush holds water?', choices: ['Round', 'Flat'], answers: [0] },
            { prompt: 'Primary colours?', choices: ['Red', 'Green', 'Blue'], answers: [0, 2] },
          ],
        },
      });
      const later = await section('Later', { type: 'on_date', date: new Date(Date.now() + 30 * DAY_MS).toISOString() });
      const held = await lesson(later, { title: 'Glazing', body: 'Layers.' });
      ok(await staff.post(`/api/v1/courses/${made.id}/publish`));
      return { ...made, text, embed, video, quiz, held };
    }

    test('signed out, the player sends people to sign in; a student not enrolled is sent to the course page', async () => {
      const c = await course();
      const anonymous = new WebClient(server.url);
      for (const path of ['/learn', `/learn/${c.slug}`, `/learn/${c.slug}/${c.text}`]) {
        const response = await anonymous.get(path);
        assert.equal(response.status, 303, path);
        assert.equal(response.location, `/signin?return_to=${encodeURIComponent(path)}`);
      }
      // A form posted once the session ended comes back to the page the form is on (its own address has no page).
      for (const [posted, page] of [
        [`/courses/${c.slug}/enroll`, `/courses/${c.slug}`],
        [`/learn/${c.slug}/${c.text}/complete`, `/learn/${c.slug}/${c.text}`],
      ]) {
        const response = await anonymous.postForm(posted, {});
        assert.equal(response.location, `/signin?return_to=${encodeURIComponent(page)}`, posted);
      }
      const outsider = await signedIn(server, await createUser(server, 'student', 'Out Sider'));
      const sent = await outsider.get(`/learn/${c.slug}/${c.text}`);
      assert.equal(sent.status, 303);
      assert.equal(sent.location, `/courses/${c.slug}`);
      assert.equal((await outsider.get(`/embeds/${c.embed}`)).status, 404, 'embed code is for enrolled students');
    });

    test('a student enrolls from the course page, takes every lesson, passes the quiz and gets the certificate', async () => {
      const c = await course();
      const person = await createUser(server, 'student', 'Lea Learner');
      const web = await signedIn(server, person);
      const page = await web.get(`/courses/${c.slug}`);
      assert.match(page.text, /Enroll for free/);
      assert.equal(
        (await web.postForm(`/courses/${c.slug}/enroll`, { _csrf: 'forged' })).status,
        403,
        'the enroll form needs its CSRF token',
      );
      const enrolled = await web.postForm(`/courses/${c.slug}/enroll`, { _csrf: csrfOf(page.text) });
      assert.equal(enrolled.status, 303, enrolled.text.slice(0, 300));
      assert.equal(enrolled.location, `/learn/${c.slug}`);
      assert.match((await web.get(`/courses/${c.slug}`)).text, /Continue learning/);

      const start = await web.get(`/learn/${c.slug}`);
      assert.equal(start.location, `/learn/${c.slug}/${c.text}`, 'the first lesson not yet done');
      const first = await web.get(start.location ?? '');
      assert.equal(first.status, 200);
      assert.match(first.text, /<h1>Brushes<\/h1>/);
      assert.match(first.text, /Round brushes hold water\./);
      assert.match(first.text, /value="0">0%/);
      assert.match(first.text, /aria-current="page">Brushes/);
      assert.match(first.text, /Glazing<\/a> <span class="state locked">Opens /, 'the dripped lesson shows its date');
      assert.match(first.text, /rel="next" href="\/learn\/[^"]+\/les_\w+">Next: Colour mixer/);

      const done = await web.postForm(`/learn/${c.slug}/${c.text}/complete`, { _csrf: csrfOf(first.text) });
      assert.equal(done.status, 303);
      assert.equal(done.location, `/learn/${c.slug}/${c.embed}?completed=${c.text}`, 'on to the next lesson');
      const embed = await web.get(done.location ?? '');
      assert.match(
        embed.text,
        /<iframe class="embed" title="Colour mixer" sandbox="allow-scripts[^"]*"[^>]* src="\/embeds\//,
      );
      assert.match(embed.text, /Completed|Mark as complete/);
      const frame = await web.get(`/embeds/${c.embed}`);
      assert.equal(frame.status, 200);
      assert.match(frame.headers.get('content-security-policy') ?? '', /^sandbox allow-scripts/);
      assert.match(frame.text, /<script>document\.body\.dataset\.ran/);
      await web.postForm(`/learn/${c.slug}/${c.embed}/complete`, { _csrf: csrfOf(embed.text) });

      const video = await web.get(`/learn/${c.slug}/${c.video}`);
      assert.match(
        video.text,
        /<video controls preload="metadata" playsinline src="https:\/\/video\.example\/washes\.mp4">/,
      );
      await web.postForm(`/learn/${c.slug}/${c.video}/complete`, { _csrf: csrfOf(video.text) });

      const quiz = await web.get(`/learn/${c.slug}/${c.quiz}`);
      assert.match(quiz.text, /Pass the quiz to complete this lesson/);
      assert.doesNotMatch(quiz.text, /Mark as complete/);
      assert.match(quiz.text, /type="checkbox" id="q1-0" name="q1" value="0"/, 'several right answers: checkboxes');
      assert.match(quiz.text, /type="radio" id="q0-0" name="q0" value="0"/);
      const asked = await web.postForm(`/learn/${c.slug}/${c.quiz}/complete`, { _csrf: csrfOf(quiz.text) });
      assert.equal(asked.status, 409, 'a quiz is completed by passing it');
      assert.match(asked.text, /passing its quiz/);

      const wrong = await web.request('POST', `/learn/${c.slug}/${c.quiz}/quiz`, {
        body: `_csrf=${encodeURIComponent(csrfOf(quiz.text))}&q0=0&q1=0`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      assert.equal(wrong.status, 200);
      assert.match(wrong.text, /Not passed yet<\/strong>: 50% right \(100% needed\)/);
      assert.match(wrong.text, /id="q1-0" name="q1" value="0" checked/, 'the answers given stay picked');
      const right = await web.request('POST', `/learn/${c.slug}/${c.quiz}/quiz`, {
        body: `_csrf=${encodeURIComponent(csrfOf(wrong.text))}&q0=0&q1=0&q1=2`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      assert.match(right.text, /Passed<\/strong>: 100% right/);
      assert.match(right.text, /value="80">80%/, '4 of 5 lessons: the dripped one is still to come');

      const mine = await web.get('/learn');
      assert.match(mine.text, new RegExp(`href="/learn/${c.slug}">Painting`));
      assert.match(mine.text, /80% · In progress/);

      // Staff open the held lesson's date to everyone by moving it; completing it completes the course.
      const sections = ok<{ data: { id: string; title: string }[] }>(
        await staff.get(`/api/v1/courses/${c.id}/sections`),
      );
      const later = sections.data.find((s) => s.title === 'Later');
      ok(await staff.patch(`/api/v1/sections/${later?.id}`, { drip: { type: 'none' } }));
      const held = await web.get(`/learn/${c.slug}/${c.held}`);
      assert.match(held.text, /Layers\./);
      const last = await web.postForm(`/learn/${c.slug}/${c.held}/complete`, { _csrf: csrfOf(held.text) });
      const finished = await web.get(last.location ?? '');
      assert.match(finished.text, /You have completed Painting/);
      const certificate = /href="(http:\/\/[^"]+\/certificates\/[A-Za-z0-9_-]{24})">See your certificate/.exec(
        finished.text,
      )?.[1];
      assert.ok(certificate, 'the completed course links its certificate');
      assert.match((await fetch(certificate)).status.toString(), /200/);
      assert.match((await web.get('/learn')).text, /100% · Completed · <a href="http[^"]+">Certificate/);
      assert.match((await web.get(`/courses/${c.slug}`)).text, /Review the course/);
    });

    test('Mark as complete goes forward, never back to a skipped lesson, wraps only at the end, and says what is left', async () => {
      const c = await course();
      const sections = ok<{ data: { id: string; title: string }[] }>(
        await staff.get(`/api/v1/courses/${c.id}/sections`),
      );
      const later = sections.data.find((s) => s.title === 'Later');
      ok(await staff.patch(`/api/v1/sections/${later?.id}`, { drip: { type: 'none' } }));
      const person = await createUser(server, 'student', 'Skip Ahead');
      const web = await signedIn(server, person);
      const page = await web.get(`/courses/${c.slug}`);
      assert.equal((await web.postForm(`/courses/${c.slug}/enroll`, { _csrf: csrfOf(page.text) })).status, 303);
      const complete = async (lesson: string) => {
        const open = await web.get(`/learn/${c.slug}/${lesson}`);
        const done = await web.postForm(`/learn/${c.slug}/${lesson}/complete`, { _csrf: csrfOf(open.text) });
        assert.equal(done.status, 303);
        return done.location ?? '';
      };
      // The last lesson first: nothing after it is left, so it wraps to the first lesson not done.
      const wrapped = await complete(c.held);
      assert.equal(wrapped, `/learn/${c.slug}/${c.text}?completed=${c.held}`);
      const next = await web.get(wrapped);
      assert.match(next.text, /<div class="notice" role="status"><p>“Glazing” is done: 4 lessons left\.<\/p><\/div>/);
      assert.match(next.text, /1 of 5 lessons · 4 lessons left/);
      // Skipping ahead to the video, then back to the first lesson: each goes on to what follows it, not back.
      assert.equal(await complete(c.video), `/learn/${c.slug}/${c.quiz}?completed=${c.video}`);
      assert.equal(await complete(c.text), `/learn/${c.slug}/${c.embed}?completed=${c.text}`);
      const pastDone = await complete(c.embed);
      assert.equal(pastDone, `/learn/${c.slug}/${c.quiz}?completed=${c.embed}`, 'over the video already done');
      assert.match((await web.get(pastDone)).text, /“Colour mixer” is done: 1 lesson left\./);
      // A completed= naming a lesson not done says nothing.
      assert.doesNotMatch((await web.get(`/learn/${c.slug}/${c.quiz}?completed=${c.quiz}`)).text, /is done/);
    });

    test('staff open every player without enrolling; nothing is recorded for them', async () => {
      const c = await course();
      const web = await signedIn(server, staffPerson);
      assert.match((await web.get(`/courses/${c.slug}`)).text, /Open the course/);
      const page = await web.get(`/learn/${c.slug}/${c.held}`);
      assert.equal(page.status, 200);
      assert.match(page.text, /You are staff: nothing is recorded/);
      assert.match(page.text, /Layers\./, 'drip does not hold staff back');
      assert.doesNotMatch(page.text, /Mark as complete/);
      assert.match((await web.get('/learn')).text, /Staff see every course without enrolling/);
    });

    test('enrolling is refused with the rule’s words for a paid or closed course', async () => {
      const paid = await course();
      ok(await staff.patch(`/api/v1/courses/${paid.id}`, { price: { amount: 4900, currency: 'EUR' } }));
      const web = await signedIn(server, await createUser(server, 'student', 'Pay Later'));
      const page = await web.get(`/courses/${paid.slug}`);
      assert.match(page.text, /This school does not take payments yet/);
      // The page has no form; a token of the session from any other form is what a crafted request would carry.
      const token = csrfOf((await web.get(`/courses/${(await course()).slug}`)).text);
      const refused = await web.postForm(`/courses/${paid.slug}/enroll`, { _csrf: token });
      assert.equal(refused.status, 409);
      assert.match(refused.text, /is a paid course/);
    });
  });
}
