import type { FontName } from '../../areas/appearance/fonts.ts';
import { FONTS } from '../../areas/appearance/fonts.ts';
import { THEME_LOOKS, THEMES } from '../../areas/appearance/themes.ts';
import { fontFaces, fontStack } from './fonts.ts';
import { designTokens } from './theme-tokens.ts';

/** The class of a font's sample in the admin: "font-source-serif-4". */
export const fontClass = (font: string) => `font-${font.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

/** The samples' own rules: each draws with the tokens its theme class sets. */
const GALLERY_RULES = `
.theme-choices { display: grid; gap: 1rem; grid-template-columns: repeat(auto-fill, minmax(min(17rem, 100%), 1fr)); }
.theme-choice { position: relative; }
.theme-choice > input { position: absolute; top: 1.1rem; left: 1rem; width: 1.2rem; height: 1.2rem; margin: 0; }
.theme-choice > label { display: block; border: 2px solid color-mix(in srgb, currentColor 20%, transparent); border-radius: .6rem; padding: .8rem 1rem 1rem 2.75rem; cursor: pointer; font-weight: 400; height: 100%; }
.theme-choice > input:checked + label { border-color: currentColor; box-shadow: 0 0 0 2px currentColor inset; }
.theme-choice > input:focus-visible + label { outline: 3px solid; outline-offset: 2px; }
.theme-name { display: block; font-weight: 700; font-size: 1.1rem; }
.theme-words { display: block; margin: .2rem 0 .7rem; }
.theme-sample { margin-left: -1.75rem; background: var(--background); color: var(--text); font-family: var(--body-font); border: 1px solid var(--border); border-radius: var(--radius); padding: .75rem; font-size: .9rem; line-height: 1.5; }
.theme-sample .ts-bar { display: flex; justify-content: space-between; gap: .5rem; border-bottom: 1px solid var(--border); padding-bottom: .4rem; }
.theme-sample .ts-brand { font-family: var(--heading-font); font-weight: var(--heading-weight); }
.theme-sample .ts-nav { color: var(--muted); }
.theme-sample .ts-heading { font-family: var(--heading-font); font-weight: var(--heading-weight); letter-spacing: var(--heading-tracking); font-size: 1.35rem; line-height: 1.2; margin: .6rem 0 .3rem; }
.theme-sample .ts-text { margin: 0 0 .6rem; }
.theme-sample .ts-link { color: var(--link); text-decoration: underline; }
.theme-sample .ts-actions { margin: 0; display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
.theme-sample .ts-button { background: var(--button); color: var(--on-button); border-radius: var(--radius-button); padding: .3rem .9rem; font-weight: 600; }
.theme-sample .ts-badge { background: var(--badge); color: var(--on-badge); border-radius: var(--radius-badge); padding: 0 .5rem; font-size: .8rem; font-weight: 600; }
.font-sample { display: block; font-size: 1.15rem; }
.home-editor fieldset { margin-bottom: 1.25rem; }
.home-editor .help { display: block; font-size: .9rem; }
.home-editor ul.plain { list-style: none; padding: 0; margin: .25rem 0; }
.home-editor ul.plain li { display: flex; flex-wrap: wrap; gap: .35rem .6rem; align-items: center; margin: .35rem 0; }
.home-editor label.inline { display: inline; font-weight: 400; margin: 0; }
.home-editor input[type="checkbox"] { width: 1.15rem; height: 1.15rem; min-height: 0; }
.home-editor input.narrow { width: 4.5rem; min-height: 2.25rem; }
`;

/**
 * The appearance editors' stylesheet (the CSP admits no inline style): every served font's faces, a class
 * per font for its sample, and a class per built-in theme that sets that theme's design tokens on a small sample of
 * the site, so the owner sees each theme and font before choosing it; and the home page editor's few rules.
 */
export function themeGalleryCss(): string {
  const fonts = [...FONTS] as FontName[];
  const themes = THEMES.map(
    (theme) =>
      `.theme-sample.theme-${theme} {\n${designTokens({ ...THEME_LOOKS[theme], theme })
        .map((token) => `  ${token}`)
        .join('\n')}\n}`,
  );
  return [
    GALLERY_RULES,
    fontFaces(fonts),
    ...fonts.map((font) => `.${fontClass(font)} { font-family: ${fontStack(font)}; }`),
    ...themes,
  ].join('\n');
}
