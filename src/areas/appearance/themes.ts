import type { FontName } from './fonts.ts';

/**
 * The built-in themes. A theme is a starting look: its colours and fonts become the school's when the owner picks it
 * (and stay the owner's to change), and its shape — type scale, corners, weight of headings — stays with it
 * (web/shared/theme-tokens.ts). Each palette reads at 4.5:1 or better for text, links and button labels.
 */
export const THEMES = ['classic', 'studio', 'night'] as const;
export type ThemeName = (typeof THEMES)[number];

export const DEFAULT_THEME: ThemeName = 'classic';

type Look = {
  colors: { primary: string; accent: string; background: string; text: string };
  fonts: { heading: FontName; body: FontName };
};

export const THEME_LOOKS: Record<ThemeName, Look> = {
  /** A school's look: a book serif for headings on white, blue links, an orange accent. */
  classic: {
    colors: { primary: '#1d4ed8', accent: '#c2410c', background: '#ffffff', text: '#1f2937' },
    fonts: { heading: 'Source Serif 4', body: 'Inter' },
  },
  /** A maker's look: a warm paper background, a soft display serif, terracotta and green, round corners. */
  studio: {
    colors: { primary: '#a63d1c', accent: '#2f6b57', background: '#fbf6ee', text: '#2b2118' },
    fonts: { heading: 'Fraunces', body: 'Inter' },
  },
  /** A screen's look: dark, one sans-serif throughout, light blue and amber. */
  night: {
    colors: { primary: '#8ab4ff', accent: '#f2b544', background: '#10141c', text: '#e7eaf0' },
    fonts: { heading: 'Inter', body: 'Inter' },
  },
};
