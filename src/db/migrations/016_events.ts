import { type Kysely, sql } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * Live events: the event (its time and zone, where it is held, seats, who may register), its lecturers in order, the
 * registrations, and each person's calendar feed.
 *
 * A person holds at most one live (not canceled) registration per event: a partial unique index, so a canceled one
 * stays as history and registering again makes a new row. The waitlist order is the id order of the waitlisted rows
 * (ids are time-ordered), so no position is stored and none needs renumbering. `reminded_at` records the reminder
 * sent for the event's current time (a move clears it); `sequence` counts the changes calendars must pick up.
 */
export const events: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('events')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('slug', 'text', (c) => c.notNull().unique())
      .addColumn('description', 'text', (c) => c.notNull())
      .addColumn('starts_at', 'text', (c) => c.notNull())
      .addColumn('ends_at', 'text', (c) => c.notNull())
      .addColumn('timezone', 'text', (c) => c.notNull())
      .addColumn('address', 'text')
      .addColumn('join_url', 'text')
      .addColumn('join_opens_minutes', 'integer', (c) => c.notNull())
      .addColumn('capacity', 'integer')
      .addColumn('course_id', 'text', (c) => c.references('courses.id'))
      .addColumn('plan_id', 'text', (c) => c.references('membership_plans.id'))
      .addColumn('visibility', 'text', (c) => c.notNull())
      .addColumn('sequence', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('canceled_at', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('events_starts').on('events').columns(['starts_at', 'id']).execute();
    await db.schema.createIndex('events_course').on('events').column('course_id').execute();
    await db.schema
      .createTable('event_lecturers')
      .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
      .addColumn('lecturer_id', 'text', (c) => c.notNull().references('lecturers.id'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('event_lecturers_pk', ['event_id', 'lecturer_id'])
      .execute();
    await db.schema
      .createTable('event_registrations')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('attended', 'integer')
      .addColumn('registered_at', 'text', (c) => c.notNull())
      .addColumn('promoted_at', 'text')
      .addColumn('canceled_at', 'text')
      .addColumn('cancel_reason', 'text')
      .addColumn('reminded_at', 'text')
      .execute();
    await db.schema
      .createIndex('event_registrations_live')
      .on('event_registrations')
      .columns(['event_id', 'user_id'])
      .unique()
      .where(sql.ref('status'), '!=', 'canceled')
      .execute();
    await db.schema
      .createIndex('event_registrations_event')
      .on('event_registrations')
      .columns(['event_id', 'status', 'id'])
      .execute();
    await db.schema
      .createIndex('event_registrations_user')
      .on('event_registrations')
      .columns(['user_id', 'id'])
      .execute();
    await db.schema
      .createTable('calendar_feeds')
      .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('nonce', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
  },
};
