import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * The students area: which lessons each person completed (progress is derived from it), and the index the student
 * list walks (users of role student, in id order).
 */
export const students: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('lesson_progress')
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('lesson_id', 'text', (c) => c.notNull().references('lessons.id').onDelete('cascade'))
      .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
      .addColumn('completed_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('lesson_progress_pk', ['user_id', 'lesson_id'])
      .execute();
    await db.schema
      .createIndex('lesson_progress_user_course')
      .on('lesson_progress')
      .columns(['user_id', 'course_id'])
      .execute();
    await db.schema.createIndex('users_role').on('users').columns(['role', 'id']).execute();
  },
};
