import type { Appearance } from '../../areas/appearance/schema.ts';
import type { ThemeName } from '../../areas/appearance/themes.ts';
import { filled, isDark, mix, readableOn } from './colour-contrast.ts';
import { fontStack } from './fonts.ts';

/** The shape of a theme, beside its colours and fonts: how big headings grow, how round corners are. */
type Shape = {
  /** Each heading step is this many times the one below, on a wide screen (phones use 1.2). */
  scale: number;
  headingWeight: number;
  headingTracking: string;
  /** Cards and boxes; buttons; badges. */
  radius: string;
  buttonRadius: string;
  badgeRadius: string;
  /** How far a card rises from the page. */
  shadow: string;
};

const SHAPES: Record<ThemeName, Shape> = {
  classic: {
    scale: 1.25,
    headingWeight: 650,
    headingTracking: '-0.01em',
    radius: '0.5rem',
    buttonRadius: '0.375rem',
    badgeRadius: '0.25rem',
    shadow: '0 1px 2px rgb(0 0 0 / 6%), 0 4px 12px rgb(0 0 0 / 6%)',
  },
  studio: {
    scale: 1.333,
    headingWeight: 600,
    headingTracking: '-0.02em',
    radius: '1.25rem',
    buttonRadius: '999px',
    badgeRadius: '999px',
    shadow: '0 2px 4px rgb(60 40 20 / 6%), 0 12px 28px rgb(60 40 20 / 10%)',
  },
  night: {
    scale: 1.25,
    headingWeight: 700,
    headingTracking: '-0.025em',
    radius: '0.75rem',
    buttonRadius: '0.5rem',
    badgeRadius: '0.375rem',
    shadow: '0 1px 2px rgb(0 0 0 / 40%), 0 8px 24px rgb(0 0 0 / 35%)',
  },
};

/** Phones (360 px) to wide windows (1280 px): each step of the type scale grows between the two, never past them. */
function typeScale(ratio: number): string[] {
  const [narrow, wide] = [22.5, 80];
  return [-1, 0, 1, 2, 3, 4, 5].map((step) => {
    const min = 1.2 ** step;
    const max = 1.0625 * ratio ** step;
    const slope = (max - min) / (wide - narrow);
    const base = min - slope * narrow;
    const name = step < 0 ? `--step--${-step}` : `--step-${step}`;
    return `${name}: clamp(${min.toFixed(3)}rem, ${base.toFixed(3)}rem + ${(slope * 100).toFixed(3)}vw, ${max.toFixed(3)}rem);`;
  });
}

/**
 * Every design token of the school's stylesheet, as custom property declarations: the owner's colours, and colours
 * derived from them that are checked for contrast (links, muted text, badges, button labels at 4.5:1 at least), the
 * fonts with their fallbacks, the theme's type scale, corners and shadows.
 */
export function designTokens(appearance: Pick<Appearance, 'colors' | 'fonts' | 'theme'>): string[] {
  const { colors, fonts } = appearance;
  const shape = SHAPES[appearance.theme] ?? SHAPES.classic;
  const dark = isDark(colors.background);
  const text = readableOn(colors.text, colors.background, 7);
  const surface = mix(colors.background, dark ? '#ffffff' : colors.text, dark ? 0.06 : 0.03);
  const button = filled(colors.primary);
  const accent = filled(colors.accent);
  return [
    `color-scheme: ${dark ? 'dark' : 'light'};`,
    `--primary: ${colors.primary};`,
    `--accent: ${colors.accent};`,
    `--background: ${colors.background};`,
    `--text: ${text};`,
    `--surface: ${surface};`,
    `--surface-strong: ${mix(colors.background, colors.primary, dark ? 0.16 : 0.08)};`,
    `--border: ${mix(colors.background, text, dark ? 0.22 : 0.16)};`,
    `--border-strong: ${mix(colors.background, text, 0.45)};`,
    // Text on the surface too reaches 4.5:1, so muted lines read inside cards.
    `--muted: ${readableOn(mix(text, colors.background, 0.3), surface)};`,
    `--link: ${readableOn(colors.primary, surface)};`,
    `--accent-text: ${readableOn(colors.accent, surface)};`,
    `--button: ${button.fill};`,
    `--on-button: ${button.label};`,
    `--button-hover: ${mix(button.fill, button.label, 0.14)};`,
    `--badge: ${accent.fill};`,
    `--on-badge: ${accent.label};`,
    `--focus: ${readableOn(colors.primary, colors.background, 3)};`,
    `--danger: ${readableOn('#b3261e', surface)};`,
    `--success: ${readableOn('#2e7d32', surface)};`,
    `--warning: ${readableOn('#9a5b00', surface)};`,
    `--heading-font: ${fontStack(fonts.heading)};`,
    `--body-font: ${fontStack(fonts.body)};`,
    `--heading-weight: ${shape.headingWeight};`,
    `--heading-tracking: ${shape.headingTracking};`,
    `--radius: ${shape.radius};`,
    `--radius-button: ${shape.buttonRadius};`,
    `--radius-badge: ${shape.badgeRadius};`,
    `--shadow: ${shape.shadow};`,
    ...typeScale(shape.scale),
  ];
}
