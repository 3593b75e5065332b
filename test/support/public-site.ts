import assert from 'node:assert/strict';
import type { Course } from '../../src/areas/courses/schema.ts';
import { newId } from '../../src/db/ids.ts';
import { apiClient, type Person, schoolWithPeople, tokenFor } from './api.ts';
import { publishWithALesson } from './course-content.ts';
import type { TestServer } from './server.ts';

const SCOPES =
  'courses:read courses:write curriculum:read curriculum:write lecturers:read lecturers:write pages:read pages:write ' +
  'posts:read posts:write appearance:read appearance:write school:read school:write';

/**
 * A school with something of every kind the public site shows, made through the API: courses of every status and
 * visibility (free, paid, closed), a curriculum with a free preview, lecturers (one archived), pages, posts.
 */
export async function publicSiteSchool(server: TestServer) {
  const people = await schoolWithPeople(server);
  const staff = apiClient(server.url, await tokenFor(server, people.staff, SCOPES));
  const ok = async <T>(response: Promise<{ status: number; body: T }>) => {
    const r = await response;
    assert.ok(r.status < 300, JSON.stringify(r.body));
    return r.body;
  };
  await ok(staff.patch('/api/v1/school', { description: 'Painting and languages, taught well.', locale: 'en-GB' }));
  const ada = await ok(
    staff.post<{ id: string; name: string }>('/api/v1/lecturers', {
      name: 'Ada Painter',
      title: 'Oil painter',
      bio: 'Paints every day.',
      email: 'ada@school.test',
    }),
  );
  const gone = await ok(staff.post<{ id: string; name: string }>('/api/v1/lecturers', { name: 'Archie Gone' }));
  await ok(staff.post(`/api/v1/lecturers/${gone.id}/archive`));

  const course = async (body: Record<string, unknown>, publish = true) => {
    const created = await ok(staff.post<Course>('/api/v1/courses', body));
    return publish ? ok(publishWithALesson<Course>(staff, created.id)) : created;
  };
  const oil = await course({
    title: 'Oil Painting',
    subtitle: 'Colour & light',
    description: 'Paint with oils.\n\nFrom the first <stroke>.',
    price: { amount: 4900, currency: 'EUR' },
    cover_url: 'https://images.school.test/oil.jpg',
    lecturer_ids: [ada.id, gone.id],
  });
  const sketching = await course(
    { title: 'Free Sketching', description: 'Pencils only.', lecturer_ids: [ada.id] },
    false,
  );
  const closed = await course({ title: 'Closed Course', enrollment_open: false });
  const unlisted = await course({ title: 'Unlisted Course', visibility: 'unlisted' });
  const hidden = await course({ title: 'Private Course', visibility: 'private' });
  const draft = await course({ title: 'Draft Course' }, false);

  const section = await ok(staff.post<{ id: string }>(`/api/v1/courses/${sketching.id}/sections`, { title: 'Basics' }));
  await ok(staff.post(`/api/v1/sections/${section.id}/publish`));
  const lesson = async (title: string, is_preview: boolean, publish = true) => {
    const l = await ok(
      staff.post<{ id: string }>(`/api/v1/sections/${section.id}/lessons`, {
        title,
        type: 'text',
        body: `${title} body text.\n\nSecond paragraph.`,
        duration_s: 600,
        is_preview,
      }),
    );
    if (publish) await ok(staff.post(`/api/v1/lessons/${l.id}/publish`));
    return l;
  };
  const preview = await lesson('Holding the pencil', true);
  const locked = await lesson('Shading', false);
  const draftLesson = await lesson('Unfinished lesson', true, false);
  await ok(staff.post(`/api/v1/courses/${sketching.id}/publish`));

  const page = async (title: string, body: string, publish = true) => {
    const p = await ok(
      staff.post<{ id: string; slug: string }>('/api/v1/pages', {
        title,
        draft_body: body,
        seo_description: `${title} of the school`,
      }),
    );
    if (publish) await ok(staff.post(`/api/v1/pages/${p.id}/publish`));
    return p;
  };
  const about = await page('About', 'We teach painting.');
  const draftPage = await page('Coming soon', 'Not yet.', false);

  const post = async (body: Record<string, unknown>, publish = true) => {
    const p = await ok(staff.post<{ id: string; slug: string }>('/api/v1/posts', body));
    if (publish) await ok(staff.post(`/api/v1/posts/${p.id}/publish`));
    return p;
  };
  const news = await post({ title: 'Spring term', excerpt: 'New courses this spring.' });
  const draftPost = await post({ title: 'Draft post' }, false);
  const membersPost = await post({ title: 'Members only', visibility: 'members' });

  return {
    people,
    staff,
    lecturers: { ada, gone },
    courses: { oil, sketching, closed, unlisted, hidden, draft },
    lessons: { preview, locked, draftLesson },
    pages: { about, draftPage },
    posts: { news, draftPost, membersPost },
  };
}

/** Enrolls a person straight in the database: the students area's enrollment API is not part of these tests. */
export async function enroll(server: TestServer, person: Pick<Person, 'id'>, courseId: string) {
  await server.database.db
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
}
