import { createHash } from 'node:crypto';
import { html, SafeHtml } from '../../text/html.ts';

/**
 * The cover a course without one is given: its title set large on one of the school's colours, beside shapes in the
 * other, in one of several compositions. Which tone and which composition, and where the shapes fall, are read from a
 * hash of the course's id, so neighbouring cards differ while each course keeps its cover for good.
 *
 * The page's cover is inline SVG and HTML: its colours are the theme's custom properties (picture-css.ts), so it
 * follows the school's colours and fonts as they change, and its title is real text in the school's heading font. The
 * share image (share-image.ts) draws the same shapes with the colours written in.
 */

/** The viewBox every composition is drawn in: 16:9, the cards' and the course page's cover. */
export const COVER_BOX = { width: 320, height: 180 } as const;

export const TONES = ['primary', 'accent', 'ink'] as const;
export type Tone = (typeof TONES)[number];

/** A stream of small numbers from the hash of `seed`, each its own bits: the same seed, the same choices. */
function choices(seed: string) {
  const bytes = createHash('sha256').update(seed).digest();
  let at = 0;
  return {
    /** An integer in [0, n). */
    pick: (n: number) => (bytes[at++ % bytes.length] as number) % n,
    /** A number in [lo, hi]. */
    between: (lo: number, hi: number) => lo + ((bytes[at++ % bytes.length] as number) / 255) * (hi - lo),
  };
}

type Choices = ReturnType<typeof choices>;
const r = (n: number) => Math.round(n * 10) / 10;

/**
 * The compositions, each drawn in the 320 × 180 box with the classes of picture-css.ts: `pop` in the second colour,
 * `ink` in the title's colour (faint, `soft`), `line` an outline in it. Shapes keep clear of the lower left, where the
 * title stands, or are faint enough there to keep it readable.
 */
const COMPOSITIONS: ((c: Choices, id: string) => string)[] = [
  // Orbits: a large disc off the top right corner, rings around it.
  (c) => {
    const cx = r(c.between(272, 300));
    const cy = r(c.between(-10, 18));
    const radius = r(c.between(72, 86));
    const rings = [1.3, 1.6, 1.9, 2.2].map((k) => `<circle class="line" cx="${cx}" cy="${cy}" r="${r(radius * k)}"/>`);
    return `${rings.join('')}<circle class="pop" cx="${cx}" cy="${cy}" r="${radius}"/>`;
  },
  // Bands: broad diagonal stripes across the right, the middle one in the second colour.
  (c) => {
    const slope = r(c.between(60, 90));
    const top = r(c.between(226, 240)) + slope;
    const width = 30;
    const band = (x: number, cls: string) => `<path class="${cls}" d="M${r(x)} 0h${width}l-${slope} 180h-${width}z"/>`;
    return `${band(top - 46, 'ink soft')}${band(top, 'pop')}${band(top + 46, 'ink soft')}${band(top + 92, 'pop')}`;
  },
  // Dots: a field of dots over the right, a quarter disc in the corner.
  (c, id) => {
    const corner = r(c.between(92, 118));
    const pid = `gc-dots-${id.replace(/[^a-z0-9_]/gi, '')}`;
    return `<defs><pattern id="${pid}" width="11" height="11" patternUnits="userSpaceOnUse"><circle class="ink" cx="3" cy="3" r="2"/></pattern></defs><rect x="${r(c.between(214, 226))}" y="0" width="110" height="180" fill="url(#${pid})" class="dots"/><path class="pop" d="M320 0v${corner}a${corner} ${corner} 0 0 1-${corner}-${corner}z"/>`;
  },
  // Blocks: a half disc standing on a square, a disc beside them, an outline behind.
  (c) => {
    const x = r(c.between(214, 226));
    const size = r(c.between(64, 72));
    const y = r(c.between(46, 58));
    const half = r(size / 2);
    return `<rect class="line" x="${r(x + 18)}" y="${r(y - 30)}" width="${size}" height="${size}"/><rect class="ink soft" x="${x}" y="${y}" width="${size}" height="${size}"/><path class="pop" d="M${x} ${y}a${half} ${half} 0 0 1 ${size} 0z"/><circle class="pop" cx="${r(x + size + 10)}" cy="${r(y + size + 8)}" r="${r(c.between(12, 18))}"/>`;
  },
  // Waves: layered waves along the top.
  (c) => {
    const amp = r(c.between(9, 15));
    const base = r(c.between(50, 60));
    const wave = (y: number, cls: string) =>
      `<path class="${cls}" d="M0 0h320v${r(y)}c-40 ${amp} -80 ${amp} -107 0s-67 -${amp} -107 0s-67 ${amp} -106 0z"/>`;
    return `${wave(base + 22, 'ink soft')}${wave(base, 'pop')}${wave(base - 22, 'ink soft')}`;
  },
  // Arches: nested arches rising from the lower right.
  (c) => {
    const cx = r(c.between(284, 300));
    const arches = [76, 58, 40, 22].map(
      (radius, i) =>
        `<path class="${i % 2 ? 'ink soft' : 'pop'}" d="M${cx - radius} 180a${radius} ${radius} 0 0 1 ${radius * 2} 0z"/>`,
    );
    return arches.join('');
  },
  // Tiles: a grid of squares in the upper right, some filled in the second colour.
  (c) => {
    const x0 = r(c.between(214, 226));
    const tiles: string[] = [];
    for (let row = 0; row < 4; row++)
      for (let col = 0; col < 4; col++) {
        const kind = c.pick(4);
        const x = x0 + col * 26;
        const y = 12 + row * 26;
        tiles.push(
          kind === 0
            ? `<rect class="pop" x="${x}" y="${y}" width="20" height="20" rx="3"/>`
            : kind === 1
              ? `<circle class="pop" cx="${x + 10}" cy="${y + 10}" r="10"/>`
              : `<rect class="ink soft" x="${x}" y="${y}" width="20" height="20" rx="3"/>`,
        );
      }
    return tiles.join('');
  },
  // Sun: a disc setting behind the right edge, cut by horizontal lines.
  (c) => {
    const cy = r(c.between(56, 72));
    const radius = r(c.between(56, 66));
    const cx = r(c.between(270, 286));
    const cuts = [0, 1, 2, 3]
      .map(
        (i) =>
          `<rect class="fill" x="${r(cx - radius)}" y="${r(cy + 12 + i * 12)}" width="${r(radius * 2)}" height="${3 + i * 1.5}"/>`,
      )
      .join('');
    return `<circle class="ink soft" cx="${cx}" cy="${cy}" r="${r(radius * 1.45)}"/><circle class="pop" cx="${cx}" cy="${cy}" r="${radius}"/>${cuts}`;
  },
];

export type CoverDesign = { tone: Tone; composition: number; flipped: boolean; shapes: string };

/** The design of a course's generated cover: the same for the same id, different between courses. */
export function coverDesign(course: { id: string }): CoverDesign {
  const c = choices(course.id);
  // The school's main colour most often, its dark ink next, its accent (often loud) least.
  const n = c.pick(20);
  const tone: Tone = n < 8 ? 'primary' : n < 15 ? 'ink' : 'accent';
  const composition = c.pick(COMPOSITIONS.length);
  // Half the covers are turned upside down, the title at the top: the shapes then keep clear of the upper left.
  const flipped = c.pick(2) === 1;
  const draw = COMPOSITIONS[composition] as (c: Choices, id: string) => string;
  const shapes = draw(c, course.id);
  return {
    tone,
    composition,
    flipped,
    shapes: flipped ? `<g transform="matrix(1 0 0 -1 0 ${COVER_BOX.height})">${shapes}</g>` : shapes,
  };
}

/** At most `max` characters, cut at a word, with an ellipsis: three lines of the cover hold about this much. */
export function coverTitle(title: string, max = 80): string {
  if (title.length <= max) return title;
  const cut = title.slice(0, max + 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut.slice(0, max)).replace(/[\s,.;:–—-]+$/, '')}…`;
}

/** The generated cover as the page shows it; the title repeats the one beside it, so it is hidden from assistive tech. */
export function generatedCover(course: { id: string; title: string }, className?: string): SafeHtml {
  const design = coverDesign(course);
  const title = coverTitle(course.title);
  // A long title is set smaller, a short one larger, so each fills about the same room.
  const size = title.length > 42 ? ' long' : title.length <= 18 ? ' short' : '';
  const classes = `gen-cover tone-${design.tone}${size}${design.flipped ? ' top' : ''}${className ? ` ${className}` : ''}`;
  return html`<span class="${classes}" aria-hidden="true"><svg viewBox="0 0 ${COVER_BOX.width} ${COVER_BOX.height}" preserveAspectRatio="xMidYMid slice" focusable="false">${new SafeHtml(design.shapes)}</svg><span class="gen-title"><span class="gen-rule"></span>${title}</span></span>`;
}
