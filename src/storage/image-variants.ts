import sharp, { type Metadata, type Sharp } from 'sharp';

// One libvips thread and no operation cache: variants are made in the background beside requests, and a cache of
// decoded images would hold tens of megabytes outside the heap the memory budget counts.
sharp.concurrency(1);
sharp.cache(false);

/** The widths made of every image, never wider than the image itself: 160 for portraits, the rest for covers. */
export const VARIANT_WIDTHS = [160, 320, 640, 960, 1280, 1920] as const;

/**
 * The version of how variants are made (widths, formats, qualities). It is part of every variant's name, so a change
 * here gives new names: no cache anywhere keeps an old variant under a name it now means differently.
 */
export const RECIPE = 'r1';

/** Largest image read, in pixels (50 megapixels, a large camera's photo): a larger one is refused, not decoded. */
const MAX_PIXELS = 50_000_000;
/** A width within this share of the image's own is left out: the image's own width is made instead. */
const NEAR = 0.15;
const PLACEHOLDER_WIDTH = 16;

export type VariantFormat = 'avif' | 'webp' | 'jpeg' | 'png';

export const FORMAT_TYPES: Record<VariantFormat, string> = {
  avif: 'image/avif',
  webp: 'image/webp',
  jpeg: 'image/jpeg',
  png: 'image/png',
};

export const FORMAT_EXTENSIONS: Record<VariantFormat, string> = { avif: 'avif', webp: 'webp', jpeg: 'jpg', png: 'png' };

export type MadeVariant = { format: VariantFormat; width: number; height: number; bytes: Buffer };

export type MadeImage = {
  /** The image's size as it is seen: with the camera's rotation (EXIF orientation) applied. */
  width: number;
  height: number;
  /** Whether some pixel is not fully opaque: such images fall back to PNG and get no placeholder. */
  transparent: boolean;
  /** An animation is kept as it was uploaded (no variant would keep it moving in every browser). */
  animated: boolean;
  placeholder: string | null;
  variants: MadeVariant[];
};

/** The widths to make of an image `width` pixels wide: the listed ones below it, and its own when under the largest. */
export function variantWidths(width: number): number[] {
  const largest = VARIANT_WIDTHS.at(-1) as number;
  const below = VARIANT_WIDTHS.filter((w) => w < width * (1 - NEAR));
  return width >= largest ? VARIANT_WIDTHS.filter((w) => w <= width) : [...below, width];
}

/** The image refused: its bytes are not an image this library reads, or it is too large to decode. */
export class UnreadableImage extends Error {}

/**
 * The variants of one uploaded image, made once: each width of `variantWidths` in AVIF, WebP and JPEG (PNG for an
 * image with transparency), stripped of metadata (a photo's location leaves with the original, never with a variant),
 * in sRGB, turned upright; and a ~16 px blurred copy as a data: URI to show while the picture loads.
 */
export async function makeVariants(input: Buffer): Promise<MadeImage> {
  const open = () => sharp(input, { limitInputPixels: MAX_PIXELS, autoOrient: true, failOn: 'error' });
  let meta: Metadata;
  let opaque: boolean;
  try {
    meta = await open().metadata();
    opaque = (await open().stats()).isOpaque;
  } catch (error) {
    throw new UnreadableImage(`The image cannot be read: ${(error as Error).message}`);
  }
  const width = meta.autoOrient.width;
  const height = meta.autoOrient.height;
  const animated = (meta.pages ?? 1) > 1;
  const transparent = !opaque;
  const placeholder = transparent
    ? null
    : `data:image/webp;base64,${(
        await open().resize({ width: PLACEHOLDER_WIDTH }).blur(0.6).webp({ quality: 30 }).toBuffer()
      ).toString('base64')}`;
  if (animated) return { width, height, transparent, animated, placeholder, variants: [] };

  const formats: VariantFormat[] = ['avif', 'webp', transparent ? 'png' : 'jpeg'];
  const variants: MadeVariant[] = [];
  for (const w of variantWidths(width)) {
    const resized = () => open().resize({ width: w, withoutEnlargement: true });
    for (const format of formats) {
      const encoded = encode(resized(), format);
      const { data, info } = await encoded.toBuffer({ resolveWithObject: true });
      variants.push({ format, width: info.width, height: info.height, bytes: data });
    }
  }
  return { width, height, transparent, animated, placeholder, variants };
}

/** Qualities chosen by eye for photographs and flat covers alike; AVIF's effort 2 is some 5 times quicker than 4 at the same size. */
function encode(image: Sharp, format: VariantFormat): Sharp {
  switch (format) {
    case 'avif':
      return image.avif({ quality: 50, effort: 2 });
    case 'webp':
      return image.webp({ quality: 75, effort: 4 });
    case 'jpeg':
      return image.jpeg({ quality: 78, mozjpeg: true });
    case 'png':
      return image.png({ compressionLevel: 9, effort: 7 });
  }
}
