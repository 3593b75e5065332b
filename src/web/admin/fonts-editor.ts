import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html, type SafeHtml } from '../../text/html.ts';
import { csrfField } from '../shared/layout.ts';
import { DerivedFormBody } from '../shared/page-schemas.ts';
import { THEME_GALLERY_HREF } from '../shared/theme.ts';
import { fontClass } from '../shared/theme-gallery-css.ts';
import { ADMIN_ROUTE, adminGate, adminPostGate, one, refusal } from './admin-context.ts';
import { type EditorDeps, editorPage } from './editor-page.ts';

const ROLES = [
  { key: 'heading', words: 'Font of the headings', sample: 'Learn to throw a bowl' },
  { key: 'body', words: 'Font of the text', sample: 'Twelve lessons at your own pace, with a teacher who answers.' },
] as const;

/** The generic family names read as what they give; a font with its own name is called by it. */
const FONT_WORDS: Record<string, string> = {
  'system-ui': "The device's own font",
  'sans-serif': 'A plain font without serifs',
  serif: 'A classic font with serifs',
  monospace: 'A typewriter font',
  Inter: 'Inter (served by the school)',
  'Source Serif 4': 'Source Serif 4 (served by the school)',
  Fraunces: 'Fraunces (served by the school)',
};

type Chosen = Record<string, string>;

/**
 * The site's fonts at /admin/appearance/fonts: each choice is shown by name in its own face, with a sample. The
 * list is the API's own (updateAppearance's schema), so a font the API adds is offered here; saving is one
 * updateAppearance of the fonts alone.
 */
export function registerFontsEditor(fastify: FastifyInstance, deps: EditorDeps) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const page = editorPage(deps);
  const schema = deps.operations.get('updateAppearance')?.inputSchema as
    | { properties?: { fonts?: { properties?: Record<string, { enum?: string[] }> } } }
    | undefined;
  const fonts = (role: string) => schema?.properties?.fonts?.properties?.[role]?.enum ?? [];

  async function screen(
    request: FastifyRequest,
    reply: FastifyReply,
    refused?: { chosen: Chosen; problems: Map<string, string>; message?: string; status: number },
  ) {
    const look = await deps.call(request, 'getAppearance', {});
    if (look.status !== 200) return reply.callNotFound();
    const chosen = refused?.chosen ?? (look.body.fonts as Chosen);
    const query = request.query as Record<string, unknown> | undefined;
    return page(request, reply, {
      title: 'Fonts',
      current: 'appearance',
      status: refused?.status,
      notice: query && 'saved' in query ? 'The fonts are saved.' : undefined,
      // Each sample in its own font (served fonts included), by class: the CSP admits no inline style.
      head: html`<link rel="stylesheet" href="${THEME_GALLERY_HREF}">`,
      body: html`<p><a href="/admin/appearance">Back to the appearance</a></p>${
        refused?.message ? html`<div class="error" role="alert"><p>${refused.message}</p></div>` : ''
      }<form method="post" action="/admin/appearance/fonts" class="admin-form fonts-editor">${csrfField(reply.generateCsrf())}
${ROLES.map((role) => fontChoice(role, fonts(role.key), chosen[role.key] ?? '', refused?.problems.get(role.key)))}
<p class="submit"><button type="submit">Save the fonts</button></p></form>`,
    });
  }

  app.get('/admin/appearance/fonts', { ...ADMIN_ROUTE, preHandler: adminGate() }, (request, reply) =>
    screen(request, reply),
  );

  app.post(
    '/admin/appearance/fonts',
    { schema: { body: DerivedFormBody }, ...ADMIN_ROUTE, preHandler: adminPostGate(app) },
    async (request, reply) => {
      const chosen = Object.fromEntries(ROLES.map((r) => [r.key, String(one(request.body?.[r.key]) ?? '')]));
      const given = Object.fromEntries(Object.entries(chosen).filter(([, font]) => font !== ''));
      const answer = await deps.call(request, 'updateAppearance', { fonts: given });
      if (answer.status < 300) return reply.redirect('/admin/appearance/fonts?saved=1', 303);
      const { message, problems } = refusal(answer);
      const boxes = new Map(
        problems.map((p) => [p.field.replace(/^fonts\.?/, ''), 'Choose one of the fonts in the list.'] as const),
      );
      return screen(request, reply, {
        chosen,
        problems: boxes,
        message: ROLES.some((r) => boxes.has(r.key))
          ? undefined
          : answer.status >= 500
            ? message
            : 'Choose the fonts from the lists.',
        status: answer.status,
      });
    },
  );
}

function fontChoice(
  role: (typeof ROLES)[number],
  fonts: readonly string[],
  chosen: string,
  problem: string | undefined,
): SafeHtml {
  return html`<fieldset class="font-choice" id="font-${role.key}"${
    problem ? html` aria-describedby="font-${role.key}-error"` : ''
  }><legend>${role.words}</legend>${problem ? html`<span id="font-${role.key}-error" class="field-error">${problem}</span>` : ''}
${fonts.map(
  (
    font,
  ) => html`<div class="font-option"><input type="radio" id="font-${role.key}-${font.replace(/\W+/g, '-')}" name="${role.key}" value="${font}"${
    font === chosen ? html` checked` : ''
  }> <label for="font-${role.key}-${font.replace(/\W+/g, '-')}"><span class="font-name">${FONT_WORDS[font] ?? font}</span>
<span class="font-sample ${fontClass(font)}">${role.sample}</span></label></div>`,
)}</fieldset>`;
}
