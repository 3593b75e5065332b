import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { schoolWithPeople, tokenFor } from '../support/api.ts';
import { engines } from '../support/databases.ts';
import { imageSize, photo, transparentPng } from '../support/images.ts';
import type { TestServer } from '../support/server.ts';
import { backends, startStorageServer, uploadAsset } from '../support/storage.ts';

const IMMUTABLE = 'public, max-age=31536000, immutable';

for (const engine of engines) {
  for (const backend of backends) {
    describe(`image variants (${engine}, ${backend})`, () => {
      let server: TestServer;
      let token: string;

      before(async () => {
        // The worker is left to the test: jobs run when it says, so it can count them.
        server = await startStorageServer(engine, backend, { JOBS_POLL_MS: '60000' });
        const people = await schoolWithPeople(server);
        token = await tokenFor(server, people.staff, 'storage:write');
      });
      after(() => server.close());

      const upload = (bytes: Buffer, type: string) =>
        uploadAsset(
          server,
          token,
          { purpose: 'image', filename: `picture.${type.split('/')[1]}`, content_type: type },
          bytes,
        );
      const images = (id: string) => server.services.areas.storage.images([id]);
      const jobsOf = async (id: string) =>
        (
          await server.database.db
            .selectFrom('jobs')
            .select(['status', 'result'])
            .where('kind', '=', 'storage.image-variants')
            .where('payload', 'like', `%${id}%`)
            .execute()
        ).map((j) => ({ status: j.status, result: j.result }));

      test('an uploaded photograph gets its variants once: each width in AVIF, WebP and JPEG, none wider than it', async () => {
        const asset = await upload(await photo(1600, 1000), 'image/jpeg');
        assert.equal((await images(asset.id)).size, 0, 'nothing until the job has run');
        assert.deepEqual(await jobsOf(asset.id), [{ status: 'queued', result: null }]);
        await server.services.jobs.runDue();

        const image = (await images(asset.id)).get(asset.id);
        assert.ok(image);
        assert.deepEqual([image.width, image.height], [1600, 1000]);
        assert.match(image.placeholder ?? '', /^data:image\/webp;base64,/);
        assert.deepEqual(
          image.formats.map((f) => [f.type, f.sources.map((s) => s.width)]),
          ['image/avif', 'image/webp', 'image/jpeg'].map((type) => [type, [160, 320, 640, 960, 1280, 1600]]),
        );
        for (const format of image.formats) {
          for (const source of format.sources) {
            assert.match(source.url, new RegExp(`^/media/${asset.id}/${source.width}-[0-9a-f]{12}\\.(avif|webp|jpg)$`));
            const served = await fetch(`${server.url}${source.url}`);
            assert.equal(served.status, 200, source.url);
            assert.equal(served.headers.get('content-type'), format.type);
            assert.equal(served.headers.get('cache-control'), IMMUTABLE);
            assert.equal(served.headers.get('x-content-type-options'), 'nosniff');
            const size = await imageSize(Buffer.from(await served.arrayBuffer()));
            assert.deepEqual([size.width, size.height], [source.width, (source.width * 5) / 8]);
            const again = await fetch(`${server.url}${source.url}`, {
              headers: { 'if-none-match': served.headers.get('etag') ?? '' },
            });
            assert.equal(again.status, 304);
          }
        }
        if (backend === 'local') {
          const stored = await readdir(join(server.config.STORAGE_DIR, 'assets', asset.id, 'variants'));
          assert.equal(stored.length, 18);
        }

        // Run again (a job is at-least-once), and queued again as if at a start: nothing is made a second time.
        await server.services.areas.storage.queueMissingVariants();
        await server.database.db
          .updateTable('jobs')
          .set({ status: 'queued', run_at: new Date(0).toISOString() })
          .where('kind', '=', 'storage.image-variants')
          .where('payload', 'like', `%${asset.id}%`)
          .execute();
        await server.services.jobs.runDue();
        const runs = await jobsOf(asset.id);
        assert.equal(runs.length, 1, 'no second job for an image with variants');
        assert.match(String(runs[0]?.result), /already made/);
        assert.deepEqual((await images(asset.id)).get(asset.id), image);
      });

      test('a small image with transparency is never enlarged: its own width only, PNG as the fallback', async () => {
        const asset = await upload(await transparentPng(150, 90), 'image/png');
        await server.services.jobs.runDue();
        const image = (await images(asset.id)).get(asset.id);
        assert.ok(image);
        assert.equal(image.placeholder, null);
        assert.deepEqual(
          image.formats.map((f) => [f.type, f.sources.map((s) => s.width)]),
          [
            ['image/avif', [150]],
            ['image/webp', [150]],
            ['image/png', [150]],
          ],
        );
      });

      test('images uploaded before variants existed get theirs from the queue made at start', async () => {
        const asset = await upload(await photo(700, 700, 200), 'image/jpeg');
        // As an image of an older version: ready, no variants, no job.
        await server.database.db.deleteFrom('jobs').where('payload', 'like', `%${asset.id}%`).execute();
        assert.ok((await server.services.areas.storage.queueMissingVariants()) >= 1);
        await server.services.jobs.runDue();
        const image = (await images(asset.id)).get(asset.id);
        assert.deepEqual(
          image?.formats.map((f) => f.sources.map((s) => s.width)),
          [
            [160, 320, 700],
            [160, 320, 700],
            [160, 320, 700],
          ],
        );
      });

      test('bytes that only begin as an image are marked unreadable and shown as uploaded; unknown names are 404', async () => {
        const broken = Buffer.concat([(await photo(300, 200)).subarray(0, 300), Buffer.alloc(300)]);
        const asset = await upload(broken, 'image/jpeg');
        await server.services.jobs.runDue();
        assert.equal((await images(asset.id)).size, 0);
        const [run] = await jobsOf(asset.id);
        assert.equal(run?.status, 'succeeded', 'trying again would not help');
        const row = await server.database.db
          .selectFrom('assets')
          .select('variants')
          .where('id', '=', asset.id)
          .executeTakeFirst();
        assert.equal(row?.variants, 'unreadable');
        for (const path of [
          `/media/${asset.id}/320-000000000000.avif`,
          `/media/${asset.id}/320-000000000000.exe`,
          '/media/ast_00000000000000000000000000/320-000000000000.jpg',
        ]) {
          assert.equal((await fetch(`${server.url}${path}`)).status, 404, path);
        }
      });
    });
  }
}
