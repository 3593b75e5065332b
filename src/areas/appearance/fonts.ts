/**
 * Fonts every device has, and three the school serves itself (Inter, Source Serif 4, Fraunces): school pages never
 * fetch fonts from a third party.
 */
export const FONTS = [
  'system-ui',
  'sans-serif',
  'serif',
  'monospace',
  'Georgia',
  'Helvetica',
  'Verdana',
  'Times New Roman',
  'Inter',
  'Source Serif 4',
  'Fraunces',
] as const;
export type FontName = (typeof FONTS)[number];
