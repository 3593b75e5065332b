import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Appearance, HOME_SECTIONS } from '../../areas/appearance/schema.ts';
import { html } from '../../text/html.ts';
import { csrfField, errorSummary, type FieldProblem } from '../shared/layout.ts';
import { DerivedFormBody } from '../shared/page-schemas.ts';
import { THEME_GALLERY_HREF } from '../shared/theme.ts';
import { ADMIN_ROUTE, adminGate, adminPostGate, one, refusal } from './admin-context.ts';
import { type EditorDeps, editorPage } from './editor-page.ts';

type Home = Appearance['home'];
type Section = Home['sections'][number];

/** Each part of the home page in the owner's words. */
const PARTS: Record<Section, string> = {
  featured_courses: 'Featured courses',
  new_courses: 'New courses',
  lecturers: 'Lecturers',
  events: 'Upcoming events',
  posts: 'Latest posts',
};

/** The boxes of the form, by the API field they fill, in the words shown beside them. */
const FIELD_LABELS: Record<string, string> = {
  headline: 'Headline',
  text: 'Text under the headline',
  'call_to_action.label': 'Button text',
  'call_to_action.url': 'Button link',
  sections: 'Parts of the page',
  featured_course_ids: 'Featured courses',
};

const FEATURED_CHOICES = 100;

/** What the form posted, read as the API's home settings: shown again as typed when the API refuses it. */
function homeOf(form: Record<string, unknown>): Home {
  const text = (name: string) => String(one(form[name]) ?? '');
  const ticked = (value: unknown) => [value ?? []].flat().map(String);
  const order = (section: Section) => Number.parseInt(text(`order.${section}`), 10);
  const sections = HOME_SECTIONS.filter((s) => ticked(form.sections).includes(s)).sort(
    (a, b) => (order(a) || 99) - (order(b) || 99) || HOME_SECTIONS.indexOf(a) - HOME_SECTIONS.indexOf(b),
  );
  return {
    headline: text('headline'),
    text: text('text'),
    call_to_action: { label: text('call_to_action.label'), url: text('call_to_action.url') },
    sections,
    featured_course_ids: ticked(form.featured_course_ids),
  };
}

/**
 * The home page at /admin/appearance/home: the hero's headline, text and button, which parts show below it and in
 * which order, and which courses are featured (none ticked: the most enrolled). Saving is one updateAppearance of
 * `home`; the API checks every value and its refusals show beside the boxes.
 */
export function registerHomeEditor(fastify: FastifyInstance, deps: EditorDeps) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const page = editorPage(deps);

  async function screen(
    request: FastifyRequest,
    reply: FastifyReply,
    refused?: { home: Home; message: string; problems: FieldProblem[]; status: number },
  ) {
    const look = await deps.call(request, 'getAppearance', {});
    if (look.status !== 200) return reply.callNotFound();
    const home = refused?.home ?? (look.body.home as Home);
    const listed = await deps.call(request, 'listCourses', { status: 'published', limit: FEATURED_CHOICES });
    const courses = listed.status === 200 ? (listed.body.data as { id: string; title: string }[]) : [];
    const query = request.query as Record<string, unknown> | undefined;
    const problemOf = (field: string) =>
      refused?.problems.find((p) => p.field === field || p.field.startsWith(`${field}.`))?.message;
    const box = (field: string, input: ReturnType<typeof html>, hint?: string) => {
      const id = `f-${field.replace(/\W/g, '-')}`;
      const problem = problemOf(field);
      return html`<p><label for="${id}">${FIELD_LABELS[field] ?? field}</label>${
        hint ? html`<span class="help" id="${id}-help">${hint}</span>` : ''
      }${problem ? html`<span class="field-error" id="${id}-error">${problem}</span>` : ''}${input}</p>`;
    };
    const described = (field: string, hint: boolean) => {
      const id = `f-${field.replace(/\W/g, '-')}`;
      const ids = [hint ? `${id}-help` : '', problemOf(field) ? `${id}-error` : ''].filter(Boolean).join(' ');
      return html` id="${id}" name="${field}"${ids ? html` aria-describedby="${ids}"` : ''}${
        problemOf(field) ? html` aria-invalid="true"` : ''
      }`;
    };
    const ordered = [...home.sections, ...HOME_SECTIONS.filter((s) => !home.sections.includes(s))];
    return page(request, reply, {
      title: 'Home page',
      current: 'appearance',
      status: refused?.status,
      notice: query && 'saved' in query ? 'The home page is saved.' : undefined,
      head: html`<link rel="stylesheet" href="${THEME_GALLERY_HREF}">`,
      body: html`<p><a href="/admin/appearance">Back to the appearance</a> · <a href="/">See the home page</a></p>
${refused ? errorSummary(refused.message, [], undefined) : ''}
<form method="post" action="/admin/appearance/home" class="admin-form home-editor">${csrfField(reply.generateCsrf())}
<fieldset><legend>The top of the page</legend>
${box('headline', html`<input${described('headline', true)} value="${home.headline}" maxlength="120">`, "The school's promise, in a few words. Empty: the school's name.")}
${box('text', html`<textarea${described('text', true)} rows="3" maxlength="400">${home.text}</textarea>`, "A sentence or two under it. Empty: the school's description.")}
${box('call_to_action.label', html`<input${described('call_to_action.label', false)} value="${home.call_to_action.label}" maxlength="40">`)}
${box('call_to_action.url', html`<input${described('call_to_action.url', true)} value="${home.call_to_action.url}">`, 'A page of this site (/courses) or an https:// address.')}
</fieldset>
<fieldset><legend>Parts of the page, in order</legend>${
        problemOf('sections') ? html`<p class="field-error">${problemOf('sections')}</p>` : ''
      }<ul class="plain">${ordered.map(
        (section, index) =>
          html`<li><input type="checkbox" id="part-${section}" name="sections" value="${section}"${
            home.sections.includes(section) ? html` checked` : ''
          }> <label for="part-${section}" class="inline">${PARTS[section]}</label> <label for="order-${section}" class="inline meta">place</label> <input type="number" id="order-${section}" name="order.${section}" value="${String(index + 1)}" min="1" max="${String(HOME_SECTIONS.length)}" class="narrow"></li>`,
      )}</ul><p class="meta">A part with nothing to show (no events planned, no posts) is left out by itself.</p></fieldset>
<fieldset><legend>Featured courses</legend>${
        problemOf('featured_course_ids') ? html`<p class="field-error">${problemOf('featured_course_ids')}</p>` : ''
      }<p class="meta">Tick up to twelve. None ticked: the courses most students are enrolling in now.</p>${
        courses.length
          ? html`<ul class="plain">${courses.map(
              (c) =>
                html`<li><input type="checkbox" id="feature-${c.id}" name="featured_course_ids" value="${c.id}"${
                  home.featured_course_ids.includes(c.id) ? html` checked` : ''
                }> <label for="feature-${c.id}" class="inline">${c.title}</label></li>`,
            )}</ul>`
          : html`<p>No course is published yet.</p>`
      }</fieldset>
<p class="submit"><button type="submit">Save the home page</button></p></form>`,
    });
  }

  app.get('/admin/appearance/home', { ...ADMIN_ROUTE, preHandler: adminGate() }, (request, reply) =>
    screen(request, reply),
  );

  app.post(
    '/admin/appearance/home',
    { schema: { body: DerivedFormBody }, ...ADMIN_ROUTE, preHandler: adminPostGate(app) },
    async (request, reply) => {
      const home = homeOf(request.body ?? {});
      const answer = await deps.call(request, 'updateAppearance', { home });
      if (answer.status < 300) return reply.redirect('/admin/appearance/home?saved=1', 303);
      const { message, problems } = refusal(answer);
      const fields = problems.map((p) => ({ ...p, field: p.field.replace(/^home\./, '') }));
      return screen(request, reply, { home, message, problems: fields, status: answer.status });
    },
  );
}
