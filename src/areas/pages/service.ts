import { newId } from '../../db/ids.ts';
import { insertWith } from '../../db/request-writes.ts';
import type { Executor, PagesTable } from '../../db/tables.ts';
import { matchesText } from '../../db/text-search.ts';
import { errors } from '../../http/errors.ts';
import { isStaff, type Principal } from '../../http/principal.ts';
import type { AreaDeps } from '../deps.ts';
import { paginate } from '../pagination.ts';
import { withRowLock } from '../row-locks.ts';
import { slugRules } from '../slugs.ts';
import type { Page, PageCreate, PageListQuery, PageUpdate } from './schema.ts';
import type { PagesStore } from './store.ts';

/** The API view of a page: the draft body is the editors' working copy, so only staff get it. */
function toPage(row: PagesTable, staff: boolean): Page {
  return {
    id: row.id,
    title: row.title,
    slug: row.slug,
    ...(staff ? { draft_body: row.draft_body } : {}),
    published_body: row.published_body,
    seo_title: row.seo_title,
    seo_description: row.seo_description,
    status: row.status,
    published_at: row.published_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/**
 * Pages (about, terms, landing pages). Editors change `draft_body`; publishing copies it to `published_body`, which is
 * what the site shows, so edits stay invisible until the next publish. Anonymous callers and students see published
 * pages only, with the live body; staff see every page and both bodies. Anything else is 404, never 403.
 */
export function pagesService(deps: AreaDeps & { store: PagesStore }) {
  const { db, clock, store } = deps;
  const now = () => clock.now().toISOString();
  const notFound = () => errors.notFound('page');

  const withPage = <T>(id: string, fn: (trx: Executor, row: PagesTable) => Promise<T>) =>
    withRowLock(db, 'pages', id, notFound, fn);

  /** The slug rules, checked on `ex`: inside a transaction they must run on it (SQLite has one connection). */
  const slugsOn = (ex: Executor) => slugRules('page', (slug, exceptId) => store.slugTaken(ex, slug, exceptId));
  const slugs = slugsOn(db);

  return {
    async list(principal: Principal, query: PageListQuery) {
      const staff = isStaff(principal);
      let q = store.baseQuery(db);
      if (query.status) q = q.where('status', '=', query.status);
      if (query.q) q = q.where(matchesText(deps.config.database.engine, 'pages', query.q));
      if (!staff) q = q.where('status', '=', 'published');
      const page = await paginate(q, query, 'id', 'created_at');
      return { ...page, data: page.data.map((row) => toPage(row, staff)) };
    },

    async get(principal: Principal, key: string) {
      const staff = isStaff(principal);
      const row = await store.findByIdOrSlug(db, key);
      if (!row || (!staff && row.status !== 'published')) throw notFound();
      return toPage(row, staff);
    },

    async create(input: PageCreate) {
      const title = input.title.trim();
      if (!title) throw errors.invalidRequest('A page needs a title; send a non-blank "title".');
      const slug = await slugs.choose(input.slug, title);
      const at = now();
      const row: PagesTable = {
        id: newId('pag'),
        title,
        slug,
        draft_body: input.draft_body ?? '',
        published_body: null,
        seo_title: input.seo_title ?? null,
        seo_description: input.seo_description ?? null,
        status: 'draft',
        published_at: null,
        created_at: at,
        updated_at: at,
      };
      return slugs.write(slug, () => insertWith(db, deps.writes, (ex) => store.insert(ex, row), toPage(row, true)));
    },

    async update(id: string, input: PageUpdate) {
      if (input.title !== undefined && !input.title.trim())
        throw errors.invalidRequest('A page needs a title; send a non-blank "title".');
      return withPage(id, async (trx, row) => {
        await slugsOn(trx).assertFree(input.slug, id);
        const changes: Partial<PagesTable> = { updated_at: now() };
        if (input.title !== undefined) changes.title = input.title.trim();
        if (input.slug !== undefined) changes.slug = input.slug;
        if (input.draft_body !== undefined) changes.draft_body = input.draft_body;
        if (input.seo_title !== undefined) changes.seo_title = input.seo_title;
        if (input.seo_description !== undefined) changes.seo_description = input.seo_description;
        await slugs.write(input.slug, () => store.update(trx, id, changes));
        return toPage({ ...row, ...changes }, true);
      });
    },

    /** The status condition is part of the DELETE, so a publish racing it either wins (409 here) or finds no page. */
    async delete(id: string) {
      if (await store.deleteUnpublished(db, id)) return;
      if (!(await store.findById(db, id))) throw notFound();
      throw errors.conflict(
        `A published page cannot be deleted; unpublish it first (POST /api/v1/pages/${id}/unpublish).`,
      );
    },

    /** Copies the draft body to the live body; publishing again after edits replaces the live body. */
    publish: (id: string) =>
      withPage(id, async (trx, row) => {
        if (!row.draft_body.trim()) {
          throw errors.conflict(
            `A page needs its text before it can be published (PATCH /api/v1/pages/${id} with draft_body).`,
          );
        }
        const at = now();
        const changes: Partial<PagesTable> = {
          status: 'published',
          published_body: row.draft_body,
          published_at: at,
          updated_at: at,
        };
        await store.update(trx, id, changes);
        return toPage({ ...row, ...changes }, true);
      }),

    /** Takes the page off the site; the draft body is kept, the live body is cleared. */
    unpublish: (id: string) =>
      withPage(id, async (trx, row) => {
        if (row.status === 'draft') return toPage(row, true);
        const changes: Partial<PagesTable> = {
          status: 'draft',
          published_body: null,
          published_at: null,
          updated_at: now(),
        };
        await store.update(trx, id, changes);
        return toPage({ ...row, ...changes }, true);
      }),
  };
}

export type PagesService = ReturnType<typeof pagesService>;
