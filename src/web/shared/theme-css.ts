import type { Appearance } from '../../areas/appearance/schema.ts';
import { fontFaces } from './fonts.ts';
import { designTokens } from './theme-tokens.ts';

/**
 * The school's stylesheet: the faces of the fonts it serves itself, its design tokens (colours checked for contrast,
 * fonts with fallbacks, its theme's scale and corners) as the custom properties site.css uses, then its own CSS.
 */
export function themeCss(appearance: Pick<Appearance, 'colors' | 'fonts' | 'theme' | 'custom_css'>): string {
  const { fonts } = appearance;
  return `${fontFaces([fonts.heading, fonts.body])}
:root {
${designTokens(appearance)
  .map((token) => `  ${token}`)
  .join('\n')}
}
${appearance.custom_css}
`;
}
