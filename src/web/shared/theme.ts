import { createHash } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import type { Appearance } from '../../areas/appearance/schema.ts';
import type { AppearanceService } from '../../areas/appearance/service.ts';
import { etagMatches } from '../../http/etag.ts';
import { latinFontHrefs, registerFontRoutes } from './fonts.ts';
import type { SiteLook } from './layout.ts';
import { PageQuery, Text } from './page-schemas.ts';
import type { DefaultLinks } from './site-links.ts';
import { themeCss } from './theme-css.ts';
import { themeGalleryCss } from './theme-gallery-css.ts';

/** A short name of the stylesheet's bytes: pages link /assets/theme.css?v=<it>, so a change is a new URL. */
const versionOf = (css: string) => createHash('sha256').update(css).digest('base64url').slice(0, 16);

/**
 * The school's look for the layout (logo, menu, footer links, the theme's version and fonts, the language of its
 * pages), read from the appearance area and the school's locale; a menu or footer the owner left empty is the default
 * one.
 */
export function siteLook(
  appearance: AppearanceService,
  defaults: () => Promise<DefaultLinks>,
  locale: () => Promise<string | undefined> = async () => undefined,
): () => Promise<SiteLook> {
  return async () => {
    const [current, links, language] = await Promise.all([appearance.get(), defaults(), locale()]);
    return lookOf(current, links, language ?? 'en');
  };
}

/** The last stylesheet's version, by what it is made of: pages of an unchanged look don't build it again. */
let last = { key: '', version: '' };

function versionFor(appearance: Appearance): string {
  const key = JSON.stringify([appearance.colors, appearance.fonts, appearance.theme, appearance.custom_css]);
  if (last.key !== key) last = { key, version: versionOf(themeCss(appearance)) };
  return last.version;
}

function lookOf(appearance: Appearance, defaults: DefaultLinks, locale: string): SiteLook {
  const version = versionFor(appearance);
  return {
    logoUrl: appearance.logo_url,
    navigation: appearance.navigation.length ? appearance.navigation : defaults.menu,
    footer: appearance.footer.length ? appearance.footer : defaults.footer,
    themeVersion: version,
    theme: appearance.theme,
    fontPreloads: latinFontHrefs([...new Set([appearance.fonts.body, appearance.fonts.heading])]),
    locale,
  };
}

/**
 * /assets/theme.css, the school's colours, fonts and custom CSS, and the font files it names (fonts.ts) (the CSP admits only same-origin stylesheets, never
 * inline styles). Asked for with the current version (?v=, as pages link it) it may be kept for a year; asked for
 * any other way it is revalidated each time by its ETag.
 */
/** The admin's theme and font gallery (theme-gallery-css.ts): the same for every school, a year under its version. */
const galleryCss = themeGalleryCss();
export const THEME_GALLERY_HREF = `/assets/theme-gallery.css?v=${versionOf(galleryCss)}`;

export function registerThemeRoute(fastify: FastifyInstance, deps: { appearance: AppearanceService }) {
  registerFontRoutes(fastify);
  fastify.get('/assets/theme-gallery.css', { config: { public: true } }, async (_request, reply) =>
    reply
      .type('text/css; charset=utf-8')
      .header('cache-control', 'public, max-age=31536000, immutable')
      .send(galleryCss),
  );
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/assets/theme.css',
    { schema: { querystring: PageQuery({ v: Type.Optional(Text(100)) }) }, config: { public: true } },
    async (request, reply) => {
      const css = themeCss(await deps.appearance.get());
      const version = versionOf(css);
      const etag = `"${version}"`;
      reply
        .header('etag', etag)
        .header(
          'cache-control',
          request.query.v === version ? 'public, max-age=31536000, immutable' : 'public, no-cache',
        );
      if (etagMatches(request.headers['if-none-match'], etag)) return reply.code(304).send();
      return reply.type('text/css; charset=utf-8').send(css);
    },
  );
}
