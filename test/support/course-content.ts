import assert from 'node:assert/strict';
import type { ApiResponse, apiClient } from './api.ts';

type Api = ReturnType<typeof apiClient>;

/** The scopes `publishWithALesson` needs. */
export const CONTENT_SCOPES = 'courses:write curriculum:write';

/**
 * Gives a course something to learn (a section holding one text lesson) and publishes it with them — a course is
 * published only with a published lesson in a published section — answering as the publish does. The token needs
 * CONTENT_SCOPES.
 */
export async function publishWithALesson<T = Record<string, unknown>>(
  api: Api,
  courseId: string,
  title = 'Welcome',
): Promise<ApiResponse<T>> {
  const section = await api.post<{ id: string }>(`/api/v1/courses/${courseId}/sections`, { title: 'Getting started' });
  assert.equal(section.status, 201, JSON.stringify(section.body));
  const lesson = await api.post(`/api/v1/sections/${section.body.id}/lessons`, {
    title,
    type: 'text',
    body: `${title}: what this course is about.`,
  });
  assert.equal(lesson.status, 201, JSON.stringify(lesson.body));
  return api.post<T>(`/api/v1/courses/${courseId}/publish-with-contents`);
}
