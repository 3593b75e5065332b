import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { engines } from '../../support/databases.ts';
import { imageSize } from '../../support/images.ts';
import { pictureSchool } from '../../support/picture-school.ts';
import type { TestServer } from '../../support/server.ts';
import { backends, startStorageServer } from '../../support/storage.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** The content of a <meta> tag of a page. */
const meta = (text: string, key: string) =>
  new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)">`).exec(text)?.[1];

for (const engine of engines) {
  for (const backend of backends) {
    describe(`pictures on the site and share images (${engine}, ${backend})`, () => {
      let server: TestServer;
      let school: Awaited<ReturnType<typeof pictureSchool>>;
      const page = async (path: string) => {
        const response = await fetch(`${server.url}${path}`);
        assert.equal(response.status, 200, path);
        return response.text();
      };

      before(async () => {
        server = await startStorageServer(engine, backend, { JOBS_POLL_MS: '60000' });
        school = await pictureSchool(server);
      });
      after(() => server.close());

      test('the catalog shows uploaded covers as responsive pictures, and a designed cover for each course without one', async () => {
        const text = await page('/courses');
        const { botanical, italian, pottery } = school.courses;
        const cover = botanical.cover_asset_id;
        assert.match(
          text,
          new RegExp(
            `<source type="image/avif" srcset="/media/${cover}/160-[0-9a-f]{12}\\.avif 160w, /media/${cover}/320-[0-9a-f]{12}\\.avif 320w, [^"]*1600w" sizes="[^"]+">`,
          ),
        );
        assert.match(
          text,
          new RegExp(
            `<img src="/media/${cover}/1600-[0-9a-f]{12}\\.jpg" srcset="[^"]+" sizes="[^"]+" alt="" width="1600" height="900" loading="lazy" decoding="async">`,
          ),
        );
        assert.match(
          text,
          /<img class="pic-ph" src="data:image\/webp;base64,[^"]+" alt="" width="1600" height="900" aria-hidden="true">/,
        );
        const generated = (title: string) =>
          new RegExp(
            `<span class="gen-cover [^"]*" aria-hidden="true"><svg [^>]*>(.*?)</svg><span class="gen-title"><span class="gen-rule"></span>${title}</span>`,
          ).exec(text);
        const first = generated(italian.title);
        const second = generated(pottery.title);
        assert.ok(first && second, 'a generated cover for each course without one');
        assert.notEqual(first[1], second[1], "two courses' generated covers differ");
        assert.doesNotMatch(
          text,
          /<img(?![^>]*width="\d+" height="\d+")[^>]*>/,
          'every image has its width and height',
        );
      });

      test("a course's share image: its cover cropped to 1200 × 630, fetchable, kept for good", async () => {
        const text = await page(`/courses/${school.courses.botanical.slug}`);
        const url = meta(text, 'og:image') ?? '';
        assert.match(
          url,
          new RegExp(`^${server.url}/share/courses/${school.courses.botanical.id}-[0-9a-f]{16}\\.jpg$`),
        );
        assert.equal(meta(text, 'og:image:width'), '1200');
        assert.equal(meta(text, 'og:image:height'), '630');
        assert.equal(meta(text, 'og:image:alt'), 'Botanical Illustration');
        assert.equal(meta(text, 'twitter:image'), url);
        assert.equal(meta(text, 'twitter:card'), 'summary_large_image');
        const image = await fetch(url);
        assert.equal(image.status, 200);
        assert.equal(image.headers.get('content-type'), 'image/jpeg');
        assert.equal(image.headers.get('cache-control'), IMMUTABLE);
        const bytes = Buffer.from(await image.arrayBuffer());
        assert.deepEqual(await imageSize(bytes), { format: 'jpeg', width: 1200, height: 630 });
        const again = Buffer.from(await (await fetch(url)).arrayBuffer());
        assert.deepEqual(again, bytes, 'kept, not drawn again');
      });

      test('a course without a cover shares its generated design with its title and the school; a new title is a new address', async () => {
        const { italian } = school.courses;
        const url = meta(await page(`/courses/${italian.slug}`), 'og:image') ?? '';
        assert.match(url, /\.png$/);
        const image = await fetch(url);
        assert.equal(image.headers.get('content-type'), 'image/png');
        assert.deepEqual(await imageSize(Buffer.from(await image.arrayBuffer())), {
          format: 'png',
          width: 1200,
          height: 630,
        });

        assert.equal(
          (await school.staff.patch(`/api/v1/courses/${italian.id}`, { title: 'Italian in 40 Days' })).status,
          200,
        );
        const renamed = meta(await page(`/courses/${italian.slug}`), 'og:image') ?? '';
        assert.notEqual(renamed, url);
        const old = await fetch(url);
        assert.equal(old.status, 200, "an older version's address still answers");
        assert.equal(old.headers.get('cache-control'), 'public, max-age=300');
      });

      test('a public post shares its feature image; a members’ post, a draft or an unknown id shares nothing, a malformed name is 400', async () => {
        const open = await page(`/posts/${school.posts.open.slug}`);
        const url = meta(open, 'og:image') ?? '';
        assert.match(url, new RegExp(`/share/posts/${school.posts.open.id}-[0-9a-f]{16}\\.jpg$`));
        assert.equal((await fetch(url)).status, 200);
        assert.match(open, new RegExp(`<span class="pic post-hero">[^]*?/media/${school.feature.id}/`));
        const members = await fetch(`${server.url}/posts/${school.posts.members.slug}`);
        assert.equal(meta(await members.text(), 'og:image'), undefined);
        for (const path of [
          `/share/posts/${school.posts.members.id}-0000000000000000.jpg`,
          `/share/courses/${school.draft.id}-0000000000000000.png`,
          '/share/courses/crs_00000000000000000000000000-0000000000000000.png',
        ]) {
          assert.equal((await fetch(`${server.url}${path}`)).status, 404, path);
        }
        assert.equal((await fetch(`${server.url}/share/courses/${school.courses.italian.id}.png`)).status, 400);
      });

      test("a lecturer's portrait is a square picture with its small variants", async () => {
        const text = await page(`/lecturers/${school.ada.id}`);
        assert.match(
          text,
          new RegExp(
            `<span class="pic pic-1x1 avatar">[^]*?srcset="/media/${school.portrait.id}/160-[0-9a-f]{12}\\.avif 160w, [^"]*600w" sizes="6rem">`,
          ),
        );
        assert.match(text, /alt="" width="600" height="600" loading="lazy"/);
      });
    });
  }
}
