import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { apiClient, insufficientScopeChallenge, schoolWithPeople, tokenFor } from '../support/api.ts';
import { engines } from '../support/databases.ts';
import { html, mp4, pdf, png } from '../support/files.ts';
import type { TestServer } from '../support/server.ts';
import { paginatesLikeEveryList } from '../support/shared-examples.ts';
import { type Asset, backends, putBytes, startStorageServer, uploadAsset } from '../support/storage.ts';

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

for (const engine of engines) {
  for (const backend of backends) {
    describe(`storage (${engine}, ${backend})`, () => {
      let server: TestServer;
      let staffToken: string;
      let staff: ReturnType<typeof apiClient>;
      let studentToken: string;
      let otherStaffToken: string;
      let skew = 0;
      const clock = { now: () => new Date(Date.now() + skew) };

      before(async () => {
        server = await startStorageServer(engine, backend, { MEDIA_URL_TTL_SECONDS: '60' }, { clock });
        const people = await schoolWithPeople(server);
        staffToken = await tokenFor(server, people.staff, 'storage:write');
        staff = apiClient(server.url, staffToken);
        // A student cannot be granted storage:write: the token comes without it.
        studentToken = await tokenFor(server, people.student, 'storage:write courses:read');
        otherStaffToken = await tokenFor(server, people.staff, 'courses:read');
      });
      after(() => server.close());

      const create = async (body: Record<string, unknown>) => {
        const created = await staff.post<Asset>('/api/v1/storage/assets', body);
        assert.equal(created.status, 201, JSON.stringify(created.body));
        assert.equal(created.body.status, 'pending');
        return created.body;
      };
      const put = (asset: Asset, bytes: Buffer | ReadableStream<Uint8Array>) => putBytes(asset, bytes, staffToken);
      const uploaded = (
        declared: { purpose: string; filename: string; content_type: string; sha256?: string },
        bytes: Buffer,
      ) => uploadAsset(server, staffToken, declared, bytes);
      const chunked = (...parts: Buffer[]) =>
        new ReadableStream<Uint8Array>({
          start(controller) {
            for (const part of parts) controller.enqueue(part);
            controller.close();
          },
        });

      test('an image is uploaded in two steps, its SHA-256 recorded, and served publicly with cache headers', async () => {
        const bytes = png(40);
        const asset = await create({
          purpose: 'image',
          filename: 'cover image é.png',
          content_type: 'image/png',
          byte_size: bytes.length,
        });
        assert.match(asset.id, /^ast_[0-9a-z]{26}$/);
        assert.equal(asset.upload_url, `${server.url}/api/v1/storage/assets/${asset.id}/content`);
        assert.equal(asset.url, null);
        const done = await put(asset, bytes);
        assert.equal(done.status, 200, JSON.stringify(done.body));
        assert.equal(done.body.status, 'ready');
        assert.equal(done.body.sha256, sha256(bytes));
        assert.equal(done.body.upload_url, null);
        assert.equal(done.body.url, `${server.url}/media/${asset.id}`);
        assert.deepEqual((await staff.get<Asset>(`/api/v1/storage/assets/${asset.id}`)).body, done.body);

        const served = await fetch(done.body.url ?? '');
        assert.equal(served.status, 200);
        assert.equal(served.headers.get('content-type'), 'image/png');
        assert.equal(served.headers.get('x-content-type-options'), 'nosniff');
        assert.equal(served.headers.get('cache-control'), 'public, max-age=31536000, immutable');
        assert.equal(served.headers.get('etag'), `"${sha256(bytes)}"`);
        assert.equal(served.headers.get('accept-ranges'), 'bytes');
        assert.match(
          served.headers.get('content-disposition') ?? '',
          /^inline; .*filename\*=UTF-8''cover%20image%20%C3%A9\.png$/,
        );
        assert.deepEqual(Buffer.from(await served.arrayBuffer()), bytes);
        const again = await fetch(done.body.url ?? '', { headers: { 'if-none-match': `"${sha256(bytes)}"` } });
        assert.equal(again.status, 304);
        const listed = await staff.get<{ data: Asset[] }>('/api/v1/storage/assets?purpose=image&status=ready');
        assert.ok(listed.body.data.some((a) => a.id === asset.id));
      });

      test('limits: size over the purpose limit is 413, a type the purpose does not take or an unknown field 400', async () => {
        const big = await staff.post('/api/v1/storage/assets', {
          purpose: 'image',
          filename: 'huge.png',
          content_type: 'image/png',
          byte_size: 10_000_001,
        });
        assert.equal(big.status, 413);
        assert.equal(big.body.error, 'payload_too_large');
        assert.equal((big.body.errors as { field: string }[])[0]?.field, 'byte_size');
        const video = await staff.post('/api/v1/storage/assets', {
          purpose: 'video',
          filename: 'long.mp4',
          content_type: 'video/mp4',
          byte_size: 2_000_000_001,
        });
        assert.equal(video.status, 413);
        for (const [body, field] of [
          [{ purpose: 'image', filename: 'x.svg', content_type: 'image/svg+xml', byte_size: 10 }, 'content_type'],
          [{ purpose: 'pdf', filename: 'x.pdf', content_type: 'image/png', byte_size: 10 }, 'content_type'],
          [{ purpose: 'image', filename: '../x.png', content_type: 'image/png', byte_size: 10 }, 'filename'],
          [{ purpose: 'image', filename: 'x.png', content_type: 'image/png', byte_size: 0 }, 'byte_size'],
          [{ purpose: 'image', filename: 'x.png', content_type: 'image/png', byte_size: 10, colour: 1 }, 'colour'],
          [{ purpose: 'sticker', filename: 'x.png', content_type: 'image/png', byte_size: 10 }, 'purpose'],
        ] as const) {
          const refused = await staff.post('/api/v1/storage/assets', body);
          assert.equal(refused.status, 400, JSON.stringify(body));
          assert.equal((refused.body.errors as { field: string }[])[0]?.field, field, JSON.stringify(refused.body));
        }
      });

      test('the type is sniffed from the bytes: a PNG declared as video and HTML named .png fail, their bytes dropped', async () => {
        const asVideo = await create({
          purpose: 'video',
          filename: 'lesson.mp4',
          content_type: 'video/mp4',
          byte_size: png().length,
        });
        const refused = await put(asVideo, png());
        assert.equal(refused.status, 400);
        assert.match(refused.body.error_description ?? '', /image\/png, which is not allowed for video/);
        const failed = (await staff.get<Asset>(`/api/v1/storage/assets/${asVideo.id}`)).body;
        assert.equal(failed.status, 'failed');
        assert.match(failed.failure_reason ?? '', /image\/png/);
        assert.equal(failed.upload_url, null);
        assert.equal((await put(asVideo, png())).status, 409, 'a failed asset takes no more bytes');

        const page = await create({
          purpose: 'image',
          filename: 'innocent.png',
          content_type: 'image/png',
          byte_size: html().length,
        });
        const sniffed = await put(page, html());
        assert.equal(sniffed.status, 400);
        assert.match(sniffed.body.error_description ?? '', /not a file type allowed for image/);
        assert.equal((await fetch(`${server.url}/media/${page.id}`)).status, 404);

        const wrongImage = await create({
          purpose: 'image',
          filename: 'photo.jpg',
          content_type: 'image/jpeg',
          byte_size: png().length,
        });
        const mismatch = await put(wrongImage, png());
        assert.equal(mismatch.status, 400);
        assert.match(mismatch.body.error_description ?? '', /image\/png, not image\/jpeg as declared/);
      });

      test('the real size must be the declared one, whether or not Content-Length says it', async () => {
        const bytes = png(10);
        const longer = await create({ purpose: 'image', filename: 'a.png', content_type: 'image/png', byte_size: 20 });
        assert.equal((await put(longer, bytes)).status, 413, 'Content-Length over the declared size');
        assert.equal((await staff.get<Asset>(`/api/v1/storage/assets/${longer.id}`)).body.status, 'failed');

        const streamed = await create({
          purpose: 'image',
          filename: 'b.png',
          content_type: 'image/png',
          byte_size: 30,
        });
        const over = await put(streamed, chunked(bytes.subarray(0, 20), bytes.subarray(20)));
        assert.equal(over.status, 413, 'chunked past the declared size');
        assert.match(over.body.error_description ?? '', /More than the declared 30 bytes/);

        const short = await create({
          purpose: 'image',
          filename: 'c.png',
          content_type: 'image/png',
          byte_size: bytes.length + 5,
        });
        const under = await put(short, chunked(bytes));
        assert.equal(under.status, 400);
        assert.match(under.body.error_description ?? '', /Only \d+ of the declared \d+ bytes/);
        assert.equal((await staff.get<Asset>(`/api/v1/storage/assets/${short.id}`)).body.status, 'failed');

        const ok = await create({
          purpose: 'image',
          filename: 'd.png',
          content_type: 'image/png',
          byte_size: bytes.length,
        });
        const whole = await put(ok, chunked(bytes.subarray(0, 7), bytes.subarray(7)));
        assert.equal(whole.status, 200, 'chunked with the declared size');
        assert.equal(whole.body.sha256, sha256(bytes));
      });

      test('the bytes stream through: an upload far over the JSON body limit, sent in chunks, is stored whole', async () => {
        const bytes = mp4(3 * 1024 * 1024 + 17);
        assert.ok(bytes.length > server.config.BODY_LIMIT_BYTES);
        const asset = await create({
          purpose: 'video',
          filename: 'big.mp4',
          content_type: 'video/mp4',
          byte_size: bytes.length,
        });
        const parts: Buffer[] = [];
        for (let at = 0; at < bytes.length; at += 65_536) parts.push(bytes.subarray(at, at + 65_536));
        const done = await put(asset, chunked(...parts));
        assert.equal(done.status, 200, JSON.stringify(done.body));
        assert.equal(done.body.sha256, sha256(bytes));
        const head = await fetch(done.body.url ?? '', { method: 'HEAD' });
        assert.equal(head.status, 200);
        assert.equal(head.headers.get('content-length'), String(bytes.length));
        const tail = await fetch(done.body.url ?? '', { headers: { range: 'bytes=-100' } });
        assert.deepEqual(Buffer.from(await tail.arrayBuffer()), bytes.subarray(bytes.length - 100));
      });

      test('a transfer that breaks off leaves the asset pending, and the bytes can be sent again', async () => {
        const bytes = mp4(200_000);
        const asset = await create({
          purpose: 'video',
          filename: 'retry.mp4',
          content_type: 'video/mp4',
          byte_size: bytes.length,
        });
        await new Promise<void>((resolve) => {
          const request = httpRequest(asset.upload_url ?? '', {
            method: 'PUT',
            headers: { authorization: `Bearer ${staffToken}`, 'content-length': bytes.length },
          });
          request.on('error', () => resolve());
          request.write(bytes.subarray(0, 100_000), () => {
            request.destroy();
            resolve();
          });
        });
        assert.equal((await staff.get<Asset>(`/api/v1/storage/assets/${asset.id}`)).body.status, 'pending');
        const again = await put(asset, bytes);
        assert.equal(again.status, 200, JSON.stringify(again.body));
        assert.equal(again.body.sha256, sha256(bytes));
      });

      test('two uploads of one asset at once: one makes it ready, the other is 409 and leaves no bytes behind', async () => {
        const bytes = mp4(300_000);
        const asset = await create({
          purpose: 'video',
          filename: 'twice.mp4',
          content_type: 'video/mp4',
          byte_size: bytes.length,
        });
        const controllers: ReadableStreamDefaultController<Uint8Array>[] = [];
        const stream = () =>
          new ReadableStream<Uint8Array>({
            start(controller) {
              controllers.push(controller);
              controller.enqueue(bytes.subarray(0, 100_000));
            },
          });
        const uploads = [put(asset, stream()), put(asset, stream())];
        for (const controller of controllers) {
          controller.enqueue(bytes.subarray(100_000));
          controller.close();
        }
        const statuses = (await Promise.all(uploads)).map((u) => u.status).sort();
        assert.deepEqual(statuses, [200, 409]);
        assert.equal((await staff.get<Asset>(`/api/v1/storage/assets/${asset.id}`)).body.sha256, sha256(bytes));
        if (backend === 'local') {
          assert.equal((await readdir(join(server.config.STORAGE_DIR, 'assets', asset.id))).length, 1);
        }
      });

      test('a declared SHA-256 is checked against the bytes', async () => {
        const bytes = pdf();
        const wrong = await create({
          purpose: 'pdf',
          filename: 'notes.pdf',
          content_type: 'application/pdf',
          byte_size: bytes.length,
          sha256: sha256(Buffer.from('something else')),
        });
        const refused = await put(wrong, bytes);
        assert.equal(refused.status, 400);
        assert.match(refused.body.error_description ?? '', /SHA-256/);
        const right = await uploaded(
          { purpose: 'pdf', filename: 'notes.pdf', content_type: 'application/pdf', sha256: sha256(bytes) },
          bytes,
        );
        assert.equal(right.status, 'ready');
      });

      test('lesson media are served only through signed URLs, with Range support, until they expire', async () => {
        const bytes = mp4(100_000);
        const video = await uploaded({ purpose: 'video', filename: 'lesson 1.mp4', content_type: 'video/mp4' }, bytes);
        assert.equal(video.sha256, sha256(bytes));
        const url = new URL(video.url ?? '');
        assert.equal(url.pathname, `/media/${video.id}`);
        assert.ok(url.searchParams.get('signature'));

        const whole = await fetch(url);
        assert.equal(whole.status, 200);
        assert.equal(whole.headers.get('content-type'), 'video/mp4');
        assert.equal(whole.headers.get('content-length'), String(bytes.length));
        assert.match(whole.headers.get('cache-control') ?? '', /^private, max-age=(60|59)$/);
        assert.deepEqual(Buffer.from(await whole.arrayBuffer()), bytes);

        const ranged = async (range: string) => {
          const response = await fetch(url, { headers: { range } });
          return { response, body: Buffer.from(await response.arrayBuffer()) };
        };
        const first = await ranged('bytes=0-9');
        assert.equal(first.response.status, 206);
        assert.equal(first.response.headers.get('content-range'), `bytes 0-9/${bytes.length}`);
        assert.deepEqual(first.body, bytes.subarray(0, 10));
        const last = await ranged('bytes=-5');
        assert.equal(last.response.status, 206);
        assert.equal(
          last.response.headers.get('content-range'),
          `bytes ${bytes.length - 5}-${bytes.length - 1}/${bytes.length}`,
        );
        assert.deepEqual(last.body, bytes.subarray(bytes.length - 5));
        const rest = await ranged('bytes=5-');
        assert.equal(rest.response.status, 206);
        assert.deepEqual(rest.body, bytes.subarray(5));
        const middle = await ranged('bytes=70000-70009');
        assert.deepEqual(middle.body, bytes.subarray(70_000, 70_010));
        const past = await ranged(`bytes=${bytes.length}-`);
        assert.equal(past.response.status, 416);
        assert.equal(past.response.headers.get('content-range'), `bytes */${bytes.length}`);
        const stale = await fetch(url, { headers: { range: 'bytes=0-9', 'if-range': '"another"' } });
        assert.equal(stale.status, 200, 'If-Range of another version: the whole file');
        await stale.arrayBuffer();

        assert.equal((await fetch(`${server.url}/media/${video.id}`)).status, 404, 'no signature');
        const forged = new URL(url);
        forged.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 3600));
        assert.equal((await fetch(forged)).status, 404, 'a later expiry than signed');

        skew += 61_000;
        try {
          const expired = await fetch(url);
          assert.equal(expired.status, 403);
          assert.match(((await expired.json()) as { error_description: string }).error_description, /expired/);
        } finally {
          skew -= 61_000;
        }
      });

      test('downloads take any bytes and are served as attachments', async () => {
        const bytes = Buffer.from('name,score\nada,10\n');
        const file = await uploaded({ purpose: 'download', filename: 'scores.csv', content_type: 'text/csv' }, bytes);
        assert.equal(file.content_type, 'application/octet-stream');
        const served = await fetch(file.url ?? '');
        assert.equal(served.headers.get('content-type'), 'application/octet-stream');
        assert.match(served.headers.get('content-disposition') ?? '', /^attachment; filename="scores.csv"/);
        assert.deepEqual(Buffer.from(await served.arrayBuffer()), bytes);
      });

      test('the asset list pages like every list', async () => {
        await paginatesLikeEveryList({
          staff,
          // Only this test makes audio uploads.
          query: '/api/v1/storage/assets?purpose=audio&status=pending',
          make: (i) => create({ purpose: 'audio', filename: `${i}.mp3`, content_type: 'audio/mpeg', byte_size: 1000 }),
          // Assets have no delete operation yet: the row goes straight from the database.
          remove: (id) => server.database.db.deleteFrom('assets').where('id', '=', id).execute(),
        });
      });

      test('Idempotency-Key on create replays the first answer', async () => {
        const body = { purpose: 'image', filename: 'same.png', content_type: 'image/png', byte_size: 100 };
        const first = await staff.post<Asset>('/api/v1/storage/assets', body, { 'idempotency-key': 'asset-1' });
        const second = await staff.post<Asset>('/api/v1/storage/assets', body, { 'idempotency-key': 'asset-1' });
        assert.equal(second.status, 201);
        assert.equal(second.headers.get('idempotent-replayed'), 'true');
        assert.equal(second.body.id, first.body.id);
      });

      test('only staff with storage:write upload or see assets: anonymous, student and other tokens get 403', async () => {
        const asset = await create({
          purpose: 'image',
          filename: 'x.png',
          content_type: 'image/png',
          byte_size: png().length,
        });
        const body = { purpose: 'image', filename: 'y.png', content_type: 'image/png', byte_size: 10 };
        for (const [who, token] of [
          ['anonymous', undefined],
          ['student', studentToken],
          ['staff without storage:write', otherStaffToken],
        ] as const) {
          const client = apiClient(server.url, token);
          for (const response of [
            await client.post('/api/v1/storage/assets', body),
            await client.get(`/api/v1/storage/assets/${asset.id}`),
            await client.get('/api/v1/storage/assets'),
          ]) {
            assert.equal(response.status, 403, who);
            assert.equal(response.body.error, 'insufficient_scope', who);
            assert.match(response.headers.get('www-authenticate') ?? '', insufficientScopeChallenge('storage:write'));
          }
          const upload = await fetch(asset.upload_url ?? '', {
            method: 'PUT',
            headers: token ? { authorization: `Bearer ${token}` } : {},
            body: png(),
          });
          assert.equal(upload.status, 403, who);
          await upload.arrayBuffer();
        }
        assert.equal((await staff.get<Asset>(`/api/v1/storage/assets/${asset.id}`)).body.status, 'pending');
      });
    });
  }
}
