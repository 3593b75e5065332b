import { newId } from '../../db/ids.ts';
import { insertWith } from '../../db/request-writes.ts';
import type { CoursesTable, Executor } from '../../db/tables.ts';
import { errors } from '../../http/errors.ts';
import { ANONYMOUS, isStaff, type Principal } from '../../http/principal.ts';
import type { AreaDeps } from '../deps.ts';
import { paginate } from '../pagination.ts';
import type { References } from '../references.ts';
import { slugRules } from '../slugs.ts';
import type { StorageService } from '../storage/service.ts';
import type { ContentsPort, EnrollmentsPort } from './ports.ts';
import { isRankedCursor, rankedCursorWithoutSearch } from './ranked-cursor.ts';
import type { Course, CourseCreate, CourseListQuery, CourseUpdate } from './schema.ts';
import { type Listed, type SearchQuery, searchCourses } from './search.ts';
import type { CoursesStore } from './store.ts';

/** Why a course with nothing to learn is not published; the sentence says what to do, for people and apps alike. */
const NOTHING_TO_LEARN =
  'A course needs at least one published lesson in a published section before it can be published or sold. ' +
  'Publish a lesson and its section first, or publish the course together with its sections and lessons.';

/** How many of the latest enrollments decide which courses are popular. */
const POPULAR_WINDOW = 10_000;

/** A course as the API shows it; `mediaUrl` gives the URL of its cover asset. */
export function courseOf(row: CoursesTable, mediaUrl: (assetId: string) => string): Course {
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    subtitle: row.subtitle,
    description: row.description,
    cover_url: row.cover_asset_id ? mediaUrl(row.cover_asset_id) : row.cover_url,
    cover_asset_id: row.cover_asset_id ?? null,
    lecturer_ids: JSON.parse(row.lecturer_ids) as string[],
    price:
      row.price_amount === null || row.price_currency === null
        ? null
        : { amount: Number(row.price_amount), currency: row.price_currency },
    status: row.status,
    visibility: row.visibility,
    enrollment_open: Number(row.enrollment_open) === 1,
    outcomes: JSON.parse(row.outcomes ?? '[]') as string[],
    audience: JSON.parse(row.audience ?? '[]') as string[],
    requirements: JSON.parse(row.requirements ?? '[]') as string[],
    trailer_url: row.trailer_url ?? null,
    published_at: row.published_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The course page's lists (blank lines dropped) and trailer, as columns: only those given. */
function pageFields(input: CourseUpdate): Partial<CoursesTable> {
  const lines = (list: string[]) => JSON.stringify(list.map((line) => line.trim()).filter(Boolean));
  return {
    ...(input.outcomes ? { outcomes: lines(input.outcomes) } : {}),
    ...(input.audience ? { audience: lines(input.audience) } : {}),
    ...(input.requirements ? { requirements: lines(input.requirements) } : {}),
    ...(input.trailer_url !== undefined ? { trailer_url: input.trailer_url } : {}),
  };
}

/**
 * Courses. Anonymous callers see published public courses (and unlisted ones by id or slug); a student also sees the
 * courses they are enrolled in; staff see everything. Anything else is 404, never 403.
 */
export function coursesService(
  deps: AreaDeps & {
    store: CoursesStore;
    onChange: () => void;
    /** In the transaction that published, unpublished or archived a course: what follows from it elsewhere. */
    onStatusChange: (trx: Executor) => Promise<void>;
    storage: StorageService;
    enrollments: EnrollmentsPort;
    contents: ContentsPort;
    /** Lecturers named in a course are checked with the lecturers area. */
    references: References;
  },
) {
  const { db, clock, store, storage, enrollments } = deps;
  const toCourse = (row: CoursesTable) => courseOf(row, storage.publicUrl);
  const now = () => clock.now().toISOString();
  const notFound = () => errors.notFound('course');

  /**
   * The one rule of who sees which courses, as data both paths use (the row check below and the list query): staff
   * see everything; anyone else sees published courses of the given visibilities — public ones when listing, also
   * unlisted ones when asked by id or slug — and, signed in, the non-draft courses they are enrolled in.
   */
  function viewOf(principal: Principal, listing: boolean) {
    const visibilities: CoursesTable['visibility'][] = listing ? ['public'] : ['public', 'unlisted'];
    /** The courses the caller is enrolled in (only `courseId`, when given); read only when the rest does not decide. */
    const enrolled = async (courseId?: string): Promise<string[]> =>
      principal.kind === 'user' ? enrollments.enrolledCourseIds(db, principal.userId, now(), courseId) : [];
    return { all: isStaff(principal), visibilities, enrolled };
  }

  /** Seen without asking about enrollments: staff, or a published course of the view's visibilities. */
  const openTo = (view: ReturnType<typeof viewOf>, row: CoursesTable) =>
    view.all || (row.status === 'published' && view.visibilities.includes(row.visibility));

  async function visibleTo(principal: Principal, row: CoursesTable, listing: boolean): Promise<boolean> {
    const view = viewOf(principal, listing);
    return openTo(view, row) || (row.status !== 'draft' && (await view.enrolled(row.id)).includes(row.id));
  }

  async function loadForWrite(id: string) {
    const row = await store.findById(db, id);
    if (!row) throw notFound();
    return row;
  }

  async function checkLecturers(ids: string[] | undefined) {
    if (!ids?.length) return;
    const found = await deps.references.existing(db, 'lecturer', ids);
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length) {
      throw errors.invalidRequest(
        `Unknown lecturer ${missing.join(', ')}; create the lecturer first (POST /api/v1/lecturers).`,
        [{ field: 'lecturer_ids', code: 'not_found', message: `Unknown lecturer ${missing.join(', ')}` }],
      );
    }
  }

  const slugs = slugRules('course', (slug, exceptId) => store.slugTaken(db, slug, exceptId));

  /**
   * Moves a course to `to` from one of `from`. Publishing holds the course's lock (the one every curriculum write
   * takes) while it checks that a student would find a lesson, after publishing the drafts with it when asked.
   */
  async function transition(
    id: string,
    to: CoursesTable['status'],
    from: CoursesTable['status'][],
    options: { withContents?: boolean } = {},
  ) {
    for (;;) {
      const row = await loadForWrite(id);
      if (row.status === to && !options.withContents) return toCourse(row);
      if (row.status !== to && !from.includes(row.status)) {
        throw errors.conflict(`A ${row.status} course cannot become ${to}.`);
      }
      if (to === 'published' && !row.title.trim()) {
        throw errors.conflict('A course needs a title before it can be published; give it one first.');
      }
      const changes: Partial<CoursesTable> = { status: to, updated_at: now() };
      if (to === 'published' && !row.published_at) changes.published_at = now();
      // The state read above may be stale by now: the write itself re-checks it, and if it lost a race the rule is
      // judged again on the fresh row.
      const changed = await db.transaction().execute(async (trx) => {
        if (to === 'published') {
          await store.lock(trx, id);
          if (options.withContents) await deps.contents.publishDrafts(trx, id, now());
          if ((await deps.contents.publishedLessonCount(trx, id)) === 0) throw errors.conflict(NOTHING_TO_LEARN);
        }
        if (!(await store.updateWhile(trx, id, [row.status], changes, to === 'published'))) return false;
        await deps.onStatusChange(trx);
        return true;
      });
      if (changed) {
        deps.onChange();
        return toCourse({ ...row, ...changes });
      }
    }
  }

  /**
   * The list's query without its order and page: its filters and the caller's view (the rule of `viewOf`), shared by
   * the list in id order and the ranked search; and whether it picks just what anyone is listed (published public
   * courses, no other filter), which the search index can answer alone.
   */
  async function listed(principal: Principal, query: CourseListQuery): Promise<Listed> {
    let q = store.baseQuery(db);
    if (query.status) q = q.where('status', '=', query.status);
    if (query.visibility) q = q.where('visibility', '=', query.visibility);
    if (query.lecturer_id) q = q.where('lecturer_ids', 'like', `%"${query.lecturer_id}"%`);
    if (query.price) q = q.where('price_amount', query.price === 'free' ? 'is' : 'is not', null);
    const view = viewOf(principal, true);
    if (view.all) return { filtered: q, listedOnly: false };
    const enrolled = await view.enrolled();
    const filtered = q.where((eb) => {
      const listed = eb.and([eb('status', '=', 'published'), eb('visibility', 'in', view.visibilities)]);
      if (!enrolled.length) return listed;
      const mine = eb.and([eb('id', 'in', enrolled), eb('status', '!=', 'draft')]);
      // Wrapped in CASE so neither engine answers the OR by merging two index lookups and sorting every listed
      // course (65 ms at 100,000 courses on SQLite): walking the id index in page order stops at the page's end.
      return eb(
        eb
          .case()
          .when(eb.or([listed, mine]))
          .then(1)
          .else(0)
          .end(),
        '=',
        1,
      );
    });
    const narrowed = query.lecturer_id || query.price || (query.status ?? 'published') !== 'published';
    const publicListing = !enrolled.length && view.visibilities.join() === 'public' && !narrowed;
    return { filtered, listedOnly: publicListing && (query.visibility ?? 'public') === 'public' };
  }

  const search = async (principal: Principal, query: SearchQuery) =>
    searchCourses({ db, engine: deps.config.database.engine, toCourse }, await listed(principal, query), query);

  return {
    /**
     * Serialises every position change of one course's curriculum (the curriculum area takes it first in each such
     * transaction): one lock per course, so two sections' lessons can be moved at once without deadlock.
     */
    lock: (trx: Executor, id: string) => store.lock(trx, id),

    async list(principal: Principal, query: CourseListQuery) {
      if (query.q !== undefined) {
        const { previous_cursor: _, ...page } = await search(principal, { ...query, q: query.q });
        return page;
      }
      if (query.starting_after !== undefined && isRankedCursor(query.starting_after)) throw rankedCursorWithoutSearch();
      const page = await paginate((await listed(principal, query)).filtered, query, 'id', 'created_at');
      return { ...page, data: page.data.map(toCourse) };
    },

    /** The list's `q=`: ranked, with a count and snippets; the site pages it both ways (`ending_before`). */
    search,

    async get(principal: Principal, key: string) {
      const row = await store.findByIdOrSlug(db, key);
      if (!row || !(await visibleTo(principal, row, false))) throw notFound();
      return toCourse(row);
    },

    /**
     * The courses of the public listing (what anonymous callers are listed) that most of the school's latest
     * POPULAR_WINDOW enrollments went to — what people enroll in now — most first; courses none of them went to are
     * left out. The school's home page features them.
     */
    async mostEnrolled(limit: number) {
      // Leaders beyond `limit`, since some of them may not be listed (drafts, private courses).
      const leaders = await enrollments.enrollmentLeaders(db, now(), limit * 5, POPULAR_WINDOW);
      const rows = await store.publishedAmong(
        db,
        leaders.map((l) => l.courseId),
        viewOf(ANONYMOUS, true).visibilities,
      );
      const byId = new Map(rows.map((row) => [row.id, row]));
      return leaders
        .flatMap((l) => byId.get(l.courseId) ?? [])
        .slice(0, limit)
        .map(toCourse);
    },

    /** Whether a caller may see a course's content (used by the curriculum area). */
    visibleTo,

    /** The courses among `ids` the caller may see by the rule of `get`, in the order of `ids`: two reads at most. */
    async visibleAmong(principal: Principal, ids: string[]) {
      const view = viewOf(principal, false);
      const rows = await store.findByIds(db, [...new Set(ids)]);
      const asked = rows.filter((row) => !openTo(view, row) && row.status !== 'draft');
      const enrolled = new Set(asked.length ? await view.enrolled() : []);
      const byId = new Map(
        rows
          .filter((row) => openTo(view, row) || (row.status !== 'draft' && enrolled.has(row.id)))
          .map((row) => [row.id, row]),
      );
      return ids.flatMap((id) => byId.get(id) ?? []).map(toCourse);
    },

    async create(input: CourseCreate) {
      await checkLecturers(input.lecturer_ids);
      if (input.cover_asset_id) await storage.requireReady('cover_asset_id', input.cover_asset_id, ['image']);
      const title = input.title.trim();
      const slug = await slugs.choose(input.slug, title);
      const at = now();
      const row: CoursesTable = {
        id: newId('crs'),
        title,
        slug,
        subtitle: input.subtitle ?? '',
        description: input.description ?? '',
        cover_url: input.cover_url ?? null,
        cover_asset_id: input.cover_asset_id ?? null,
        lecturer_ids: JSON.stringify(input.lecturer_ids ?? []),
        price_amount: input.price?.amount ?? null,
        price_currency: input.price?.currency ?? null,
        status: 'draft',
        visibility: input.visibility ?? 'public',
        enrollment_open: input.enrollment_open === false ? 0 : 1,
        published_at: null,
        created_at: at,
        updated_at: at,
      };
      const created = await slugs.write(slug, () =>
        insertWith(db, deps.writes, (ex) => store.insert(ex, row), toCourse(row)),
      );
      deps.onChange();
      return created;
    },

    async update(id: string, input: CourseUpdate) {
      const row = await loadForWrite(id);
      await checkLecturers(input.lecturer_ids);
      if (input.cover_asset_id) await storage.requireReady('cover_asset_id', input.cover_asset_id, ['image']);
      await slugs.assertFree(input.slug, id);
      if (row.status === 'published' && input.title !== undefined && !input.title.trim()) {
        throw errors.conflict('A published course needs a title; unpublish it first to clear the title.');
      }
      const changes: Partial<CoursesTable> = { updated_at: now() };
      if (input.title !== undefined) changes.title = input.title.trim();
      if (input.slug !== undefined) changes.slug = input.slug;
      if (input.subtitle !== undefined) changes.subtitle = input.subtitle;
      if (input.description !== undefined) changes.description = input.description;
      if (input.cover_url !== undefined) changes.cover_url = input.cover_url;
      if (input.cover_asset_id !== undefined) changes.cover_asset_id = input.cover_asset_id;
      if (input.lecturer_ids !== undefined) changes.lecturer_ids = JSON.stringify(input.lecturer_ids);
      if (input.price !== undefined) {
        changes.price_amount = input.price?.amount ?? null;
        changes.price_currency = input.price?.currency ?? null;
      }
      if (input.visibility !== undefined) changes.visibility = input.visibility;
      if (input.enrollment_open !== undefined) changes.enrollment_open = input.enrollment_open ? 1 : 0;
      Object.assign(changes, pageFields(input));
      if (changes.title === '') {
        // Clearing the title is allowed only while unpublished, decided by the write itself (a publish may race it).
        const cleared = await slugs.write(input.slug, () => store.updateWhile(db, id, ['draft', 'archived'], changes));
        if (!cleared) throw errors.conflict('A published course needs a title; unpublish it first to clear the title.');
      } else await slugs.write(input.slug, () => store.update(db, id, changes));
      deps.onChange();
      return toCourse({ ...row, ...changes });
    },

    async delete(id: string) {
      if (await store.deleteDraft(db, id)) {
        deps.onChange();
        return;
      }
      const row = await loadForWrite(id);
      throw errors.conflict(
        `Only draft courses can be deleted; this one is ${row.status}. Archive it instead (POST /api/v1/courses/${id}/archive).`,
      );
    },

    publish: (id: string) => transition(id, 'published', ['draft', 'archived']),
    /** Publishes the course and, in the same transaction, its draft sections and lessons. */
    publishWithContents: (id: string) => transition(id, 'published', ['draft', 'archived'], { withContents: true }),
    unpublish: (id: string) => transition(id, 'draft', ['published']),
    archive: (id: string) => transition(id, 'archived', ['draft', 'published']),
  };
}

export type CoursesService = ReturnType<typeof coursesService>;
