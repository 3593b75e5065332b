import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Clock } from '../../../src/time/clock.ts';
import { apiClient, createUser, type Person, schoolWithPeople, tokenFor } from '../../support/api.ts';
import { engines } from '../../support/databases.ts';
import { mp4, png } from '../../support/files.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { uploadAsset } from '../../support/storage.ts';
import { csrfOf, signedInClient, type WebClient } from '../../support/web-client.ts';

type Client = ReturnType<typeof apiClient>;

const ok = <T>(response: { status: number; body: unknown }, status = 200) => {
  assert.equal(response.status, status, JSON.stringify(response.body));
  return response.body as T;
};

const VTT = 'WEBVTT\n\n00:00.000 --> 00:02.000\nHello\n';

/**
 * The lesson player's page side: captions and a poster on a video lesson, where an enrolled student stopped (saved
 * with the page's CSRF token, throttled, range-checked, for their own open lessons only) and the page that resumes
 * there; a lesson played to 90 % is completed.
 */
for (const engine of engines) {
  describe(`the lesson player: captions and resume (${engine})`, () => {
    let server: TestServer;
    let staff: Client;
    let staffToken: string;
    let now = Date.parse('2030-03-01T10:00:00Z');
    const clock: Clock = { now: () => new Date(now) };

    before(async () => {
      server = await startTestServer(engine, {}, { clock });
      const people = await schoolWithPeople(server);
      staffToken = await tokenFor(
        server,
        people.staff,
        'courses:write courses:read curriculum:write curriculum:read storage:write',
      );
      staff = apiClient(server.url, staffToken);
    });
    after(() => server.close());

    const upload = (purpose: string, filename: string, type: string, bytes: Buffer) =>
      uploadAsset(server, staffToken, { purpose, filename, content_type: type }, bytes);

    /** A free course with a video lesson (captions in two languages and a poster) and a text lesson. */
    async function course() {
      const made = ok<{ id: string; slug: string }>(
        await staff.post('/api/v1/courses', { title: `Film ${Math.random().toString(36).slice(2, 7)}` }),
        201,
      );
      const section = ok<{ id: string }>(
        await staff.post(`/api/v1/courses/${made.id}/sections`, { title: 'One' }),
        201,
      );
      ok(await staff.post(`/api/v1/sections/${section.id}/publish`));
      const video = await upload('video', 'washes.mp4', 'video/mp4', mp4(40_000));
      const english = await upload('captions', 'washes.en.vtt', 'text/vtt', Buffer.from(VTT));
      const german = await upload('captions', 'washes.de.vtt', 'text/vtt', Buffer.from(`\uFEFF${VTT}`));
      const poster = await upload('image', 'poster.png', 'image/png', png(16));
      const lesson = ok<{
        id: string;
        captions: { language: string; label: string; url: string }[];
        poster_url: string;
      }>(
        await staff.post(`/api/v1/sections/${section.id}/lessons`, {
          title: 'Washes',
          type: 'video',
          asset_id: video.id,
          poster_asset_id: poster.id,
          captions: [
            { asset_id: english.id, language: 'en', label: 'English' },
            { asset_id: german.id, language: 'de', label: 'Deutsch' },
          ],
        }),
        201,
      );
      ok(await staff.post(`/api/v1/lessons/${lesson.id}/publish`));
      const text = ok<{ id: string }>(
        await staff.post(`/api/v1/sections/${section.id}/lessons`, { title: 'Notes', body: 'Read me.' }),
        201,
      );
      ok(await staff.post(`/api/v1/lessons/${text.id}/publish`));
      ok(await staff.post(`/api/v1/courses/${made.id}/publish`));
      return { ...made, video: lesson.id, text: text.id, lesson };
    }

    async function enrolled(c: { slug: string }, name: string): Promise<{ web: WebClient; person: Person }> {
      const person = await createUser(server, 'student', name);
      const web = await signedInClient(server.url, person);
      const page = await web.get(`/courses/${c.slug}`);
      const done = await web.postForm(`/courses/${c.slug}/enroll`, { _csrf: csrfOf(page.text) });
      assert.equal(done.status, 303, done.text.slice(0, 300));
      return { web, person };
    }

    const save = (web: WebClient, path: string, csrf: string, position: string, duration = '120.5') =>
      web.postForm(path, { _csrf: csrf, position_s: position, duration_s: duration });

    test('a video lesson carries its captions and poster; the player page shows them as tracks', async () => {
      const c = await course();
      assert.deepEqual(
        c.lesson.captions.map((t) => `${t.language}:${t.label}`),
        ['en:English', 'de:Deutsch'],
      );
      const track = await fetch(c.lesson.captions[0]?.url ?? '');
      assert.equal(track.status, 200);
      assert.equal(track.headers.get('content-type'), 'text/vtt');
      assert.equal(await track.text(), VTT);
      const { web } = await enrolled(c, 'Vera Viewer');
      const page = await web.get(`/learn/${c.slug}/${c.video}`);
      assert.equal(page.status, 200);
      assert.match(page.text, /<video controls preload="metadata" playsinline src="[^"]+\/media\/ast_\w+\?expires=/);
      assert.match(page.text, / poster="[^"]+\/media\/ast_\w+"/);
      assert.match(page.text, /<track kind="captions" srclang="en" label="English" src="[^"]+" default>/);
      assert.match(page.text, /<track kind="captions" srclang="de" label="Deutsch" src="[^"]+">/);
      assert.match(page.text, /data-save="\/learn\/[^"]+\/position"/);
      assert.match(page.text, /data-resume="0"/);
      assert.match(page.text, /<script type="module" src="\/assets\/player\.js\?v=/);
      const script = await web.get(page.text.match(/src="(\/assets\/player\.js\?v=[^"]+)"/)?.[1] ?? '');
      assert.equal(script.status, 200);
      assert.match(script.headers.get('content-type') ?? '', /javascript/);
    });

    test('an enrolled student’s place is saved, throttled, and offered again on the next visit', async () => {
      const c = await course();
      const { web } = await enrolled(c, 'Rita Resume');
      const path = `/learn/${c.slug}/${c.video}/position`;
      const page = await web.get(`/learn/${c.slug}/${c.video}`);
      const csrf = csrfOf(page.text);

      const first = await save(web, path, csrf, '42.7');
      assert.equal(first.status, 204, first.text);
      const again = await save(web, path, csrf, '43.5');
      assert.equal(again.status, 429, 'a second save within two seconds is refused');
      assert.equal(JSON.parse(again.text).error, 'rate_limited');
      assert.equal(again.headers.get('retry-after'), '2');
      now += 2_500;
      assert.equal((await save(web, path, csrf, '192.9', '300')).status, 204);

      const back = await web.get(`/learn/${c.slug}/${c.video}`);
      assert.match(back.text, /data-resume="192"/, 'whole seconds, rounded down');
      assert.match(back.text, /data-completed="false"/);
    });

    test('the position is refused without the CSRF token, out of range, or for a lesson the student may not play', async () => {
      const c = await course();
      const { web } = await enrolled(c, 'Otto Outofrange');
      const page = await web.get(`/learn/${c.slug}/${c.video}`);
      const csrf = csrfOf(page.text);
      const path = `/learn/${c.slug}/${c.video}/position`;

      const forged = await save(web, path, 'forged', '10');
      assert.equal(forged.status, 403);
      assert.equal(JSON.parse(forged.text).error, 'invalid_csrf_token');
      assert.match(forged.headers.get('content-type') ?? '', /application\/json/);

      for (const [position, duration, field] of [
        ['-1', '100', 'position_s'],
        ['101', '100', 'position_s'],
        ['abc', '100', 'position_s'],
        ['10', '0', 'duration_s'],
        ['10', '', 'duration_s'],
        ['10', '90000', 'duration_s'],
      ] as const) {
        now += 3_000;
        const refused = await save(web, path, csrf, position, duration);
        assert.equal(refused.status, 400, `${position} of ${duration}`);
        const body = JSON.parse(refused.text);
        assert.equal(body.error, 'invalid_request');
        assert.deepEqual(
          body.errors.map((e: { field: string; code: string }) => `${e.field}:${e.code}`),
          [`${field}:out_of_range`],
        );
      }

      now += 3_000;
      // Not a played lesson, another course's lesson, an unknown one: 404, as for anything else they may not see.
      const other = await course();
      for (const lesson of [
        `${c.slug}/${c.text}`,
        `${other.slug}/${other.video}`,
        `${c.slug}/les_00000000000000000000000000`,
      ]) {
        const refused = await save(web, `/learn/${lesson}/position`, csrf, '10');
        assert.equal(refused.status, 404, lesson);
        assert.equal(JSON.parse(refused.text).error, 'not_found');
      }
      // Signed out: the same 404 (the token of a session that is gone proves nothing).
      const signedOut = await web.postForm('/signout', { _csrf: csrf });
      assert.ok([200, 303].includes(signedOut.status));
      assert.equal((await save(web, path, csrf, '10')).status, 404);
    });

    test('played to 90 %, the lesson is completed', async () => {
      const c = await course();
      const { web } = await enrolled(c, 'Carla Complete');
      const page = await web.get(`/learn/${c.slug}/${c.video}`);
      now += 3_000;
      const played = await save(web, `/learn/${c.slug}/${c.video}/position`, csrfOf(page.text), '110', '120');
      assert.equal(played.status, 200, played.text);
      assert.deepEqual(JSON.parse(played.text), { completed: true, percent: 50 });
      const back = await web.get(`/learn/${c.slug}/${c.video}`);
      assert.match(back.text, /Completed on /);
      assert.match(back.text, /data-completed="true"/);
    });

    test('captions must be WebVTT, of purpose captions, on a video or audio lesson, each with its own label', async () => {
      const notVtt = await fetch(`${server.url}/api/v1/storage/assets`, {
        method: 'POST',
        headers: { authorization: `Bearer ${staffToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          purpose: 'captions',
          filename: 'x.srt',
          content_type: 'application/x-subrip',
          byte_size: 10,
        }),
      });
      assert.equal(notVtt.status, 400, 'the declared type must be text/vtt');
      const created = ok<{ id: string; upload_url: string }>(
        await staff.post('/api/v1/storage/assets', {
          purpose: 'captions',
          filename: 'fake.vtt',
          content_type: 'text/vtt',
          byte_size: 24,
        }),
        201,
      );
      const put = await fetch(created.upload_url, {
        method: 'PUT',
        headers: { authorization: `Bearer ${staffToken}`, 'content-type': 'text/vtt' },
        body: '1\n00:00:01,000 --> x\nHi\n',
      });
      assert.equal(put.status, 400, 'an SRT file is not WebVTT');
      assert.match(((await put.json()) as { error_description: string }).error_description, /not a file type allowed/);
      const tooLarge = await staff.post('/api/v1/storage/assets', {
        purpose: 'captions',
        filename: 'huge.vtt',
        content_type: 'text/vtt',
        byte_size: 1_000_001,
      });
      assert.equal(tooLarge.status, 413);

      const c = await course();
      const vtt = await upload('captions', 'more.vtt', 'text/vtt', Buffer.from(VTT));
      const image = await upload('image', 'p.png', 'image/png', png(4));
      const field = (response: { status: number; body: unknown }) => {
        assert.equal(response.status, 400, JSON.stringify(response.body));
        return (response.body as { errors: { field: string }[] }).errors[0]?.field;
      };
      assert.equal(
        field(
          await staff.patch(`/api/v1/lessons/${c.text}`, {
            captions: [{ asset_id: vtt.id, language: 'en', label: 'English' }],
          }),
        ),
        'captions',
        'a text lesson has no captions',
      );
      assert.equal(
        field(
          await staff.patch(`/api/v1/lessons/${c.video}`, {
            captions: [{ asset_id: image.id, language: 'en', label: 'English' }],
          }),
        ),
        'captions.0.asset_id',
        'an image is not a caption file',
      );
      assert.equal(
        field(
          await staff.patch(`/api/v1/lessons/${c.video}`, {
            captions: [
              { asset_id: vtt.id, language: 'en', label: 'English' },
              { asset_id: vtt.id, language: 'EN', label: ' English ' },
            ],
          }),
        ),
        'captions.1.label',
      );
      assert.equal(
        field(
          await staff.patch(`/api/v1/lessons/${c.video}`, {
            captions: [{ asset_id: vtt.id, language: 'english!', label: 'English' }],
          }),
        ),
        'captions.0.language',
      );
      assert.equal(
        field(await staff.patch(`/api/v1/lessons/${c.video}`, { poster_asset_id: vtt.id })),
        'poster_asset_id',
      );
      // Turned into a text lesson, it drops its captions and poster.
      ok(await staff.post(`/api/v1/lessons/${c.video}/unpublish`));
      const text = ok<{ captions: unknown[]; poster_url: string | null }>(
        await staff.patch(`/api/v1/lessons/${c.video}`, { type: 'text', body: 'Now text.', asset_id: null }),
      );
      assert.deepEqual([text.captions, text.poster_url], [[], null]);
    });
  });
}
