import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/** Quiz lessons get their questions (JSON on the lesson), and students' attempts are kept. */
export const quizzes: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('lessons').addColumn('quiz', 'text').execute();
    await db.schema
      .createTable('quiz_attempts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('lesson_id', 'text', (c) => c.notNull().references('lessons.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('answers', 'text', (c) => c.notNull())
      .addColumn('score_percent', 'integer', (c) => c.notNull())
      .addColumn('passed', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('quiz_attempts_lesson_user')
      .on('quiz_attempts')
      .columns(['lesson_id', 'user_id'])
      .execute();
  },
};
