import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { newId } from '../../src/db/ids.ts';
import { apiClient, createUser, type Person, schoolWithPeople, tokenFor } from '../support/api.ts';
import { engines } from '../support/databases.ts';
import { mp4, pdf, png } from '../support/files.ts';
import type { TestServer } from '../support/server.ts';
import { type Asset, backends, startStorageServer, uploadAsset } from '../support/storage.ts';

type Client = ReturnType<typeof apiClient>;
type Lesson = {
  id: string;
  locked: boolean;
  asset_id: string | null;
  asset_url: string | null;
  asset_url_expires_at: string | null;
};

/**
 * Lesson media reach only the people the lesson is open to (the curriculum area's one rule: staff, previews,
 * enrolled students once drip opens it), through the signed URL the lesson carries; and courses, lessons, lecturers
 * and the appearance name uploaded assets by id while their URL fields keep working.
 */
for (const engine of engines) {
  for (const backend of backends) {
    describe(`asset references and lesson media (${engine}, ${backend})`, () => {
      let server: TestServer;
      let staffToken: string;
      let staff: Client;
      let enrolledApi: Client;
      let strangerApi: Client;
      let anonymous: Client;
      let enrolled: Person;
      let image: Asset;
      let video: Asset;
      let document: Asset;
      const videoBytes = mp4(80_000);

      before(async () => {
        server = await startStorageServer(engine, backend);
        const people = await schoolWithPeople(server);
        enrolled = await createUser(server, 'student', 'Enrolled Student');
        const all =
          'storage:write courses:read courses:write curriculum:read curriculum:write lecturers:read lecturers:write appearance:read appearance:write';
        staffToken = await tokenFor(server, people.staff, all);
        staff = apiClient(server.url, staffToken);
        enrolledApi = apiClient(server.url, await tokenFor(server, enrolled, all));
        strangerApi = apiClient(server.url, await tokenFor(server, people.student, all));
        anonymous = apiClient(server.url);
        image = await uploadAsset(
          server,
          staffToken,
          { purpose: 'image', filename: 'c.png', content_type: 'image/png' },
          png(8),
        );
        video = await uploadAsset(
          server,
          staffToken,
          { purpose: 'video', filename: 'lesson.mp4', content_type: 'video/mp4' },
          videoBytes,
        );
        document = await uploadAsset(
          server,
          staffToken,
          { purpose: 'pdf', filename: 'notes.pdf', content_type: 'application/pdf' },
          pdf(),
        );
      });
      after(() => server.close());

      const ok = <T>(response: { status: number; body: unknown }, status = 200) => {
        assert.equal(response.status, status, JSON.stringify(response.body));
        return response.body as T;
      };
      const refusedField = (response: { status: number; body: Record<string, unknown> }, field: string) => {
        assert.equal(response.status, 400, JSON.stringify(response.body));
        assert.equal((response.body.errors as { field: string }[])[0]?.field, field);
      };
      /** A published course with one published section holding a published video lesson of `video`. */
      const courseWithVideo = async (visibility: string, lessonBody: Record<string, unknown> = {}) => {
        const course = ok<{ id: string }>(await staff.post('/api/v1/courses', { title: 'Filmed', visibility }), 201);
        const section = ok<{ id: string }>(
          await staff.post(`/api/v1/courses/${course.id}/sections`, { title: 'Part 1' }),
          201,
        );
        ok(await staff.post(`/api/v1/sections/${section.id}/publish`));
        const lesson = ok<Lesson>(
          await staff.post(`/api/v1/sections/${section.id}/lessons`, {
            title: 'Watch',
            type: 'video',
            asset_id: video.id,
            ...lessonBody,
          }),
          201,
        );
        ok(await staff.post(`/api/v1/lessons/${lesson.id}/publish`), 200);
        ok(await staff.post(`/api/v1/courses/${course.id}/publish`));
        return { course, lesson };
      };
      const enroll = (courseId: string, person: Person) =>
        server.database.db
          .insertInto('enrollments')
          .values({
            id: newId('enr'),
            course_id: courseId,
            user_id: person.id,
            source: 'manual',
            status: 'active',
            enrolled_at: new Date().toISOString(),
            expires_at: null,
            completed_at: null,
            progress_percent: 0,
          })
          .execute();

      test('an enrolled student gets a signed URL of the lesson video and can seek in it', async () => {
        const { course, lesson } = await courseWithVideo('public');
        await enroll(course.id, enrolled);
        const seen = ok<Lesson>(await enrolledApi.get(`/api/v1/lessons/${lesson.id}`));
        assert.equal(seen.locked, false);
        assert.equal(seen.asset_id, video.id);
        assert.match(seen.asset_url ?? '', new RegExp(`^${server.url}/media/${video.id}\\?expires=\\d+&signature=`));
        assert.ok(Date.parse(seen.asset_url_expires_at ?? '') > Date.now());
        const part = await fetch(seen.asset_url ?? '', { headers: { range: 'bytes=100-199' } });
        assert.equal(part.status, 206);
        assert.deepEqual(Buffer.from(await part.arrayBuffer()), videoBytes.subarray(100, 200));
      });

      test('a student not enrolled gets no URL (locked lesson), or a 404 for a private course; the bare media address is 404', async () => {
        const open = await courseWithVideo('public');
        const locked = ok<Lesson>(await strangerApi.get(`/api/v1/lessons/${open.lesson.id}`));
        assert.equal(locked.locked, true);
        assert.equal(locked.asset_url, null);
        assert.equal(locked.asset_id, null);
        const asAnonymous = ok<Lesson>(await anonymous.get(`/api/v1/lessons/${open.lesson.id}`));
        assert.equal(asAnonymous.asset_url, null);

        const closed = await courseWithVideo('private');
        assert.equal((await strangerApi.get(`/api/v1/lessons/${closed.lesson.id}`)).status, 404);
        assert.equal((await anonymous.get(`/api/v1/lessons/${closed.lesson.id}`)).status, 404);
        const bare = await fetch(`${server.url}/media/${video.id}`);
        assert.equal(bare.status, 404);
        const guessed = await fetch(`${server.url}/media/${video.id}?expires=9999999999&signature=${'A'.repeat(43)}`);
        assert.equal(guessed.status, 404);
      });

      test('a preview lesson carries its signed URL for everyone who can see the course', async () => {
        const { lesson } = await courseWithVideo('public', { is_preview: true });
        const seen = ok<Lesson>(await anonymous.get(`/api/v1/lessons/${lesson.id}`));
        assert.equal(seen.locked, false);
        assert.equal((await fetch(seen.asset_url ?? '')).status, 200);
      });

      test('a lesson asset must be ready and of the purpose its type needs', async () => {
        const course = ok<{ id: string }>(await staff.post('/api/v1/courses', { title: 'Checks' }), 201);
        const section = ok<{ id: string }>(
          await staff.post(`/api/v1/courses/${course.id}/sections`, { title: 'S' }),
          201,
        );
        const path = `/api/v1/sections/${section.id}/lessons`;
        refusedField(await staff.post(path, { title: 'V', type: 'video', asset_id: document.id }), 'asset_id');
        refusedField(await staff.post(path, { title: 'V', type: 'video', asset_id: newId('ast') }), 'asset_id');
        const pending = ok<Asset>(
          await staff.post('/api/v1/storage/assets', {
            purpose: 'video',
            filename: 'later.mp4',
            content_type: 'video/mp4',
            byte_size: 100,
          }),
          201,
        );
        refusedField(await staff.post(path, { title: 'V', type: 'video', asset_id: pending.id }), 'asset_id');
        const made = ok<Lesson>(await staff.post(path, { title: 'P', type: 'pdf', asset_id: document.id }), 201);
        refusedField(await staff.patch(`/api/v1/lessons/${made.id}`, { type: 'video' }), 'asset_id');
        const download = ok<Lesson>(await staff.patch(`/api/v1/lessons/${made.id}`, { type: 'download' }));
        assert.equal(download.asset_id, document.id);
        const url = ok<Lesson>(
          await staff.patch(`/api/v1/lessons/${made.id}`, { asset_id: null, asset_url: 'https://cdn.example/x.pdf' }),
        );
        assert.equal(url.asset_url, 'https://cdn.example/x.pdf', 'the URL field works as before');
      });

      test('course covers, lecturer avatars and the logo name image assets; their URL fields show them', async () => {
        const media = `${server.url}/media/${image.id}`;
        const course = ok<{ id: string; cover_url: string | null; cover_asset_id: string | null }>(
          await staff.post('/api/v1/courses', {
            title: 'Covered',
            cover_url: 'https://cdn.example/old.png',
            cover_asset_id: image.id,
          }),
          201,
        );
        assert.equal(course.cover_url, media);
        assert.equal(course.cover_asset_id, image.id);
        const back = ok<{ cover_url: string | null }>(
          await staff.patch(`/api/v1/courses/${course.id}`, { cover_asset_id: null }),
        );
        assert.equal(back.cover_url, 'https://cdn.example/old.png');
        refusedField(await staff.patch(`/api/v1/courses/${course.id}`, { cover_asset_id: video.id }), 'cover_asset_id');
        refusedField(await staff.post('/api/v1/courses', { title: 'x', cover_asset_id: 'nope' }), 'cover_asset_id');

        const lecturer = ok<{ id: string; avatar_url: string | null }>(
          await staff.post('/api/v1/lecturers', { name: 'Ada', avatar_asset_id: image.id }),
          201,
        );
        assert.equal(lecturer.avatar_url, media);
        assert.equal(
          ok<{ avatar_url: string }>(await anonymous.get(`/api/v1/lecturers/${lecturer.id}`)).avatar_url,
          media,
        );
        refusedField(
          await staff.patch(`/api/v1/lecturers/${lecturer.id}`, { avatar_asset_id: document.id }),
          'avatar_asset_id',
        );

        const appearance = ok<{ logo_url: string | null; logo_asset_id: string | null }>(
          await staff.patch('/api/v1/appearance', { logo_asset_id: image.id }),
        );
        assert.equal(appearance.logo_url, media);
        assert.equal(ok<{ logo_url: string }>(await anonymous.get('/api/v1/appearance')).logo_url, media);
        const colours = ok<{ logo_url: string | null }>(
          await staff.patch('/api/v1/appearance', { colors: { primary: '#000000' } }),
        );
        assert.equal(colours.logo_url, media, 'other changes keep the logo');
        const cleared = ok<{ logo_url: string | null }>(
          await staff.patch('/api/v1/appearance', { logo_asset_id: null }),
        );
        assert.equal(cleared.logo_url, null);
        refusedField(await staff.patch('/api/v1/appearance', { logo_asset_id: video.id }), 'logo_asset_id');
        const served = await fetch(media);
        assert.equal(served.status, 200);
        assert.equal(served.headers.get('cross-origin-resource-policy'), 'cross-origin');
      });
    });
  }
}
