import { html, type SafeHtml } from '../../text/html.ts';

/** One stored variant of an image: its address and its width in pixels (the `w` of a srcset). */
export type ImageSource = { url: string; width: number };

/** The variants of one format: its media type and its sources, narrowest first. */
export type ImageFormat = { type: string; sources: ImageSource[] };

/**
 * What the school knows of an image it shows: its size in pixels (after the camera's rotation is applied), a tiny
 * blurred copy to show while it loads, and its stored variants by format, best first (AVIF, WebP, then the JPEG or
 * PNG every browser reads). An image with no variants (a generated SVG cover, an animation) is shown as it is.
 */
export type ImageFacts = {
  width: number;
  height: number;
  /** A data: URI of a ~16 px copy, or null (images with transparency have none: it would show through). */
  placeholder: string | null;
  formats: ImageFormat[];
};

/** The image facts a page has loaded for the pictures it shows (pictures.ts loads them, one query a page). */
export type Pictures = {
  /** The facts of the image at `url` when it is one of the school's uploads with its variants made; else undefined. */
  facts(url: string | null | undefined): ImageFacts | undefined;
};

/** No facts: every picture is a plain <img> of its address, in the box it is given. */
export const NO_PICTURES: Pictures = { facts: () => undefined };

export type PictureOptions = {
  /** The image's address: an upload's public URL, a generated cover, or a picture elsewhere. */
  src: string;
  /** The text alternative; "" for a picture beside text that says the same (a course card's cover). */
  alt: string;
  /** How wide the picture is shown, for the browser's choice among the variants: "(min-width: 50rem) 20rem, 100vw". */
  sizes: string;
  /** The image's facts (from the page's `Pictures`); without them the picture is a plain <img> of `src`. */
  facts?: ImageFacts | undefined;
  /**
   * The shape of the box when the picture is cropped to fit it (a cover 16:9, a portrait 1:1), as [width, height];
   * without it the box has the image's own proportions. Either way width and height are set, so nothing moves.
   */
  ratio?: Ratio;
  /** Classes of the wrapper, which the page's CSS sizes (width, max-width, border-radius; not display). */
  className?: string;
  /** The page's main picture, in view at once: loaded eagerly and first. Others load lazily, as they come into view. */
  priority?: boolean;
};

/** The shapes a picture may be cropped to; picture-css.ts holds each as a class (an inline style would be refused). */
export type Ratio = readonly [16, 9] | readonly [4, 3] | readonly [3, 2] | readonly [1, 1];

/** Width and height attributes in the box's proportions, at the image's own width (or a nominal 1280). */
function box(options: PictureOptions): { width: number; height: number } {
  const facts = options.facts;
  if (!options.ratio) return facts ? { width: facts.width, height: facts.height } : { width: 1280, height: 720 };
  const [w, h] = options.ratio;
  const width = facts?.width ?? 1280;
  return { width, height: Math.max(1, Math.round((width * h) / w)) };
}

const srcset = (sources: ImageSource[]) => sources.map((s) => `${s.url} ${s.width}w`).join(', ');

/**
 * An image as responsive HTML: a `<picture>` with a `<source>` per modern format (AVIF, then WebP) and an `<img>` of
 * the fallback format, each with its srcset of widths and `sizes`, width and height set, lazy unless `priority`; the
 * placeholder, when there is one, is an image of its own under it (the CSP admits no inline style to make it a
 * background). All inside `<span class="pic">`, whose CSS (picture-css.ts) lays the two over each other.
 */
export function picture(options: PictureOptions): SafeHtml {
  const { facts, alt, sizes } = options;
  const { width, height } = box(options);
  // Width and height give the box its shape only until the image arrives; a cropped box keeps its shape by a class.
  const shape = options.ratio ? ` pic-${options.ratio[0]}x${options.ratio[1]}` : '';
  const className = `pic${shape}${options.className ? ` ${options.className}` : ''}`;
  const loading = options.priority
    ? html` loading="eager" fetchpriority="high" decoding="async"`
    : html` loading="lazy" decoding="async"`;
  const placeholder = facts?.placeholder
    ? html`<img class="pic-ph" src="${facts.placeholder}" alt="" width="${width}" height="${height}" aria-hidden="true">`
    : '';
  const formats = facts?.formats ?? [];
  const fallback = formats.at(-1);
  if (!fallback || fallback.sources.length === 0) {
    return html`<span class="${className}">${placeholder}<img src="${options.src}" alt="${alt}" width="${width}" height="${height}"${loading}></span>`;
  }
  const largest = fallback.sources.at(-1) as ImageSource;
  const sources = formats
    .slice(0, -1)
    .filter((f) => f.sources.length)
    .map((f) => html`<source type="${f.type}" srcset="${srcset(f.sources)}" sizes="${sizes}">`);
  return html`<span class="${className}">${placeholder}<picture>${sources}<img src="${largest.url}" srcset="${srcset(fallback.sources)}" sizes="${sizes}" alt="${alt}" width="${width}" height="${height}"${loading}></picture></span>`;
}
