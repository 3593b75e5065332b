import { sql } from 'kysely';
import { coursesInEveryPlan } from '../areas/courses/in-every-plan.ts';
import { includedCourses } from '../areas/membership-plans/included-courses.ts';
import type { Db } from '../db/tables.ts';

/** What one course contributes to the agent documents: public facts and its published curriculum's size. */
export type CatalogCourse = {
  id: string;
  title: string;
  slug: string;
  subtitle: string;
  description: string;
  price: { amount: number; currency: string } | null;
  updated_at: string;
};

export type CourseSize = { lessons: number; duration_s: number };

/** A public, active membership plan with its active prices and what it includes, as the agent documents show it. */
export type CatalogPlan = {
  id: string;
  name: string;
  slug: string;
  description: string;
  prices: {
    id: string;
    amount: number;
    currency: string;
    interval: 'month' | 'year' | 'one_time';
    trial_days: number;
  }[];
  courses: string[];
  products: string[];
};

/** A published digital product. */
export type CatalogProduct = {
  id: string;
  title: string;
  slug: string;
  description: string;
  price: { amount: number; currency: string } | null;
  files: number;
};

/** The reads behind /llms.txt, /llms-full.txt and /pricing.md: only what anonymous callers may see. */
export function catalogStore() {
  const publicCourses = (db: Db) =>
    db.selectFrom('courses').where('status', '=', 'published').where('visibility', '=', 'public');
  const toCourse = (row: {
    id: string;
    title: string;
    slug: string;
    subtitle: string;
    description: string;
    price_amount: number | null;
    price_currency: string | null;
    updated_at: string;
  }): CatalogCourse => ({
    id: row.id,
    title: row.title,
    slug: row.slug,
    subtitle: row.subtitle,
    description: row.description,
    price:
      row.price_amount === null || row.price_currency === null
        ? null
        : { amount: Number(row.price_amount), currency: row.price_currency },
    updated_at: row.updated_at,
  });
  const courseColumns = [
    'id',
    'title',
    'slug',
    'subtitle',
    'description',
    'price_amount',
    'price_currency',
    'updated_at',
  ] as const;

  /** One batch of public courses, newest first, after the cursor id (ids are time-ordered). */
  async function publicCoursesBefore(db: Db, beforeId: string | undefined, limit: number) {
    let query = publicCourses(db).select(courseColumns).orderBy('id', 'desc').limit(limit);
    if (beforeId) query = query.where('id', '<', beforeId);
    return (await query.execute()).map(toCourse);
  }

  return {
    /** The newest public courses (ids are time-ordered), at most `limit`, and how many there are in all. */
    async newestCourses(db: Db, limit: number) {
      const [courses, count] = await Promise.all([
        publicCoursesBefore(db, undefined, limit),
        publicCourses(db)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow(),
      ]);
      return { courses, total: Number(count.n) };
    },

    publicCoursesBefore,

    /**
     * Published lessons in published sections, and their total duration, per public course: one aggregate query,
     * for the given courses or for an id range (which the lessons' course_id index serves better than a long IN list).
     */
    async courseSizes(db: Db, courses: string[] | { from: string; to: string }): Promise<Map<string, CourseSize>> {
      if (Array.isArray(courses) && courses.length === 0) return new Map();
      let query = db
        .selectFrom('lessons as l')
        .innerJoin('sections as s', 's.id', 'l.section_id')
        .innerJoin('courses as c', 'c.id', 'l.course_id')
        .where('l.status', '=', 'published')
        .where('s.status', '=', 'published')
        .where('c.status', '=', 'published')
        .where('c.visibility', '=', 'public')
        .select([
          'l.course_id',
          (eb) => eb.fn.countAll<number>().as('lessons'),
          (eb) => eb.fn.coalesce(eb.fn.sum<number>('l.duration_s'), sql<number>`0`).as('duration_s'),
        ])
        .groupBy('l.course_id');
      query = Array.isArray(courses)
        ? query.where('l.course_id', 'in', courses)
        : query.where('l.course_id', '>=', courses.from).where('l.course_id', '<=', courses.to);
      const rows = await query.execute();
      return new Map(rows.map((r) => [r.course_id, { lessons: Number(r.lessons), duration_s: Number(r.duration_s) }]));
    },

    /** Section and lesson titles of the given courses, in order, for the outlines of /llms-full.txt. */
    async outlines(db: Db, courseIds: string[]) {
      if (courseIds.length === 0) return [];
      return db
        .selectFrom('lessons as l')
        .innerJoin('sections as s', 's.id', 'l.section_id')
        .where('l.course_id', 'in', courseIds)
        .where('l.status', '=', 'published')
        .where('s.status', '=', 'published')
        .select([
          'l.course_id',
          's.id as section_id',
          's.title as section_title',
          'l.title',
          'l.type',
          'l.duration_s',
          'l.is_preview',
        ])
        .orderBy('l.course_id')
        .orderBy('s.position')
        .orderBy('l.position')
        .execute();
    },

    async newestPosts(db: Db, limit: number) {
      const published = db.selectFrom('posts').where('status', '=', 'published').where('visibility', '=', 'public');
      const [rows, count] = await Promise.all([
        published
          .select(['id', 'title', 'slug', 'excerpt', 'published_at', 'updated_at'])
          .orderBy('published_at', 'desc')
          .orderBy('id', 'desc')
          .limit(limit)
          .execute(),
        published.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { posts: rows, total: Number(count.n) };
    },

    /** Public active plans (at most `limit`), each with its active prices and the titles of what it includes. */
    async publicPlans(db: Db, limit: number): Promise<CatalogPlan[]> {
      const plans = await db
        .selectFrom('membership_plans')
        .where('status', '=', 'active')
        .where('visibility', '=', 'public')
        .select(['id', 'name', 'slug', 'description'])
        .orderBy('id')
        .limit(limit)
        .execute();
      const ids = plans.map((p) => p.id);
      if (ids.length === 0) return [];
      const [prices, courses, products] = await Promise.all([
        db
          .selectFrom('plan_prices')
          .where('plan_id', 'in', ids)
          .where('status', '=', 'active')
          .select(['id', 'plan_id', 'amount', 'currency', 'interval', 'trial_days'])
          .orderBy('id')
          .execute(),
        db
          .selectFrom(includedCourses(db, ids, coursesInEveryPlan))
          .innerJoin('courses as c', 'c.id', 'included.course_id')
          .where('c.status', '=', 'published')
          .where('c.visibility', '=', 'public')
          .select(['included.plan_id', 'c.title'])
          .orderBy('c.title')
          .execute(),
        db
          .selectFrom('plan_products as pp')
          .innerJoin('products as p', 'p.id', 'pp.product_id')
          .where('pp.plan_id', 'in', ids)
          .where('p.status', '=', 'published')
          .select(['pp.plan_id', 'p.title'])
          .orderBy('p.title')
          .execute(),
      ]);
      return plans.map((plan) => ({
        ...plan,
        prices: prices
          .filter((p) => p.plan_id === plan.id)
          .map((p) => ({
            id: p.id,
            amount: Number(p.amount),
            currency: p.currency,
            interval: p.interval,
            trial_days: Number(p.trial_days),
          })),
        courses: courses.filter((c) => c.plan_id === plan.id).map((c) => c.title),
        products: products.filter((p) => p.plan_id === plan.id).map((p) => p.title),
      }));
    },

    /** Published digital products (at most `limit`), newest first, with how many files each has. */
    async publishedProducts(db: Db, limit: number): Promise<CatalogProduct[]> {
      const rows = await db
        .selectFrom('products as p')
        .where('p.status', '=', 'published')
        .select([
          'p.id',
          'p.title',
          'p.slug',
          'p.description',
          'p.price_amount',
          'p.price_currency',
          (eb) =>
            eb
              .selectFrom('product_files as f')
              .whereRef('f.product_id', '=', 'p.id')
              .select((e) => e.fn.countAll<number>().as('n'))
              .as('files'),
        ])
        .orderBy('p.id', 'desc')
        .limit(limit)
        .execute();
      return rows.map((r) => ({
        id: r.id,
        title: r.title,
        slug: r.slug,
        description: r.description,
        price:
          r.price_amount === null || r.price_currency === null
            ? null
            : { amount: Number(r.price_amount), currency: r.price_currency },
        files: Number(r.files ?? 0),
      }));
    },

    /** The published pages among `slugs` (the terms and privacy pages a school may publish instead of URLs). */
    async publishedPages(db: Db, slugs: string[]) {
      return db
        .selectFrom('pages')
        .where('status', '=', 'published')
        .where('slug', 'in', slugs)
        .select(['slug'])
        .execute();
    },

    async pages(db: Db, limit: number) {
      return db
        .selectFrom('pages')
        .where('status', '=', 'published')
        .select(['id', 'title', 'slug', 'seo_description', 'updated_at'])
        .orderBy('title')
        .limit(limit)
        .execute();
    },
  };
}

export type CatalogStore = ReturnType<typeof catalogStore>;
