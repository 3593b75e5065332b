import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { apiClient, insufficientScopeChallenge, schoolWithPeople, tokenFor } from '../support/api.ts';
import { engines } from '../support/databases.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

type Appearance = {
  logo_url: string | null;
  colors: { primary: string; accent: string; background: string; text: string };
  fonts: { heading: string; body: string };
  navigation: { label: string; url: string }[];
  footer: { label: string; url: string }[];
  custom_css: string;
  theme: string;
  home: {
    headline: string;
    text: string;
    call_to_action: { label: string; url: string };
    sections: string[];
    featured_course_ids: string[];
  };
  updated_at: string | null;
};

const challenge = insufficientScopeChallenge;

for (const engine of engines) {
  describe(`appearance API (${engine})`, () => {
    let server: TestServer;
    let staff: ReturnType<typeof apiClient>;
    let staffReadOnly: ReturnType<typeof apiClient>;
    let coursesOnly: ReturnType<typeof apiClient>;
    let studentApi: ReturnType<typeof apiClient>;
    let anonymous: ReturnType<typeof apiClient>;

    let people: Awaited<ReturnType<typeof schoolWithPeople>>;

    before(async () => {
      server = await startTestServer(engine);
      people = await schoolWithPeople(server);
      staff = apiClient(server.url, await tokenFor(server, people.staff, 'appearance:read appearance:write'));
      staffReadOnly = apiClient(server.url, await tokenFor(server, people.staff, 'appearance:read'));
      coursesOnly = apiClient(server.url, await tokenFor(server, people.staff, 'courses:read'));
      studentApi = apiClient(server.url, await tokenFor(server, people.student, 'appearance:read appearance:write'));
      anonymous = apiClient(server.url);
    });
    after(() => server.close());

    const patch = async (body: Record<string, unknown>) => {
      const response = await staff.patch<Appearance>('/api/v1/appearance', body);
      assert.equal(response.status, 200, JSON.stringify(response.body));
      return response.body;
    };
    const refused = async (body: unknown, field: string, message?: RegExp) => {
      const response = await staff.patch('/api/v1/appearance', body);
      assert.equal(response.status, 400, JSON.stringify(body).slice(0, 200));
      assert.equal(response.body.error, 'invalid_request');
      assert.equal((response.body.errors as { field: string }[] | undefined)?.[0]?.field, field);
      if (message) assert.match(String(response.body.error_description), message);
    };

    test('before any change every principal gets the defaults, with updated_at null', async () => {
      const seen = [];
      for (const client of [anonymous, studentApi, staff]) {
        const response = await client.get<Appearance>('/api/v1/appearance');
        assert.equal(response.status, 200);
        seen.push(response.body);
      }
      const [defaults] = seen;
      assert.equal(defaults?.updated_at, null);
      assert.equal(defaults?.logo_url, null);
      assert.deepEqual(defaults?.navigation, []);
      assert.equal(defaults?.custom_css, '');
      assert.equal(defaults?.theme, 'classic');
      assert.deepEqual(
        defaults?.fonts,
        { heading: 'Source Serif 4', body: 'Inter' },
        "the theme's fonts, served by the school",
      );
      assert.deepEqual(defaults?.home, {
        headline: '',
        text: '',
        call_to_action: { label: 'Browse the courses', url: '/courses' },
        sections: ['featured_courses', 'lecturers', 'events', 'posts'],
        featured_course_ids: [],
      });
      assert.match(defaults?.colors.primary ?? '', /^#[0-9a-f]{6}$/);
      assert.deepEqual(seen[1], defaults);
      assert.deepEqual(seen[2], defaults);
    });

    test('first update stores all; colours and fonts change key by key; navigation is replaced', async () => {
      const defaults = (await anonymous.get<Appearance>('/api/v1/appearance')).body;
      const first = await patch({ colors: { primary: '#AA3300' }, logo_url: 'https://cdn.example/logo.svg' });
      assert.deepEqual(first.colors, { ...defaults.colors, primary: '#aa3300' });
      assert.equal(first.logo_url, 'https://cdn.example/logo.svg');
      assert.deepEqual(first.fonts, defaults.fonts);
      assert.ok(first.updated_at);

      const second = await patch({
        fonts: { heading: 'Georgia' },
        colors: { text: '#101010', background: '#fafafa' },
        navigation: [
          { label: ' Courses ', url: '/courses' },
          { label: 'Blog', url: 'https://blog.example/posts?x=1' },
        ],
        custom_css: '.hero { color: var(--primary); }',
      });
      assert.deepEqual(second.colors, {
        ...defaults.colors,
        primary: '#aa3300',
        text: '#101010',
        background: '#fafafa',
      });
      assert.deepEqual(second.fonts, { heading: 'Georgia', body: defaults.fonts.body });
      assert.deepEqual(second.navigation, [
        { label: 'Courses', url: '/courses' },
        { label: 'Blog', url: 'https://blog.example/posts?x=1' },
      ]);
      assert.equal(second.logo_url, 'https://cdn.example/logo.svg', 'untouched');

      const third = await patch({ navigation: [{ label: 'Home', url: '/' }], logo_url: null });
      assert.deepEqual(third.navigation, [{ label: 'Home', url: '/' }]);
      assert.equal(third.logo_url, null);
      assert.equal(third.custom_css, '.hero { color: var(--primary); }');

      for (const client of [anonymous, studentApi, staff]) {
        assert.deepEqual((await client.get<Appearance>('/api/v1/appearance')).body, third);
      }
      assert.deepEqual((await patch({ navigation: [] })).navigation, []);
    });

    test('the footer links: replaced as a whole, checked as the menu is, empty for the default footer', async () => {
      assert.deepEqual((await anonymous.get<Appearance>('/api/v1/appearance')).body.footer, []);
      const footer = [
        { label: ' Imprint ', url: '/p/imprint' },
        { label: 'Community', url: 'https://forum.school.example/' },
      ];
      const changed = await patch({ footer });
      assert.deepEqual(changed.footer, [
        { label: 'Imprint', url: '/p/imprint' },
        { label: 'Community', url: 'https://forum.school.example/' },
      ]);
      const kept = await patch({ colors: { accent: '#123456' } });
      assert.equal(kept.footer.length, 2, 'another change keeps it');
      await refused({ footer: [{ label: '  ', url: '/' }] }, 'footer.0.label', /give the footer link a label/);
      await refused({ footer: [{ label: 'x', url: 'javascript:alert(1)' }] }, 'footer.0.url');
      await refused({ footer: Array.from({ length: 21 }, () => ({ label: 'x', url: '/' })) }, 'footer');
      assert.deepEqual((await patch({ footer: [] })).footer, []);
    });

    test('navigation: at most 20 items, labels of 1–40 characters, URLs on this site or https', async () => {
      const items = (n: number) => Array.from({ length: n }, (_, i) => ({ label: `Item ${i}`, url: `/p/${i}` }));
      assert.equal((await patch({ navigation: items(20) })).navigation.length, 20);
      await refused({ navigation: items(21) }, 'navigation');
      await refused({ navigation: [{ label: 'L'.repeat(41), url: '/' }] }, 'navigation.0.label');
      await refused({ navigation: [{ label: '', url: '/' }] }, 'navigation.0.label');
      await refused({ navigation: [{ label: '   ', url: '/' }] }, 'navigation.0.label', /give the menu item a label/);
      await refused({ navigation: [{ label: 'x', url: '/', target: '_blank' }] }, 'navigation.0.target');
      await refused({ navigation: [{ label: 'x' }] }, 'navigation.0.url');
      for (const url of [
        'http://plain.example/',
        '//evil.example/',
        '/\\evil.example',
        'javascript:alert(1)',
        'courses',
        'https://',
        '/with space',
        'mailto:a@b.example',
      ]) {
        await refused(
          {
            navigation: [
              { label: 'ok', url: '/fine' },
              { label: 'bad', url },
            ],
          },
          'navigation.1.url',
          /starting with "\/".*https:\/\//,
        );
      }
      assert.equal((await staff.get<Appearance>('/api/v1/appearance')).body.navigation.length, 20, 'unchanged');
    });

    test('custom CSS: at most 20,000 characters, no "</style", no @import (however spelled)', async () => {
      const long = `/*${'x'.repeat(19_996)}*/`;
      assert.equal((await patch({ custom_css: long })).custom_css.length, 20_000);
      await refused({ custom_css: `${long} ` }, 'custom_css');
      await refused({ custom_css: 'a{}</style><script>alert(1)</script>' }, 'custom_css', /"<\/style"/);
      await refused({ custom_css: 'a{}</STYLE >' }, 'custom_css', /"<\/style"/);
      await refused({ custom_css: '@import url(https://evil.example/x.css);' }, 'custom_css', /@import.*paste/);
      await refused({ custom_css: '@IMPORT "x.css";' }, 'custom_css', /@import/);
      await refused({ custom_css: '@\\69mport "x.css";' }, 'custom_css', /@import/);
      await refused({ custom_css: '@\\000069 mport "x.css";' }, 'custom_css', /@import/);
      await refused({ custom_css: '@im\\port "x.css";' }, 'custom_css', /@import/);
      const fine = await patch({ custom_css: '@media (min-width: 40rem) { .x { content: "\\2014"; } }' });
      assert.equal(fine.custom_css, '@media (min-width: 40rem) { .x { content: "\\2014"; } }');
    });

    test('validation: unknown field, wrong type, bad colour or font, bad logo URL, empty changes', async () => {
      const saved = (await staff.get<Appearance>('/api/v1/appearance')).body;
      await refused({ favicon: 'x' }, 'favicon');
      await refused({ colors: { link: '#000000' } }, 'colors.link');
      await refused({ colors: { primary: '#abc' } }, 'colors.primary');
      await refused({ colors: { primary: 'red' } }, 'colors.primary');
      await refused({ colors: { primary: 0x112233 } }, 'colors.primary');
      await refused({ colors: {} }, 'colors');
      await refused({ fonts: { body: 'Comic Sans MS' } }, 'fonts.body');
      await refused({ navigation: 'Home:/' }, 'navigation');
      await refused({ custom_css: 12 }, 'custom_css');
      await refused({ logo_url: 'javascript:alert(1)' }, 'logo_url');
      await refused({ logo_url: 'u'.repeat(2_001) }, 'logo_url');
      const empty = await staff.patch('/api/v1/appearance', {});
      assert.equal(empty.status, 400);
      assert.deepEqual((await staff.get<Appearance>('/api/v1/appearance')).body, saved);
    });

    test('a theme: choosing one takes its colours and fonts, and what is given beside it goes on top', async () => {
      const night = await patch({ theme: 'night' });
      assert.equal(night.theme, 'night');
      assert.equal(night.colors.background, '#10141c');
      assert.deepEqual(night.fonts, { heading: 'Inter', body: 'Inter' });
      const tuned = await patch({ colors: { accent: '#FFAA00' } });
      assert.equal(tuned.theme, 'night', 'a colour alone keeps the theme');
      assert.equal(tuned.colors.accent, '#ffaa00');
      assert.equal(tuned.colors.background, '#10141c');
      const studio = await patch({ theme: 'studio', fonts: { body: 'Georgia' } });
      assert.equal(studio.colors.background, '#fbf6ee', "the new theme's colours replace the tuned ones");
      assert.deepEqual(studio.fonts, { heading: 'Fraunces', body: 'Georgia' });
      await refused({ theme: 'neon' }, 'theme');
      await patch({ theme: 'classic' });
    });

    test('the home page: hero words, button, parts and featured courses, key by key and checked', async () => {
      const writer = apiClient(server.url, await tokenFor(server, people.staff, 'courses:write'));
      const course = await writer.post<{ id: string }>('/api/v1/courses', { title: 'Featured' });
      const first = await patch({
        home: { headline: '  Learn to paint  ', call_to_action: { label: 'Start now', url: '/courses/featured' } },
      });
      assert.equal(first.home.headline, 'Learn to paint');
      assert.deepEqual(first.home.call_to_action, { label: 'Start now', url: '/courses/featured' });
      assert.deepEqual(first.home.sections, ['featured_courses', 'lecturers', 'events', 'posts'], 'untouched');
      const second = await patch({
        home: { sections: ['posts', 'new_courses'], featured_course_ids: [course.body.id] },
      });
      assert.equal(second.home.headline, 'Learn to paint', 'kept');
      assert.deepEqual(second.home.sections, ['posts', 'new_courses']);
      assert.deepEqual(second.home.featured_course_ids, [course.body.id]);
      await refused({ home: { sections: ['posts', 'posts'] } }, 'home.sections');
      await refused({ home: { sections: ['testimonials'] } }, 'home.sections.0');
      await refused({ home: { featured_course_ids: ['crs_00000000000000000000000000'] } }, 'home.featured_course_ids');
      await refused({ home: { call_to_action: { label: ' ', url: '/' } } }, 'home.call_to_action.label', /label/);
      await refused(
        { home: { call_to_action: { label: 'Go', url: 'javascript:alert(1)' } } },
        'home.call_to_action.url',
      );
      await refused({ home: { headline: 'x'.repeat(121) } }, 'home.headline');
      await refused({ home: {} }, 'home');
      await refused({ home: { hero: 'x' } }, 'home.hero');
      assert.deepEqual((await anonymous.get<Appearance>('/api/v1/appearance')).body.home, second.home);
    });

    test('appearance:write / appearance:read missing: 403 insufficient_scope with WWW-Authenticate', async () => {
      const saved = (await staff.get<Appearance>('/api/v1/appearance')).body;
      for (const client of [anonymous, studentApi, staffReadOnly]) {
        const response = await client.patch('/api/v1/appearance', { colors: { primary: '#000000' } });
        assert.equal(response.status, 403);
        assert.equal(response.body.error, 'insufficient_scope');
        assert.match(response.headers.get('www-authenticate') ?? '', challenge('appearance:write'));
      }
      assert.deepEqual((await anonymous.get<Appearance>('/api/v1/appearance')).body, saved);
      const noRead = await coursesOnly.get('/api/v1/appearance');
      assert.equal(noRead.status, 403);
      assert.match(noRead.headers.get('www-authenticate') ?? '', challenge('appearance:read'));
      assert.equal((await staffReadOnly.get('/api/v1/appearance')).status, 200);
    });
  });
}
