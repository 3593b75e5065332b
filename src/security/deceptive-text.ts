/**
 * Characters that make text read as something it is not: controls, zero-width and other format characters, and
 * bidirectional overrides and isolates (U+202A–U+202E, U+2066–U+2069, U+200E/U+200F). "\u202Eelgoog" displays as
 * "google", and "invoice\u202Efdp.exe" as "invoiceexe.pdf".
 */
export const DECEPTIVE = /[\p{Cc}\p{Cf}\u2028\u2029]/u;

const DECEPTIVE_ALL = new RegExp(DECEPTIVE.source, 'gu');

/** The text as people should see it: every deceptive character taken out. */
export const withoutDeceptive = (text: string): string => text.replace(DECEPTIVE_ALL, '');
