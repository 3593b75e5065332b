import { createHash } from 'node:crypto';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import type { Appearance } from '../../areas/appearance/schema.ts';
import type { AppearanceService } from '../../areas/appearance/service.ts';
import { etagMatches } from '../../http/etag.ts';
import type { SiteLook } from './layout.ts';
import { PageQuery, Text } from './page-schemas.ts';
import type { DefaultLinks } from './site-links.ts';
import { themeCss } from './theme-css.ts';

/** A short name of the stylesheet's bytes: pages link /assets/theme.css?v=<it>, so a change is a new URL. */
const versionOf = (css: string) => createHash('sha256').update(css).digest('base64url').slice(0, 16);

/**
 * The school's look for the layout (logo, menu, footer links, the theme's version), read from the appearance area;
 * a menu or footer the owner left empty is the default one.
 */
export function siteLook(
  appearance: AppearanceService,
  defaults: () => Promise<DefaultLinks>,
): () => Promise<SiteLook> {
  return async () => {
    const [current, links] = await Promise.all([appearance.get(), defaults()]);
    return lookOf(current, links);
  };
}

function lookOf(appearance: Appearance, defaults: DefaultLinks): SiteLook {
  return {
    logoUrl: appearance.logo_url,
    navigation: appearance.navigation.length ? appearance.navigation : defaults.menu,
    footer: appearance.footer.length ? appearance.footer : defaults.footer,
    themeVersion: versionOf(themeCss(appearance)),
  };
}

/**
 * /assets/theme.css, the school's colours, fonts and custom CSS (the CSP admits only same-origin stylesheets, never
 * inline styles). Asked for with the current version (?v=, as pages link it) it may be kept for a year; asked for
 * any other way it is revalidated each time by its ETag.
 */
export function registerThemeRoute(fastify: FastifyInstance, deps: { appearance: AppearanceService }) {
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
