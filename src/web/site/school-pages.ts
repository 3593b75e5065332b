import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import type { Page } from '../../areas/pages/schema.ts';
import { ApiError, errors } from '../../http/errors.ts';
import { html } from '../../text/html.ts';
import { metaTags } from '../shared/meta.ts';
import { CsrfField, Key, PageQuery, SlugParams, Text } from '../shared/page-schemas.ts';
import { type SiteDeps, schoolFacts } from '../shared/site-deps.ts';
import { summary } from '../shared/text.ts';
import { viewerPrincipal } from '../shared/viewer.ts';
import { type FormState, formAnchor, HONEYPOT, pageFormView } from './school-form-view.ts';
import { schoolPagePath, schoolPageView } from './school-page-view.ts';

const FORM_ID = /^frm_[0-9a-z]{26}$/;

/**
 * The whole body of one form submission. A field holds at most 10,000 characters; a form of several long fields still
 * fits, and anything larger is refused (413) before it is parsed.
 */
export const FORM_BODY_LIMIT_BYTES = 256 * 1024;

/**
 * What a school page's form posts: the CSRF token, the honeypot, and the form's own fields as text (one value, or
 * several for a group of checkboxes). Which names a form has is the school's to say, so the forms service refuses a
 * name the form does not have, with the page shown again and the problem beside the form.
 */
const PostedSchoolForm = Type.Object(
  { _csrf: CsrfField, [HONEYPOT]: Type.Optional(Text()) },
  { additionalProperties: Type.Union([Text(10_000), Type.Array(Text(10_000), { maxItems: 100 })]) },
);

const formPath = (slug: string, formId: string) => `${schoolPagePath(slug)}/forms/${formId}`;

/** What the visitor sees of a refused submission, by the refusal; anything else is not the visitor's to fix. */
function refusalOf(error: unknown): { status: number; problems?: ApiError['fields']; refusal?: string } | undefined {
  if (!(error instanceof ApiError)) return undefined;
  if (error.code === 'invalid_request' && error.fields) return { status: 400, problems: error.fields };
  if (error.code === 'conflict' || error.code === 'rate_limited')
    return { status: error.status, refusal: error.message };
  return undefined;
}

/**
 * The school's pages (/p/<slug>: About, FAQ, Terms… under their own prefix, so no page slug can ever shadow a route of
 * the site) with the active forms placed on them, after the body. A page is read through the pages service with the
 * viewer's principal: an unpublished page is 404 (staff see drafts, marked). A page without forms is the same for
 * every signed-out visitor and shared by caches; a page with forms carries the visitor's CSRF token, so it is personal.
 *
 * A form posts to /p/<slug>/forms/<form id>. A refusal shows the page again with each problem next to its field and
 * the values kept (400, or 409 closed / 429 too many, with the reason); a submission redirects (303) to the page with
 * `?sent=<form id>`, which shows the form's success message in its place, so reloading does not send it again. A
 * filled honeypot is answered exactly like a submission and nothing is kept or sent.
 */
export function registerSchoolPages(fastify: FastifyInstance, deps: SiteDeps) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { pages, forms } = deps.areas;

  async function show(
    request: FastifyRequest,
    reply: FastifyReply,
    page: Page,
    now?: { formId: string; state: Partial<FormState>; status: number },
    sent = '',
  ) {
    const [school, placed] = await Promise.all([schoolFacts(deps.areas.school), forms.onPage(page.id)]);
    const csrf = placed.length ? reply.generateCsrf() : '';
    const head = metaTags({
      title: page.seo_title || page.title,
      description: summary(page.seo_description || page.published_body || page.title),
      url: `${deps.baseUrl}${schoolPagePath(page.slug)}`,
      siteName: school.name,
      type: 'article',
      noindex: page.status !== 'published' || Boolean(sent),
    });
    // A refusal of a form no longer on the page (closed meanwhile) is said above the page.
    const gone = now?.state.refusal && !placed.some((form) => form.id === now.formId);
    const body = html`${gone ? html`<p class="warning" role="alert">${now.state.refusal}</p>` : ''}${schoolPageView(page)}${placed.map(
      (form) =>
        pageFormView({
          form,
          action: formPath(page.slug, form.id),
          csrf,
          sent: !now && sent === form.id,
          ...(now?.formId === form.id ? now.state : {}),
        }),
    )}`;
    if (now) reply.code(now.status);
    return deps.pages.send(request, reply, page.title, body, {
      head,
      path: schoolPagePath(page.slug),
      personal: placed.length > 0,
    });
  }

  const schema = { params: SlugParams, querystring: PageQuery({ sent: Type.Optional(Text(64)) }) };
  app.get('/p/:slug', { config: { page: true, sharedPage: true }, schema }, async (request, reply) =>
    show(
      request,
      reply,
      await pages.get(viewerPrincipal(request.viewer), request.params.slug),
      undefined,
      request.query.sent,
    ),
  );

  app.post(
    '/p/:slug/forms/:id',
    {
      config: { page: true },
      schema: { params: Type.Object({ slug: Key, id: Key }), body: PostedSchoolForm },
      bodyLimit: FORM_BODY_LIMIT_BYTES,
      preHandler: app.csrfProtection,
    },
    async (request, reply) => {
      if (!FORM_ID.test(request.params.id)) throw errors.notFound('form');
      const page = await pages.get(viewerPrincipal(request.viewer), request.params.slug);
      const formId = request.params.id;
      const { _csrf, [HONEYPOT]: trap, ...posted } = request.body;
      const done = `${schoolPagePath(page.slug)}?sent=${formId}#${formAnchor(formId)}`;
      if (trap) return reply.redirect(done, 303);
      try {
        await forms.submit({
          formId,
          pageId: page.id,
          posted,
          userId: request.viewer?.id ?? null,
          address: request.ip,
        });
      } catch (error) {
        const refused = refusalOf(error);
        if (!refused) throw error;
        if (error instanceof ApiError) reply.headers(error.headers);
        const { status, ...state } = refused;
        return show(request, reply, page, { formId, state: { ...state, posted }, status });
      }
      // The page's shared copies do not change: a submission is not shown on it.
      return reply.redirect(done, 303);
    },
  );
}
