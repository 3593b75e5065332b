import type { Areas } from '../../areas/index.ts';
import type { ListPage } from '../../areas/pagination.ts';
import { ApiError } from '../../http/errors.ts';
import { ANONYMOUS, type Principal } from '../../http/principal.ts';
import { schoolDates } from '../../text/dates.ts';
import type { PictureSource } from './pictures.ts';
import type { ShareImages } from './share-images.ts';
import type { SharedPages } from './shared-pages.ts';

/** What the public site's handlers are built from (the composition root passes it). */
export type SiteDeps = {
  areas: Pick<
    Areas,
    | 'courses'
    | 'curriculum'
    | 'lecturers'
    | 'posts'
    | 'pages'
    | 'forms'
    | 'school'
    | 'students'
    | 'orders'
    | 'membershipPlans'
    | 'digitalProducts'
    | 'events'
    | 'account'
    | 'appearance'
    | 'storage'
  >;
  pages: SharedPages;
  baseUrl: string;
  /** The facts of the uploaded pictures a page shows (picture.ts), loaded in one query. */
  pictures: PictureSource;
  /** The 1200 × 630 images links to courses and posts show when shared. */
  share: ShareImages;
};

/** The school's public facts the pages need; before first-run setup there is no school yet. */
export async function schoolFacts(school: SiteDeps['areas']['school']) {
  try {
    const s = await school.get(ANONYMOUS);
    const dates = schoolDates(s.locale, s.timezone);
    return { name: s.name, description: s.description, locale: s.locale, timezone: s.timezone, dates };
  } catch (error) {
    if (error instanceof ApiError && error.code === 'not_found')
      return { name: 'Lyceum', description: '', locale: 'en', timezone: 'UTC', dates: schoolDates() };
    throw error;
  }
}

/** Lecturers by id as the viewer may see them (an archived one is left out, as the lecturers area decides). */
export async function visibleLecturers(lecturers: Areas['lecturers'], principal: Principal, ids: string[]) {
  const found = await Promise.all(
    ids.map((id) =>
      lecturers.get(principal, id).catch((error: unknown) => {
        if (error instanceof ApiError && error.code === 'not_found') return undefined;
        throw error;
      }),
    ),
  );
  return found.filter((l) => l !== undefined);
}

/** One query-string value as text: absent, repeated or non-text values count as empty. */
export const one = (value: unknown): string => (typeof value === 'string' ? value : '');

type Cursor = { limit: number; starting_after?: string; sort?: 'created_at' | '-created_at' };

/**
 * One page of a newest-first list, by `after` (the next, older page) or `before` (the previous, newer page), with the
 * links to its neighbours. The list's own cursor goes one way only, so "previous" reads the other way and turns it.
 */
export async function browse<T extends { id: string }>(
  query: { after?: unknown; before?: unknown },
  limit: number,
  list: (cursor: Cursor) => Promise<ListPage<T>>,
  href: (cursor: { after?: string; before?: string }) => string,
): Promise<{ data: T[]; previousHref: string | null; nextHref: string | null }> {
  const after = one(query.after);
  const before = one(query.before);
  if (before && !after) {
    const page = await list({ limit, starting_after: before, sort: 'created_at' });
    const data = page.data.reverse();
    const first = data[0];
    return {
      data,
      previousHref: page.has_more && first ? href({ before: first.id }) : null,
      nextHref: href({ after: data.at(-1)?.id ?? before }),
    };
  }
  const page = await list({ limit, ...(after ? { starting_after: after } : {}) });
  const first = page.data[0];
  return {
    data: page.data,
    previousHref: after ? (first ? href({ before: first.id }) : href({})) : null,
    nextHref: page.has_more && page.next_cursor ? href({ after: page.next_cursor }) : null,
  };
}

/** A path with its query string, leaving out empty values. */
export function withQuery(path: string, params: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) search.set(key, value);
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}
