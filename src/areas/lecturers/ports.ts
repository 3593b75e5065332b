import type { Executor } from '../../db/tables.ts';

/** What lecturers need of the courses area: the courses listing a lecturer, which keep it from being deleted. */
export type CoursesPort = { idsListingLecturer(ex: Executor, lecturerId: string): Promise<string[]> };
