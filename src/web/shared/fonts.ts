import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { FontName } from '../../areas/appearance/fonts.ts';

/**
 * The site's fonts. A font the school serves itself comes from its Fontsource package (free fonts under the OFL):
 * the variable weight axis only, as WOFF2, split by script so a browser fetches only the subsets a page's text needs
 * (unicode-range). Every font, served or not, is written with a full stack of fallbacks that a Linux, macOS, Windows,
 * Android or iOS reader has, so text never drops to a mismatched generic face while a font loads or if it is missing.
 */

/** Each font the appearance offers, by its name there, with its fallbacks. */
const STACKS: Record<FontName, string> = {
  'system-ui': 'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Liberation Sans", sans-serif',
  'sans-serif': '"Helvetica Neue", Arial, "Liberation Sans", "DejaVu Sans", sans-serif',
  serif: 'Georgia, "DejaVu Serif", "Liberation Serif", "Times New Roman", serif',
  monospace: 'ui-monospace, "SFMono-Regular", Menlo, Consolas, "DejaVu Sans Mono", "Liberation Mono", monospace',
  Georgia: 'Georgia, "DejaVu Serif", "Liberation Serif", "Times New Roman", serif',
  Helvetica: 'Helvetica, "Helvetica Neue", Arial, "Liberation Sans", "DejaVu Sans", sans-serif',
  Verdana: 'Verdana, "DejaVu Sans", "Bitstream Vera Sans", Geneva, sans-serif',
  'Times New Roman': '"Times New Roman", Times, "Liberation Serif", "DejaVu Serif", serif',
  Inter: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Liberation Sans", sans-serif',
  'Source Serif 4': '"Source Serif 4", Georgia, "DejaVu Serif", "Liberation Serif", "Times New Roman", serif',
  Fraunces: 'Fraunces, Georgia, "DejaVu Serif", "Liberation Serif", serif',
};

/** The fonts served by the school, by name, with the Fontsource package that holds them. */
const SELF_HOSTED: Partial<Record<FontName, string>> = {
  Inter: '@fontsource-variable/inter',
  'Source Serif 4': '@fontsource-variable/source-serif-4',
  Fraunces: '@fontsource-variable/fraunces',
};

/** A font's CSS font-family value: the font, then its fallbacks. */
export const fontStack = (font: string) => STACKS[font as keyof typeof STACKS] ?? STACKS['system-ui'];

/** One file of a served font: one script's subset. */
type FontFile = { font: string; subset: string; href: string; body: Buffer; unicodeRange: string };

const LONG_CACHE = 'public, max-age=31536000, immutable';
const require = createRequire(import.meta.url);

/** The package's own list of subsets (its wght.css), read for the file names and their unicode ranges. */
function filesOf(font: string, pkg: string): FontFile[] {
  const root = dirname(require.resolve(`${pkg}/package.json`));
  const css = readFileSync(join(root, 'wght.css'), 'utf8');
  const faces = css.match(/@font-face\s*{[^}]*}/g) ?? [];
  return faces.flatMap((face) => {
    const file = /url\(\.\/files\/([\w-]+-wght-normal\.woff2)\)/.exec(face)?.[1];
    const unicodeRange = /unicode-range:\s*([^;]+);/.exec(face)?.[1]?.trim();
    if (!file || !unicodeRange) return [];
    const body = readFileSync(join(root, 'files', file));
    const version = createHash('sha256').update(body).digest('base64url').slice(0, 12);
    const subset = file.replace(/-wght-normal\.woff2$/, '');
    return [{ font, subset, href: `/assets/fonts/${file}?v=${version}`, body, unicodeRange }];
  });
}

let loaded: FontFile[] | undefined;
/** Every served font's files, read once. */
function fontFiles(): FontFile[] {
  loaded ??= Object.entries(SELF_HOSTED).flatMap(([font, pkg]) => filesOf(font, pkg as string));
  return loaded;
}

/** The @font-face rules of the served fonts among `fonts` (nothing for a font every device has). */
export function fontFaces(fonts: string[]): string {
  return fontFiles()
    .filter((file) => fonts.includes(file.font))
    .map(
      (file) =>
        `@font-face { font-family: "${file.font}"; font-style: normal; font-weight: 100 900; font-display: swap; src: url(${file.href}) format("woff2"); unicode-range: ${file.unicodeRange}; }`,
    )
    .join('\n');
}

/** The Latin file of each served font among `fonts`: what a page preloads so its text swaps early, or not at all. */
export const latinFontHrefs = (fonts: string[]) =>
  fontFiles()
    .filter((file) => fonts.includes(file.font) && file.subset.endsWith('-latin'))
    .map((file) => file.href);

/** /assets/fonts/<file>.woff2: each served font file, kept by browsers for a year (its URL carries its version). */
export function registerFontRoutes(app: FastifyInstance) {
  for (const file of fontFiles()) {
    app.get(file.href.split('?')[0] as string, { config: { public: true } }, async (_request, reply) =>
      reply.type('font/woff2').header('cache-control', LONG_CACHE).send(file.body),
    );
  }
}
