import { sql } from 'kysely';

/** The `members` row of the query holds its comped plan at `now`: until the comp's date (no date: until taken back). */
export const compHolds = (now: string) =>
  sql<boolean>`(${sql.ref('members.comp_plan_id')} is not null and (${sql.ref('members.comp_until')} is null or ${sql.ref('members.comp_until')} > ${now}))`;
