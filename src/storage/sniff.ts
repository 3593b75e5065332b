import { fileTypeFromBuffer } from 'file-type';

/** How much of a file's beginning is read to tell its type (file-type needs at most this much for any format). */
export const SNIFF_BYTES = 64 * 1024;

/** A media type without its parameters, lower-cased: `Image/PNG; q=1` is `image/png`. */
export const baseType = (type: string) => type.split(';')[0]?.trim().toLowerCase() ?? '';

/** The media type the bytes themselves show (without parameters), or undefined when they show none (text, HTML, SVG). */
export async function sniffType(head: Uint8Array): Promise<string | undefined> {
  const found = await fileTypeFromBuffer(head);
  return found && baseType(found.mime);
}
