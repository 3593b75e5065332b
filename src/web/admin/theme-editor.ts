import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { THEME_LOOKS, THEMES, type ThemeName } from '../../areas/appearance/themes.ts';
import { html, type SafeHtml } from '../../text/html.ts';
import { csrfField } from '../shared/layout.ts';
import { DerivedFormBody } from '../shared/page-schemas.ts';
import { THEME_GALLERY_HREF } from '../shared/theme.ts';
import { ADMIN_ROUTE, adminGate, adminPostGate, one, refusal } from './admin-context.ts';
import { type EditorDeps, editorPage } from './editor-page.ts';

/** Each theme in the owner's words: its name and what it is like. */
const THEME_WORDS: Record<ThemeName, { name: string; words: string }> = {
  classic: { name: 'Classic', words: 'A book serif for headings on white, blue links and an orange accent.' },
  studio: { name: 'Studio', words: 'Warm paper, a soft display serif, terracotta and green, round corners.' },
  night: { name: 'Night', words: 'Dark, one clean typeface throughout, light blue and amber.' },
};

/** A small sample of the site in a theme: its header, a heading, text with a link, a button, a badge and a card. */
function sample(theme: ThemeName): SafeHtml {
  return html`<div class="theme-sample theme-${theme}" aria-hidden="true"><div class="ts-bar"><span class="ts-brand">Your school</span><span class="ts-nav">Courses · Events</span></div>
<p class="ts-heading">Learn to throw a bowl</p><p class="ts-text">Twelve lessons at your own pace, with <span class="ts-link">a teacher</span> who answers.</p>
<p class="ts-actions"><span class="ts-button">Enroll now</span> <span class="ts-badge">Free preview</span></p></div>`;
}

/**
 * The built-in themes at /admin/appearance/theme: each shown as a sample of the site in it, chosen with one radio
 * button. Choosing one is one updateAppearance of the theme alone, which takes the theme's colours and fonts (the
 * owner can change those afterwards under Colours and Fonts).
 */
export function registerThemeEditor(fastify: FastifyInstance, deps: EditorDeps) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const page = editorPage(deps);

  async function screen(request: FastifyRequest, reply: FastifyReply, refused?: { message: string; status: number }) {
    const look = await deps.call(request, 'getAppearance', {});
    if (look.status !== 200) return reply.callNotFound();
    const current = look.body.theme as ThemeName;
    const query = request.query as Record<string, unknown> | undefined;
    const own = (['primary', 'accent', 'background', 'text'] as const).some(
      (key) => (look.body.colors as Record<string, string>)[key] !== THEME_LOOKS[current]?.colors[key],
    );
    return page(request, reply, {
      title: 'Theme',
      current: 'appearance',
      status: refused?.status,
      notice: query && 'saved' in query ? 'The theme is saved: the site shows it now.' : undefined,
      head: html`<link rel="stylesheet" href="${THEME_GALLERY_HREF}">`,
      body: html`<p><a href="/admin/appearance">Back to the appearance</a></p>
${refused ? html`<div class="error" role="alert"><p>${refused.message}</p></div>` : ''}
<p class="meta">A theme sets the site's colours, fonts, type sizes and corners. Choosing one replaces the colours and fonts with the theme's${
        own ? html` (<strong>your own colours will be replaced</strong>)` : ''
      }; you can change them again afterwards.</p>
<form method="post" action="/admin/appearance/theme" class="admin-form theme-editor">${csrfField(reply.generateCsrf())}
<fieldset><legend>Theme</legend><div class="theme-choices">${THEMES.map(
        (theme) =>
          html`<div class="theme-choice"><input type="radio" id="theme-${theme}" name="theme" value="${theme}"${
            theme === current ? html` checked` : ''
          }><label for="theme-${theme}"><span class="theme-name">${THEME_WORDS[theme].name}${
            theme === current ? html` <span class="meta">(in use)</span>` : ''
          }</span><span class="theme-words">${THEME_WORDS[theme].words}</span>${sample(theme)}</label></div>`,
      )}</div></fieldset>
<p class="submit"><button type="submit">Use this theme</button></p></form>`,
    });
  }

  app.get('/admin/appearance/theme', { ...ADMIN_ROUTE, preHandler: adminGate() }, (request, reply) =>
    screen(request, reply),
  );

  app.post(
    '/admin/appearance/theme',
    { schema: { body: DerivedFormBody }, ...ADMIN_ROUTE, preHandler: adminPostGate(app) },
    async (request, reply) => {
      const theme = String(one(request.body?.theme) ?? '');
      if (!(THEMES as readonly string[]).includes(theme))
        return screen(request, reply, { message: 'Choose one of the themes.', status: 400 });
      const answer = await deps.call(request, 'updateAppearance', { theme });
      if (answer.status < 300) return reply.redirect('/admin/appearance/theme?saved=1', 303);
      return screen(request, reply, { message: refusal(answer).message, status: answer.status });
    },
  );
}
