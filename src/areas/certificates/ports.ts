import type { Executor } from '../../db/tables.ts';

/** What certificates need of the courses area: the title printed on a new certificate. */
export type CourseFactsPort = { facts(ex: Executor, ids: string[]): Promise<{ id: string; title: string }[]> };
