/*
 * The arithmetic of readable colour (WCAG 2.2): relative luminance, contrast ratio, and the nearest colour that reaches
 * a ratio. The theme uses it so that a colour the owner picks never makes text unreadable: links, muted text, badges
 * and button labels are moved just far enough from the owner's colour to reach 4.5:1.
 */

type Rgb = [number, number, number];

/** Normal-size text needs 4.5:1 against what is behind it (WCAG 1.4.3). */
export const TEXT_CONTRAST = 4.5;

const rgbOf = (hex: string): Rgb => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as Rgb;

const hexOf = (rgb: Rgb) => `#${rgb.map((c) => Math.round(c).toString(16).padStart(2, '0')).join('')}`;

/** WCAG relative luminance of a #rrggbb colour, 0 (black) to 1 (white). */
export function luminance(hex: string): number {
  const [r, g, b] = rgbOf(hex).map((c) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  }) as Rgb;
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The WCAG contrast ratio of two colours, 1 to 21. */
export function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

/** `a` moved `share` (0–1) of the way to `b`, in sRGB, as CSS color-mix(in srgb) does. */
export function mix(a: string, b: string, share: number): string {
  const [x, y] = [rgbOf(a), rgbOf(b)];
  return hexOf(x.map((c, i) => c + ((y[i] as number) - c) * share) as Rgb);
}

/** Whether a colour is dark enough that light text reads on it (a dark page wants a dark color-scheme). */
export const isDark = (hex: string) => contrast(hex, '#ffffff') > contrast(hex, '#000000');

/**
 * `colour` itself when it reads on `behind` at `ratio`, else the least change of it towards black (on a light
 * background) or white (on a dark one) that does: the hue the owner chose, darkened or lightened just enough.
 */
export function readableOn(colour: string, behind: string, ratio = TEXT_CONTRAST): string {
  const away = isDark(behind) ? '#ffffff' : '#000000';
  for (let step = 0; step <= 20; step++) {
    const candidate = mix(colour, away, step / 20);
    if (contrast(candidate, behind) >= ratio) return candidate;
  }
  return away;
}

/** The label colour for a filled surface: white or near-black, whichever reads better on it. */
export const labelOn = (fill: string) =>
  contrast(fill, '#ffffff') >= contrast(fill, '#111111') ? '#ffffff' : '#111111';

/**
 * A fill (a button's) and its label that read at `ratio`: the label is white or near-black, and the fill is moved
 * away from it only when neither reaches the ratio on the owner's colour (a mid grey, a bright yellow).
 */
export function filled(fill: string, ratio = TEXT_CONTRAST): { fill: string; label: string } {
  const label = labelOn(fill);
  return { fill: readableOn(fill, label, ratio), label };
}
