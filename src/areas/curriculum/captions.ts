import type { LessonsTable } from '../../db/tables.ts';
import { errors } from '../../http/errors.ts';
import type { CaptionInput } from './schema.ts';

/*
 * What the player shows besides a lesson's file: caption files and a poster, which only lessons that play carry.
 */

/** The lesson types that play: only they carry captions, a poster and a place to resume at. */
export const PLAYED_TYPES: readonly LessonsTable['type'][] = ['video', 'audio'];

export const parsedCaptions = (row: Pick<LessonsTable, 'captions'>): CaptionInput[] =>
  row.captions ? (JSON.parse(row.captions) as CaptionInput[]) : [];

/**
 * A lesson's captions and poster as stored, after the checks their schema cannot make: only a video or audio lesson
 * has them, and no two caption files share a language and label (the player could not tell them apart).
 */
export function playerExtrasToStore(
  type: LessonsTable['type'],
  captions: CaptionInput[] | null,
  poster: string | null,
): Pick<LessonsTable, 'captions' | 'poster_asset_id'> {
  const played = PLAYED_TYPES.includes(type);
  if (!played && (captions?.length || poster)) {
    const field = captions?.length ? 'captions' : 'poster_asset_id';
    throw errors.invalidRequest(`${field}: only video and audio lessons have it; this lesson's type is ${type}.`, [
      { field, code: 'not_played', message: 'Set type to "video" or "audio", or leave it out.' },
    ]);
  }
  const seen = new Set<string>();
  for (const [i, caption] of (captions ?? []).entries()) {
    const key = `${caption.language.toLowerCase()}\n${caption.label.trim()}`;
    if (!caption.label.trim() || seen.has(key)) {
      const message = 'Give each caption file a label of its own (e.g. "English", "English (described)").';
      throw errors.invalidRequest(`captions.${i}.label: ${message}`, [
        { field: `captions.${i}.label`, code: 'duplicate', message },
      ]);
    }
    seen.add(key);
  }
  const trimmed = captions?.map((c) => ({ ...c, label: c.label.trim() }));
  return { captions: trimmed?.length ? JSON.stringify(trimmed) : null, poster_asset_id: poster };
}
