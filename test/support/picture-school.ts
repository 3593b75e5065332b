import assert from 'node:assert/strict';
import type { Course } from '../../src/areas/courses/schema.ts';
import { apiClient, schoolWithPeople, tokenFor } from './api.ts';
import { CONTENT_SCOPES, publishWithALesson } from './course-content.ts';
import { photo } from './images.ts';
import type { TestServer } from './server.ts';
import { uploadAsset } from './storage.ts';

const SCOPES = `${CONTENT_SCOPES} courses:read lecturers:write posts:write storage:write school:write`;

/**
 * A school whose pages show pictures, made through the API: courses with uploaded covers and courses without (for
 * generated covers), a lecturer with a portrait, a public post and a members' post with feature images; the variants
 * of every upload made (the jobs run) before it returns.
 */
export async function pictureSchool(server: TestServer) {
  const people = await schoolWithPeople(server);
  const token = await tokenFor(server, people.staff, SCOPES);
  const staff = apiClient(server.url, token);
  const ok = async <T>(response: Promise<{ status: number; body: T }>) => {
    const r = await response;
    assert.ok(r.status < 300, JSON.stringify(r.body));
    return r.body;
  };
  await ok(staff.patch('/api/v1/school', { name: 'Atelier North', locale: 'en-GB' }));
  const upload = async (name: string, width: number, height: number, hue: number) =>
    uploadAsset(
      server,
      token,
      { purpose: 'image', filename: name, content_type: 'image/jpeg' },
      await photo(width, height, hue),
    );

  const portrait = await upload('ada.jpg', 600, 600, 30);
  const ada = await ok(
    staff.post<{ id: string }>('/api/v1/lecturers', {
      name: 'Ada Painter',
      title: 'Botanical artist',
      avatar_asset_id: portrait.id,
    }),
  );
  const course = async (title: string, cover?: { width: number; height: number; hue: number }) => {
    const asset = cover ? await upload(`${title}.jpg`, cover.width, cover.height, cover.hue) : undefined;
    const created = await ok(
      staff.post<Course>('/api/v1/courses', {
        title,
        subtitle: `A course of ${title.toLowerCase()}`,
        price: { amount: 4900, currency: 'EUR' },
        lecturer_ids: [ada.id],
        ...(asset ? { cover_asset_id: asset.id } : {}),
      }),
    );
    return ok(publishWithALesson<Course>(staff, created.id));
  };
  const courses = {
    botanical: await course('Botanical Illustration', { width: 1600, height: 1000, hue: 110 }),
    italian: await course('Italian in 30 Days'),
    pottery: await course('Wheel-thrown Pottery for Beginners'),
    watercolour: await course('Watercolour Landscapes', { width: 1200, height: 900, hue: 200 }),
    bookbinding: await course('Bookbinding by Hand'),
    jazz: await course('Jazz Piano'),
  };
  const draft = await ok(staff.post<Course>('/api/v1/courses', { title: 'Unfinished Course' }));

  const feature = await upload('firing.jpg', 1400, 800, 15);
  const post = async (title: string, visibility: string) => {
    const created = await ok(
      staff.post<{ id: string; slug: string }>('/api/v1/posts', {
        title,
        body: `${title}: a few words.`,
        visibility,
        cover_url: feature.url,
      }),
    );
    await ok(staff.post(`/api/v1/posts/${created.id}/publish`));
    return created;
  };
  const posts = { open: await post('Firing day', 'public'), members: await post('For members only', 'members') };
  await server.services.jobs.runDue();
  return { people, staff, ada, portrait, courses, draft, posts, feature };
}
