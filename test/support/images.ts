import sharp from 'sharp';

/** A picture `width` × `height` with gradients and shapes (something like a photograph to encode), as JPEG. */
export function photo(width: number, height: number, hue = 20): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 300 200" preserveAspectRatio="none">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="hsl(${hue},70%,35%)"/><stop offset="1" stop-color="hsl(${hue + 140},60%,70%)"/></linearGradient></defs>
<rect width="300" height="200" fill="url(#g)"/><circle cx="210" cy="80" r="50" fill="hsl(${hue + 60},80%,60%)" opacity=".7"/>
<path d="M0 160 Q75 110 150 150 T300 140 V200 H0Z" fill="hsl(${hue + 200},40%,25%)"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer();
}

/** A PNG `width` × `height` of a round shape on a transparent ground (a logo, say). */
export function transparentPng(width: number, height: number): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}"><circle cx="${width / 2}" cy="${height / 2}" r="${Math.min(width, height) / 3}" fill="#c2410c"/></svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

/** The format and size an image's bytes show. */
export async function imageSize(bytes: Buffer) {
  const meta = await sharp(bytes).metadata();
  return { format: meta.format, width: meta.width, height: meta.height };
}
