import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';
import sharp from 'sharp';
import { escapeHtml } from '../../text/html.ts';
import { filled, mix } from './colour-contrast.ts';
import { COVER_BOX, type CoverDesign, coverDesign, coverTitle } from './generated-cover.ts';

/** The size link previews show large (Open Graph, X/Twitter's summary_large_image, LinkedIn, Slack). */
export const SHARE_SIZE = { width: 1200, height: 630 } as const;

/**
 * The version of how share images are drawn: part of every share image's name, so a change here is a new address
 * that no cache holds yet.
 */
const RECIPE = 's1';

const require = createRequire(import.meta.url);
/** Fonts from the dejavu-fonts-ttf package, so a server with no fonts installed draws the same letters. */
const FONT_FILES = {
  serif: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSerif-Bold.ttf'),
  sans: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
  label: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
} as const;
const FONT_NAMES = { serif: 'DejaVu Serif Bold', sans: 'DejaVu Sans Bold', label: 'DejaVu Sans' } as const;

export type SchoolColours = { primary: string; accent: string };

/** What a share image is drawn from: whatever changes it changes its name. */
export type ShareSubject = {
  /** The course or post's id: its generated design is chosen from it, as its cover is. */
  id: string;
  title: string;
  schoolName: string;
  colours: SchoolColours;
  /** The school's heading font, by its appearance name: a serif one is drawn in a serif. */
  headingFont: string;
  /** The SHA-256 of the uploaded cover to crop, when the subject has one of the school's uploads. */
  coverSha256?: string | undefined;
};

/** A short, stable name of everything a share image is drawn from. */
export function shareVersion(subject: ShareSubject): string {
  const { id, title, schoolName, colours, headingFont, coverSha256 } = subject;
  return createHash('sha256')
    .update(JSON.stringify([RECIPE, id, title, schoolName, colours, headingFont, coverSha256 ?? null]))
    .digest('hex')
    .slice(0, 16);
}

/** The colours of a tone, written in, as the cover's CSS makes them from the theme (picture-css.ts). */
function palette(design: CoverDesign, colours: SchoolColours) {
  if (design.tone === 'ink')
    return { fill: mix('#0c0e16', colours.primary, 0.28), ink: '#ffffff', pop: colours.accent };
  const own = design.tone === 'primary' ? colours.primary : colours.accent;
  const { fill, label } = filled(own);
  return { fill, ink: label, pop: design.tone === 'primary' ? colours.accent : colours.primary };
}

/** The cover's shapes drawn at 1200 × 630 with the colours written in (the cover's classes, as a stylesheet). */
function backdrop(design: CoverDesign, colours: ReturnType<typeof palette>): Buffer {
  const { width, height } = SHARE_SIZE;
  return Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
<style>.pop{fill:${colours.pop}}.ink{fill:${colours.ink}}.fill{fill:${colours.fill}}.soft{opacity:.14}.dots{opacity:.3}.line{fill:none;stroke:${colours.ink};stroke-opacity:.3;stroke-width:1.2}</style>
<defs><radialGradient id="glow" cx=".88" cy=".08" r=".6"><stop offset="0" stop-color="${colours.pop}" stop-opacity=".3"/><stop offset="1" stop-color="${colours.pop}" stop-opacity="0"/></radialGradient></defs>
<rect width="${width}" height="${height}" fill="${colours.fill}"/><rect width="${width}" height="${height}" fill="url(#glow)"/>
<svg width="${width}" height="${height}" viewBox="0 0 ${COVER_BOX.width} ${COVER_BOX.height}" preserveAspectRatio="xMidYMid slice">${design.shapes}</svg>
</svg>`);
}

/** A line or paragraph of text as an image, in one of the bundled fonts, wrapped at `width`. */
async function textImage(
  text: string,
  options: { font: keyof typeof FONT_FILES; size: number; colour: string; width: number; spacing?: number },
) {
  const made = await sharp({
    text: {
      text: `<span foreground="${options.colour}">${escapeHtml(text)}</span>`,
      font: `${FONT_NAMES[options.font]} ${options.size}`,
      fontfile: FONT_FILES[options.font],
      width: options.width,
      wrap: 'word',
      rgba: true,
      dpi: 72,
      spacing: options.spacing ?? 0,
    },
  })
    .png()
    .toBuffer({ resolveWithObject: true });
  return { input: made.data, width: made.info.width, height: made.info.height };
}

/**
 * The share image of a course or post without a cover of its own: its generated cover's design, drawn larger, with
 * its title and the school's name. PNG: flat colour and letters stay sharp and small (JPEG where a cover was meant).
 */
export async function drawnShareImage(subject: ShareSubject, format: 'png' | 'jpeg' = 'png'): Promise<Buffer> {
  const design = coverDesign(subject);
  const colours = palette(design, subject.colours);
  const title = coverTitle(subject.title, 90);
  const serif = /serif|georgia|times|fraunces/i.test(subject.headingFont) && !/sans/i.test(subject.headingFont);
  const margin = 84;
  const size = title.length > 60 ? 52 : title.length > 28 ? 64 : 80;
  const heading = await textImage(title, {
    font: serif ? 'serif' : 'sans',
    size,
    colour: colours.ink,
    width: 700,
    spacing: Math.round(size * 0.15),
  });
  const school = await textImage(subject.schoolName, { font: 'label', size: 30, colour: colours.ink, width: 700 });
  const rule = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="12"><rect width="96" height="12" rx="6" fill="${colours.pop}"/></svg>`,
  );
  // The title stands where the cover's does: at the bottom, or at the top of a cover turned upside down.
  const block = 12 + 28 + heading.height;
  const top = design.flipped ? margin : SHARE_SIZE.height - margin - block - school.height - 24;
  const schoolTop = design.flipped ? SHARE_SIZE.height - margin - school.height : margin;
  const drawn = sharp(backdrop(design, colours)).composite([
    { input: rule, left: margin, top },
    { input: heading.input, left: margin, top: top + 40 },
    { input: school.input, left: margin, top: schoolTop },
  ]);
  return (
    format === 'png' ? drawn.png({ compressionLevel: 9 }) : drawn.jpeg({ quality: 88, mozjpeg: true })
  ).toBuffer();
}

/** The share image of an uploaded cover: cropped to 1200 × 630 around what draws the eye, as JPEG. */
export function croppedShareImage(original: Buffer): Promise<Buffer> {
  return sharp(original, { autoOrient: true, limitInputPixels: 50_000_000 })
    .resize({ ...SHARE_SIZE, fit: 'cover', position: sharp.strategy.attention })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 82, mozjpeg: true })
    .toBuffer();
}
