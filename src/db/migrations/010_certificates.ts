import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/** Certificates of completion: one per person and course, verifiable by anyone who has its code. */
export const certificates: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('certificates')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('code', 'text', (c) => c.notNull().unique())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
      .addColumn('recipient_name', 'text', (c) => c.notNull())
      .addColumn('course_title', 'text', (c) => c.notNull())
      .addColumn('issued_at', 'text', (c) => c.notNull())
      .addColumn('revoked_at', 'text')
      .addColumn('revoked_reason', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addUniqueConstraint('certificates_user_course', ['user_id', 'course_id'])
      .execute();
    await db.schema.createIndex('certificates_course').on('certificates').column('course_id').execute();
  },
};
