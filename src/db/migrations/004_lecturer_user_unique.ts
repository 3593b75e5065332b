import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/** A user is linked to at most one lecturer: the index decides when two links race (NULLs do not collide). */
export const lecturerUserUnique: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex('lecturers_user_id_unique').on('lecturers').column('user_id').unique().execute();
  },
};
