import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html } from '../../text/html.ts';
import { DerivedFormBody } from '../shared/page-schemas.ts';
import { ADMIN_ROUTE, adminGate, adminPostGate, one, refusal } from './admin-context.ts';
import { type EditorDeps, editorPage } from './editor-page.ts';
import { linkListView, type RowProblem } from './menu-editor-view.ts';
import {
  type Destination,
  LINK_LISTS,
  type LinkList,
  type LinkRow,
  linksOf,
  reshapedRows,
  rowOf,
  rowProblem,
  rowsFromForm,
} from './menu-rows.ts';

/** The site's own lists, always there to link. */
const SITE_LISTS: readonly Destination[] = [
  { url: '/', name: 'Home page', title: 'Home' },
  { url: '/courses', name: 'All courses', title: 'Courses' },
  { url: '/events', name: 'Events', title: 'Events' },
  { url: '/lecturers', name: 'Lecturers', title: 'Lecturers' },
  { url: '/posts', name: 'Posts', title: 'Posts' },
  { url: '/plans', name: 'Membership plans', title: 'Plans' },
  { url: '/products', name: 'Digital products', title: 'Products' },
].map((place) => ({ ...place, group: 'The site' }));

/** The school's courses, pages and posts, each by its title, read with the API's own lists. */
const OBJECT_LISTS = [
  { list: 'listCourses', group: 'Courses', path: '/courses/' },
  { list: 'listPages', group: 'Pages', path: '/p/' },
  { list: 'listPosts', group: 'Posts', path: '/posts/' },
] as const;

type Refused = { list: LinkList; rows: LinkRow[]; problems: RowProblem[]; message?: string; status?: number };

/**
 * The menu and the footer links at /admin/appearance/menu: rows of a name and a destination chosen by name, added,
 * removed and moved with buttons; each list is saved whole with updateAppearance, as the API replaces it.
 */
export function registerMenuEditor(fastify: FastifyInstance, deps: EditorDeps) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const page = editorPage(deps);

  async function places(request: FastifyRequest): Promise<Destination[]> {
    const found: Destination[] = [...SITE_LISTS];
    for (const source of OBJECT_LISTS) {
      const answer = await deps.call(request, source.list, { limit: 100 });
      if (answer.status !== 200) continue;
      for (const row of answer.body.data as { title: string; slug: string; status: string }[])
        found.push({
          url: `${source.path}${encodeURIComponent(row.slug)}`,
          name: row.status === 'published' ? row.title : `${row.title} (not published yet)`,
          group: source.group,
          title: row.title,
        });
    }
    return found;
  }

  async function screen(request: FastifyRequest, reply: FastifyReply, refused?: Refused) {
    const look = await deps.call(request, 'getAppearance', {});
    if (look.status !== 200) return reply.callNotFound();
    const where = await places(request);
    const csrf = reply.generateCsrf();
    const query = request.query as Record<string, unknown> | undefined;
    const saved =
      query && typeof query.saved === 'string' && query.saved in LINK_LISTS ? (query.saved as LinkList) : undefined;
    const listOf = (list: LinkList) => {
      if (refused?.list === list) return linkListView({ ...refused, places: where, unsaved: true, csrf });
      const stored = (look.body[list] ?? []) as { label: string; url: string }[];
      // One empty row to fill in, so a link is added without pressing Add first.
      const rows = [...stored.map((link) => rowOf(link, where)), { label: '', goes: '', url: '' }];
      return linkListView({ list, rows, places: where, problems: [], unsaved: false, csrf });
    };
    return page(request, reply, {
      title: 'Menu and footer links',
      current: 'appearance',
      status: refused?.status,
      notice: saved ? LINK_LISTS[saved].saved : undefined,
      body: html`<p><a href="/admin/appearance">Back to the appearance</a></p>
<p class="meta">Leave a list empty and the site shows its own links. A link without a name takes the name of where it goes.</p>
${listOf('navigation')}${listOf('footer')}`,
    });
  }

  app.get('/admin/appearance/menu', { ...ADMIN_ROUTE, preHandler: adminGate() }, (request, reply) =>
    screen(request, reply),
  );

  app.post(
    '/admin/appearance/menu',
    { schema: { body: DerivedFormBody }, ...ADMIN_ROUTE, preHandler: adminPostGate(app) },
    async (request, reply) => {
      const form = request.body ?? {};
      const list: LinkList = one(form.list) === 'footer' ? 'footer' : 'navigation';
      const rows = rowsFromForm(form);
      const next = reshapedRows(rows, String(one(form.do) ?? 'save'));
      if (next) return screen(request, reply, { list, rows: next, problems: [] });
      const { links, formIndex } = linksOf(rows, await places(request));
      const answer = await deps.call(request, 'updateAppearance', { [list]: links });
      if (answer.status < 300) return reply.redirect(`/admin/appearance/menu?saved=${list}#${list}`, 303);
      const { message, problems } = refusal(answer);
      const mapped = problems.map((p) => rowProblem(p.field, p.message, formIndex));
      return screen(request, reply, {
        list,
        rows,
        problems: mapped.filter((p) => p.row >= 0),
        message: mapped.length > 0 && mapped.every((p) => p.row >= 0) ? undefined : message,
        status: answer.status,
      });
    },
  );
}
