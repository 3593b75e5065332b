import { fileTypeFromBuffer } from 'file-type';

/** How much of a file's beginning is read to tell its type (file-type needs at most this much for any format). */
export const SNIFF_BYTES = 64 * 1024;

/** A media type without its parameters, lower-cased: `Image/PNG; q=1` is `image/png`. */
export const baseType = (type: string) => type.split(';')[0]?.trim().toLowerCase() ?? '';

/**
 * WebVTT's signature (w3.org/TR/webvtt1, "WebVTT file body"): an optional byte order mark, "WEBVTT", then a space, a
 * tab, a line break or the end.
 */
const WEBVTT = /^(\uFEFF)?WEBVTT([ \t\r\n]|$)/;

/**
 * The media type the bytes themselves show (without parameters), or undefined when they show none (text, HTML, SVG).
 * Of text, only WebVTT (lesson captions) is told, by its signature.
 */
export async function sniffType(head: Uint8Array): Promise<string | undefined> {
  const found = await fileTypeFromBuffer(head);
  if (found) return baseType(found.mime);
  return WEBVTT.test(Buffer.from(head.subarray(0, 16)).toString('utf8')) ? 'text/vtt' : undefined;
}
