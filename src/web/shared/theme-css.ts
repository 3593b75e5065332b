import type { Appearance } from '../../areas/appearance/schema.ts';

/** A font family as CSS: names with spaces are quoted (the appearance area admits only a fixed list of names). */
const family = (font: string) => (/\s/.test(font) ? `"${font}"` : font);

/** Whether a #rrggbb colour is dark, so form controls and scrollbars follow the page's background. */
function isDark(hex: string): boolean {
  const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16) / 255) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b < 0.5;
}

/** The school's stylesheet: its colours and fonts as the custom properties site.css uses, then its own CSS. */
export function themeCss(appearance: Pick<Appearance, 'colors' | 'fonts' | 'custom_css'>): string {
  const { colors, fonts } = appearance;
  return `:root {
  color-scheme: ${isDark(colors.background) ? 'dark' : 'light'};
  --primary: ${colors.primary};
  --accent: ${colors.accent};
  --background: ${colors.background};
  --text: ${colors.text};
  --heading-font: ${family(fonts.heading)};
  --body-font: ${family(fonts.body)};
}
${appearance.custom_css}
`;
}
