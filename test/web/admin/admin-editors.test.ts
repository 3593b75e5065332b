import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiClient, tokenFor } from '../../support/api.ts';
import { engines } from '../../support/databases.ts';
import { png } from '../../support/files.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { completeSetup, csrfOf, OWNER, type WebClient } from '../../support/web-client.ts';

const SCOPES =
  'courses:read courses:write curriculum:read curriculum:write appearance:read appearance:write lecturers:read ' +
  'lecturers:write posts:read posts:write pages:write storage:write digital_products:read digital_products:write';

/** The text of a field's error, found right after the element with that id (the error sits beside its box). */
const errorNear = (page: string, id: string) => {
  const at = page.indexOf(`id="${id}`);
  assert.ok(at >= 0, `no element ${id}`);
  return /class="field-error">([^<]*)</.exec(page.slice(at, at + 1200))?.[1];
};

for (const engine of engines) {
  describe(`the admin's dedicated editors (${engine})`, () => {
    let server: TestServer;
    let owner: WebClient;
    let api: ReturnType<typeof apiClient>;

    before(async () => {
      server = await startTestServer(engine);
      owner = await completeSetup(server.url, server.setupUrl ?? '');
      api = apiClient(server.url, await tokenFor(server, OWNER, SCOPES));
    });
    after(() => server.close());

    /** Posts fields to a form's action with the CSRF token of the page it is on. */
    const post = async (pagePath: string, action: string, fields: Record<string, string | string[]>) => {
      const body = new URLSearchParams({ _csrf: csrfOf((await owner.get(pagePath)).text) });
      for (const [name, value] of Object.entries(fields)) for (const v of [value].flat()) body.append(name, v);
      return owner.request('POST', action, {
        body: body.toString(),
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    };
    const cookies = () => [...owner.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    /** A multipart post, as a browser without a script sends a file form. */
    const postFile = async (
      pagePath: string,
      action: string,
      file: Blob,
      name: string,
      fields: Record<string, string> = {},
    ) => {
      const form = new FormData();
      form.set('_csrf', csrfOf((await owner.get(pagePath)).text));
      form.set('file', file, name);
      for (const [key, value] of Object.entries(fields)) form.set(key, value);
      const response = await fetch(`${server.url}${action}`, {
        method: 'POST',
        body: form,
        redirect: 'manual',
        headers: { cookie: cookies() },
      });
      return { status: response.status, text: await response.text(), location: response.headers.get('location') };
    };
    const quizLesson = async () => {
      const course = (await api.post<{ id: string }>('/api/v1/courses', { title: 'Glazes' })).body.id;
      const section = (await api.post<{ id: string }>(`/api/v1/courses/${course}/sections`, { title: 'Basics' })).body
        .id;
      return (await api.post<{ id: string }>(`/api/v1/sections/${section}/lessons`, { title: 'Check', type: 'quiz' }))
        .body.id;
    };

    test('the quiz builder adds, moves and saves questions; the API keeps them; a refusal stays beside its question', async () => {
      const lesson = await quizLesson();
      const screen = `/admin/lessons/${lesson}/quiz`;
      const lessonPage = await owner.get(`/admin/lessons/${lesson}`);
      assert.match(lessonPage.text, new RegExp(`href="${screen}"`), 'the lesson links its questions');
      assert.doesNotMatch((await owner.get(`/admin/lessons/${lesson}/edit`)).text, /name="quiz"/, 'no JSON box');
      const added = await post(screen, screen, {
        count: '1',
        'q0.count': '2',
        'q0.prompt': 'Cone 6 is…',
        do: 'add-question',
      });
      assert.equal(added.status, 200);
      assert.match(added.text, /Question 2/);
      assert.match(added.text, /Cone 6 is…/, 'what was typed stays');
      assert.match(added.text, /Changes not saved yet/);
      const two = {
        pass_percent: '50',
        max_attempts: '',
        count: '2',
        'q0.prompt': 'Which cone is mid-fire?',
        'q0.count': '3',
        'q0.c0': 'Cone 04',
        'q0.c1': 'Cone 6',
        'q0.c2': 'Cone 10',
        'q0.right': '1',
        'q0.explanation': 'Cone 6 is about 1222 °C.',
        'q1.prompt': 'Which are glaze materials?',
        'q1.count': '3',
        'q1.c0': 'Silica',
        'q1.c1': '',
        'q1.c2': 'Whiting',
        'q1.right': ['0', '2'],
        'q1.explanation': '',
      };
      const moved = await post(screen, screen, { ...two, do: 'down:0' });
      assert.ok(moved.text.indexOf('Which are glaze') < moved.text.indexOf('Which cone'), 'moved down, not saved');
      const saved = await post(screen, screen, { ...two, do: 'save' });
      assert.equal(saved.status, 303, saved.text.slice(0, 400));
      const stored = (await api.get<{ quiz: Record<string, unknown> }>(`/api/v1/lessons/${lesson}`)).body.quiz;
      assert.deepEqual(stored, {
        pass_percent: 50,
        max_attempts: null,
        questions: [
          {
            prompt: 'Which cone is mid-fire?',
            choices: ['Cone 04', 'Cone 6', 'Cone 10'],
            multiple: false,
            answers: [1],
            explanation: 'Cone 6 is about 1222 °C.',
          },
          { prompt: 'Which are glaze materials?', choices: ['Silica', 'Whiting'], multiple: true, answers: [0, 1] },
        ],
      });
      const shown = await owner.get(screen);
      assert.match(shown.text, /value="Whiting"/);
      const refused = await post(screen, screen, { ...two, 'q1.right': [], do: 'save' });
      assert.equal(refused.status, 400);
      assert.equal(errorNear(refused.text, 'q1-choices'), 'Tick the right choice (one or more).');
      assert.match(refused.text, /Which are glaze materials\?/, 'the typed question comes back');
      assert.doesNotMatch(refused.text, /quiz\.questions|answers/, 'no field paths for people');
      const text = (
        await api.post<{ id: string }>(
          `/api/v1/sections/${(await api.get<{ section_id: string }>(`/api/v1/lessons/${lesson}`)).body.section_id}/lessons`,
          { title: 'Read' },
        )
      ).body.id;
      assert.doesNotMatch(
        (await owner.get(`/admin/lessons/${text}`)).text,
        /\/quiz"/,
        'a text lesson offers no questions',
      );
    });

    test('when sections open: days after enrolling and a day on the school clock, saved per section', async () => {
      const course = (await api.post<{ id: string }>('/api/v1/courses', { title: 'Kilns' })).body.id;
      const one = (await api.post<{ id: string }>(`/api/v1/courses/${course}/sections`, { title: 'Loading' })).body.id;
      const two = (await api.post<{ id: string }>(`/api/v1/courses/${course}/sections`, { title: 'Firing' })).body.id;
      const screen = `/admin/courses/${course}/drip`;
      assert.match((await owner.get(`/admin/courses/${course}`)).text, new RegExp(`href="${screen}"`));
      assert.match((await owner.get(screen)).text, /Europe\/Berlin/);
      const saved = await post(screen, screen, {
        sections: [one, two],
        [`${one}.type`]: 'days_after_enrollment',
        [`${one}.days`]: '7',
        [`${two}.type`]: 'on_date',
        [`${two}.date`]: '2030-03-31',
        [`${two}.time`]: '09:00',
      });
      assert.equal(saved.status, 303, saved.text.slice(0, 400));
      const drip = async (id: string) => (await api.get<{ drip: unknown }>(`/api/v1/sections/${id}`)).body.drip;
      assert.deepEqual(await drip(one), { type: 'days_after_enrollment', days: 7, date: null });
      assert.deepEqual(await drip(two), { type: 'on_date', days: null, date: '2030-03-31T07:00:00.000Z' });
      const again = await owner.get(screen);
      assert.match(again.text, /value="2030-03-31"/);
      assert.match(again.text, /value="09:00"/, 'shown on the school clock');
      const refused = await post(screen, screen, {
        sections: [one, two],
        [`${one}.type`]: 'days_after_enrollment',
        [`${one}.days`]: '0',
        [`${two}.type`]: 'none',
      });
      assert.equal(refused.status, 400);
      assert.equal(errorNear(refused.text, `${one}-days`), 'Give a whole number of days, from 1 to 3650.');
      assert.match(refused.text, new RegExp(`name="${one}.days"[^>]*value="0"`), 'what was typed stays');
      assert.deepEqual(await drip(two), { type: 'none', days: null, date: null }, 'the other section saved');
      const sectionEdit = await owner.get(`/admin/sections/${one}/edit`);
      assert.doesNotMatch(sectionEdit.text, /name="drip\./, 'the section form leaves drip to its screen');
      assert.equal((await owner.get(`/admin/sections/${one}/drip`)).status, 200);
    });

    test('fonts are chosen by name with a sample; a font outside the list is refused beside its choice', async () => {
      const appearance = await owner.get('/admin/appearance');
      assert.match(appearance.text, /href="\/admin\/appearance\/fonts"/);
      assert.doesNotMatch(appearance.text, /name="fonts\./);
      const screen = await owner.get('/admin/appearance/fonts');
      // Each sample is drawn in its font by a class of the editors' stylesheet: the CSP drops inline styles.
      assert.match(screen.text, /<span class="font-sample font-times-new-roman">/);
      assert.doesNotMatch(screen.text, /style=/);
      const gallery = /<link rel="stylesheet" href="(\/assets\/theme-gallery\.css\?v=[^"]+)">/.exec(screen.text)?.[1];
      const css = await owner.get(gallery ?? '/no-gallery');
      assert.match(css.text, /\.font-times-new-roman \{ font-family: "Times New Roman", Times, "Liberation Serif"/);
      assert.match(css.text, /@font-face \{ font-family: "Fraunces";/, 'the served fonts, to show them');
      const saved = await post('/admin/appearance/fonts', '/admin/appearance/fonts', {
        heading: 'Georgia',
        body: 'serif',
      });
      assert.equal(saved.status, 303);
      assert.deepEqual((await api.get<{ fonts: unknown }>('/api/v1/appearance')).body.fonts, {
        heading: 'Georgia',
        body: 'serif',
      });
      const refused = await post('/admin/appearance/fonts', '/admin/appearance/fonts', {
        heading: 'Comic Sans',
        body: 'serif',
      });
      assert.equal(refused.status, 400);
      assert.equal(errorNear(refused.text, 'font-heading'), 'Choose one of the fonts in the list.');
    });

    test('the menu and footer: rows with a destination picked by name, moved, saved whole; a bad row is refused beside it', async () => {
      await api.post('/api/v1/pages', { title: 'About us', slug: 'about', draft_body: 'Hello' });
      const screen = '/admin/appearance/menu';
      assert.match((await owner.get('/admin/appearance')).text, /href="\/admin\/appearance\/menu"/);
      const page = await owner.get(screen);
      assert.match(page.text, /<option value="\/p\/about">About us \(not published yet\)<\/option>/);
      assert.match(page.text, /Links at the foot of every page/);
      const rows = {
        list: 'navigation',
        count: '3',
        '0.label': 'Classes',
        '0.goes': '/courses',
        '0.url': '',
        '1.label': '',
        '1.goes': '/p/about',
        '1.url': '',
        '2.label': 'Shop',
        '2.goes': 'other',
        '2.url': 'https://shop.example/',
      };
      const moved = await post(screen, screen, { ...rows, do: 'down:0' });
      assert.equal(moved.status, 200);
      assert.ok(moved.text.indexOf('selected>About us') < moved.text.indexOf('value="Classes"'), 'moved, not saved');
      const saved = await post(screen, screen, { ...rows, do: 'save' });
      assert.equal(saved.status, 303, saved.text.slice(0, 400));
      assert.deepEqual((await api.get<{ navigation: unknown }>('/api/v1/appearance')).body.navigation, [
        { label: 'Classes', url: '/courses' },
        { label: 'About us', url: '/p/about' },
        { label: 'Shop', url: 'https://shop.example/' },
      ]);
      const footer = await post(screen, screen, {
        list: 'footer',
        count: '1',
        '0.label': 'Imprint',
        '0.goes': 'other',
        '0.url': '/p/imprint',
        do: 'save',
      });
      assert.equal(footer.status, 303);
      assert.deepEqual((await api.get<{ footer: unknown }>('/api/v1/appearance')).body.footer, [
        { label: 'Imprint', url: '/p/imprint' },
      ]);
      const refused = await post(screen, screen, { ...rows, '1.label': 'x'.repeat(41), do: 'save' });
      assert.equal(refused.status, 400);
      assert.equal(errorNear(refused.text, 'navigation-1'), 'Give the link a name of at most 40 characters.');
      assert.doesNotMatch((await owner.get('/admin/appearance')).text, /name="navigation\./);
    });

    test("a video lesson's captions and poster are uploaded and removed on their screen, without a script", async () => {
      const course = (await api.post<{ id: string }>('/api/v1/courses', { title: 'Throwing' })).body.id;
      const section = (await api.post<{ id: string }>(`/api/v1/courses/${course}/sections`, { title: 'Wheel' })).body
        .id;
      const lesson = (
        await api.post<{ id: string }>(`/api/v1/sections/${section}/lessons`, {
          title: 'Centering',
          type: 'video',
          asset_url: 'https://video.example/centering.mp4',
        })
      ).body.id;
      const screen = `/admin/lessons/${lesson}/captions`;
      const vtt = new Blob(['WEBVTT\n\n00:00.000 --> 00:02.000\nPress down with both hands.\n'], { type: 'text/vtt' });
      type Read = { captions: { language: string; label: string; url: string }[]; poster_url: string | null };
      const read = async () => (await api.get<Read>(`/api/v1/lessons/${lesson}`)).body;

      const unnamed = await postFile(screen, `${screen}/file`, vtt, 'centering.vtt', { language: 'en', label: '' });
      assert.equal(unnamed.status, 400);
      assert.match(unnamed.text, /Give the name the player shows for them/);
      assert.deepEqual((await read()).captions, [], 'nothing kept from a refused form');
      const sent = await postFile(screen, `${screen}/file`, vtt, 'centering.vtt', { language: 'de', label: 'Deutsch' });
      assert.equal(sent.status, 303, sent.text.slice(0, 400));
      const [caption] = (await read()).captions;
      assert.deepEqual([caption?.language, caption?.label], ['de', 'Deutsch']);
      assert.match(await (await fetch(caption?.url ?? '')).text(), /Press down with both hands/);
      const poster = await postFile(screen, `${screen}/poster`, new Blob([png(3)], { type: 'image/png' }), 'wheel.png');
      assert.equal(poster.status, 303, poster.text.slice(0, 400));
      assert.match((await read()).poster_url ?? '', /^http/);
      const page = (await owner.get(screen)).text;
      assert.match(page, /Deutsch/);
      const shown = page.replace(/<[^>]*>/g, ' ');
      assert.doesNotMatch(shown, /\b(ast|les)_|\/api\//, 'no ids or API paths in what the screen says');

      assert.equal((await post(screen, screen, { do: 'remove-0' })).status, 303);
      assert.equal((await post(screen, screen, { do: 'remove-poster' })).status, 303);
      assert.deepEqual(await read(), { ...(await read()), captions: [], poster_url: null });
    });

    test('a course cover uploads without a script; a lecturer photo through the script’s signed address; a post cover and a product picture too', async () => {
      const course = (await api.post<{ id: string }>('/api/v1/courses', { title: 'Raku' })).body.id;
      const screen = `/admin/courses/${course}/cover`;
      assert.match((await owner.get(`/admin/courses/${course}`)).text, new RegExp(`href="${screen}"`));
      assert.doesNotMatch((await owner.get(`/admin/courses/${course}/edit`)).text, /name="cover_asset_id"/);
      const refused = await postFile(
        screen,
        `${screen}/file`,
        new Blob(['hello'], { type: 'text/plain' }),
        'notes.txt',
      );
      assert.equal(refused.status, 400);
      assert.match(errorNear(refused.text, 'image-file') ?? '', /not a picture/);
      const sent = await postFile(screen, `${screen}/file`, new Blob([png(4)], { type: 'image/png' }), 'raku.png');
      assert.equal(sent.status, 303, sent.text.slice(0, 400));
      const cover = (await api.get<{ cover_asset_id: string; cover_url: string }>(`/api/v1/courses/${course}`)).body;
      assert.match(cover.cover_asset_id, /^ast_/);
      assert.equal((await fetch(cover.cover_url)).status, 200);
      assert.match(
        (await owner.get(screen)).text,
        new RegExp(`<img src="${cover.cover_url.replace(/[.?]/g, '\\$&')}"`),
      );

      const lecturer = (await api.post<{ id: string }>('/api/v1/lecturers', { name: 'Mia Potter' })).body.id;
      const photo = `/admin/lecturers/${lecturer}/photo`;
      const start = await post(photo, photo, {
        do: 'start',
        filename: 'mia.png',
        content_type: 'image/png',
        byte_size: String(png(2).length),
      });
      assert.equal(start.status, 200, start.text);
      const { upload_url } = JSON.parse(start.text) as { upload_url: string };
      const put = await fetch(`${server.url}${upload_url}`, {
        method: 'PUT',
        body: png(2),
        headers: { 'content-type': 'image/png', cookie: cookies() },
      });
      assert.equal(put.status, 200, await put.text());
      assert.match(
        (await api.get<{ avatar_asset_id: string }>(`/api/v1/lecturers/${lecturer}`)).body.avatar_asset_id,
        /^ast_/,
      );

      const postId = (await api.post<{ id: string }>('/api/v1/posts', { title: 'Firing day' })).body.id;
      const postCover = `/admin/posts/${postId}/cover`;
      const badAddress = await post(postCover, postCover, { do: 'address', address: 'not an address' });
      assert.equal(badAddress.status, 400);
      assert.equal(
        errorNear(badAddress.text, 'image-address'),
        'Give the full address of a picture, starting with https://.',
      );
      assert.match(badAddress.text, /value="not an address"/);
      const uploaded = await postFile(
        postCover,
        `${postCover}/file`,
        new Blob([png(3)], { type: 'image/png' }),
        'day.png',
      );
      assert.equal(uploaded.status, 303, uploaded.text.slice(0, 400));
      const url = (await api.get<{ cover_url: string }>(`/api/v1/posts/${postId}`)).body.cover_url;
      assert.equal((await fetch(url)).status, 200);

      // A digital product's picture: uploaded on its screen, shown on its page and its card, and taken away again.
      const product = (
        await api.post<{ id: string; slug: string }>('/api/v1/digital-products', { title: 'Glaze cards' })
      ).body;
      const picture = `/admin/products/${product.id}/picture`;
      assert.match((await owner.get(`/admin/products/${product.id}`)).text, new RegExp(`href="${picture}">Picture<`));
      assert.doesNotMatch((await owner.get(`/admin/products/${product.id}/edit`)).text, /name="image_url"/);
      const shot = await postFile(picture, `${picture}/file`, new Blob([png(5)], { type: 'image/png' }), 'cards.png');
      assert.equal(shot.status, 303, shot.text.slice(0, 400));
      const image = (await api.get<{ image_url: string | null }>(`/api/v1/digital-products/${product.id}`)).body
        .image_url;
      assert.equal((await fetch(image ?? '')).status, 200);
      const shown = await owner.get(`/products/${product.slug}`);
      // The picture itself, or its variants once they are made.
      const asset = (image ?? '').split('/').pop();
      assert.match(shown.text, new RegExp(`<span class="pic hero">[^]*?/media/${asset}[/"]`));
      assert.match(
        shown.text,
        new RegExp(`<meta property="og:image" content="${(image ?? '').replace(/[.?]/g, '\\$&')}"`),
      );
      const removed = await post(picture, picture, { do: 'remove' });
      assert.equal(removed.status, 303);
      assert.equal(
        (await api.get<{ image_url: string | null }>(`/api/v1/digital-products/${product.id}`)).body.image_url,
        null,
      );
      const badPicture = await api.patch(`/api/v1/digital-products/${product.id}`, { image_url: 'ftp://x.test/a.png' });
      assert.equal(badPicture.status, 400, 'a picture address is a web address');
    });
  });
}
