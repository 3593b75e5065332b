import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

const oneOf = (column: string, values: string[]) =>
  sql`${sql.ref(column)} in (${sql.join(values.map((v) => sql.lit(v)))})`;

/** The catalog areas: lecturers, courses with sections and lessons, enrollments, pages, posts, comments, appearance; and idempotency keys. */
export const catalog: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('idempotency_keys')
      .addColumn('owner', 'text', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('route', 'text', (c) => c.notNull())
      .addColumn('request_hash', 'text', (c) => c.notNull())
      .addColumn('status', 'integer', (c) => c.notNull())
      .addColumn('response', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('idempotency_keys_pk', ['owner', 'key'])
      .execute();

    await db.schema
      .createTable('lecturers')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('bio', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('avatar_url', 'text')
      .addColumn('email', 'text')
      .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('status', 'text', (c) =>
        c
          .notNull()
          .defaultTo('active')
          .check(oneOf('status', ['active', 'archived'])),
      )
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('courses')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('title', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('slug', 'text', (c) => c.notNull().unique())
      .addColumn('subtitle', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('cover_url', 'text')
      .addColumn('lecturer_ids', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('price_amount', 'integer')
      .addColumn('price_currency', 'text')
      .addColumn('status', 'text', (c) =>
        c
          .notNull()
          .defaultTo('draft')
          .check(oneOf('status', ['draft', 'published', 'archived'])),
      )
      .addColumn('visibility', 'text', (c) =>
        c
          .notNull()
          .defaultTo('public')
          .check(oneOf('visibility', ['public', 'unlisted', 'private'])),
      )
      .addColumn('enrollment_open', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('published_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('courses_status_visibility')
      .on('courses')
      .columns(['status', 'visibility', 'id'])
      .execute();

    await db.schema
      .createTable('sections')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('drip_type', 'text', (c) =>
        c
          .notNull()
          .defaultTo('none')
          .check(oneOf('drip_type', ['none', 'days_after_enrollment', 'on_date'])),
      )
      .addColumn('drip_days', 'integer')
      .addColumn('drip_date', 'text')
      .addColumn('status', 'text', (c) =>
        c
          .notNull()
          .defaultTo('draft')
          .check(oneOf('status', ['draft', 'published'])),
      )
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('sections_course').on('sections').columns(['course_id', 'position']).execute();

    await db.schema
      .createTable('lessons')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
      .addColumn('section_id', 'text', (c) => c.notNull().references('sections.id').onDelete('cascade'))
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) =>
        c.notNull().check(oneOf('type', ['text', 'video', 'audio', 'pdf', 'download', 'embed', 'quiz'])),
      )
      .addColumn('body', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('asset_url', 'text')
      .addColumn('duration_s', 'integer')
      .addColumn('is_preview', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('status', 'text', (c) =>
        c
          .notNull()
          .defaultTo('draft')
          .check(oneOf('status', ['draft', 'published'])),
      )
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('lessons_section').on('lessons').columns(['section_id', 'position']).execute();
    await db.schema.createIndex('lessons_course').on('lessons').column('course_id').execute();

    await db.schema
      .createTable('enrollments')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('course_id', 'text', (c) => c.notNull().references('courses.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('source', 'text', (c) =>
        c.notNull().check(oneOf('source', ['manual', 'order', 'subscription', 'import'])),
      )
      .addColumn('status', 'text', (c) =>
        c
          .notNull()
          .defaultTo('active')
          .check(oneOf('status', ['active', 'completed', 'expired', 'revoked'])),
      )
      .addColumn('enrolled_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text')
      .addColumn('completed_at', 'text')
      .addColumn('progress_percent', 'integer', (c) => c.notNull().defaultTo(0))
      .addUniqueConstraint('enrollments_course_user', ['course_id', 'user_id'])
      .execute();
    await db.schema.createIndex('enrollments_user').on('enrollments').column('user_id').execute();

    await db.schema
      .createTable('pages')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('slug', 'text', (c) => c.notNull().unique())
      .addColumn('draft_body', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('published_body', 'text')
      .addColumn('seo_title', 'text')
      .addColumn('seo_description', 'text')
      .addColumn('status', 'text', (c) =>
        c
          .notNull()
          .defaultTo('draft')
          .check(oneOf('status', ['draft', 'published'])),
      )
      .addColumn('published_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('posts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('slug', 'text', (c) => c.notNull().unique())
      .addColumn('body', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('excerpt', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('cover_url', 'text')
      .addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('visibility', 'text', (c) =>
        c
          .notNull()
          .defaultTo('public')
          .check(oneOf('visibility', ['public', 'members', 'plans'])),
      )
      .addColumn('plan_ids', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('status', 'text', (c) =>
        c
          .notNull()
          .defaultTo('draft')
          .check(oneOf('status', ['draft', 'scheduled', 'published'])),
      )
      .addColumn('scheduled_at', 'text')
      .addColumn('published_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('posts_schedule').on('posts').columns(['status', 'scheduled_at']).execute();

    await db.schema
      .createTable('comments')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('target_type', 'text', (c) => c.notNull().check(oneOf('target_type', ['post', 'lesson'])))
      .addColumn('target_id', 'text', (c) => c.notNull())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('parent_id', 'text', (c) => c.references('comments.id').onDelete('cascade'))
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) =>
        c
          .notNull()
          .defaultTo('visible')
          .check(oneOf('status', ['visible', 'hidden', 'deleted'])),
      )
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('comments_target').on('comments').columns(['target_type', 'target_id']).execute();

    await db.schema
      .createTable('appearance')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('logo_url', 'text')
      .addColumn('colors', 'text', (c) => c.notNull())
      .addColumn('fonts', 'text', (c) => c.notNull())
      .addColumn('navigation', 'text', (c) => c.notNull())
      .addColumn('custom_css', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
  },
};
