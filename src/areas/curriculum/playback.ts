import type { Db } from '../../db/tables.ts';
import { errors } from '../../http/errors.ts';
import type { Principal } from '../../http/principal.ts';
import type { Clock } from '../../time/clock.ts';
import type { CurriculumAccess } from './access.ts';
import { PLAYED_TYPES } from './captions.ts';
import type { CurriculumStore } from './store.ts';

/** One save per student and lesson in this many seconds; the player saves every ten and when the page goes. */
export const PLAYBACK_SAVE_SECONDS = 2;
/** Longer than any lesson: a longer duration is a mistake or a lie. */
const MAX_DURATION_S = 24 * 3600;

export type PlaybackPosition = { position_s: number; duration_s: number; updated_at: string };

/**
 * Where a student stopped in a video or audio lesson, to resume there. Kept for a person enrolled in the course when
 * the lesson is open to them (the curriculum's one rule); any other lesson — another course's, a locked one, a
 * text — is 404, as it is to read. Positions are whole seconds.
 */
export function playbackRules(deps: { db: Db; clock: Clock; store: CurriculumStore; access: CurriculumAccess }) {
  const { db, clock, store, access } = deps;

  /** The lesson, when it plays and the person is enrolled and it is open to them; else 404. */
  async function playedLesson(principal: Principal, lessonId: string) {
    if (principal.kind !== 'user') throw errors.notFound('lesson');
    const found = await access.visibleLesson(principal, lessonId);
    const view = found && access.lessonView(found.lesson, found.access)(found.lesson);
    if (!found || !view || view.locked || found.access.enrolledAt === null || !PLAYED_TYPES.includes(view.type))
      throw errors.notFound('lesson');
    return { userId: principal.userId, lesson: view };
  }

  return {
    /** Where the person stopped in the lesson; null before they played it. 404 as for saving. */
    async playbackPosition(principal: Principal, lessonId: string): Promise<PlaybackPosition | null> {
      const { userId } = await playedLesson(principal, lessonId);
      const row = await store.findPlayback(db, userId, lessonId);
      return row
        ? { position_s: Number(row.position_s), duration_s: Number(row.duration_s), updated_at: row.updated_at }
        : null;
    },

    /**
     * Records `position_s` of `duration_s` (seconds, as the player measured the file) for the person. Out of range:
     * 400 with the field; a second save within PLAYBACK_SAVE_SECONDS: 429.
     */
    async savePlaybackPosition(
      principal: Principal,
      lessonId: string,
      input: { position_s: number; duration_s: number },
    ) {
      const { userId, lesson } = await playedLesson(principal, lessonId);
      const { position_s: position, duration_s: duration } = input;
      const outOfRange = (field: string, message: string) =>
        errors.invalidRequest(`${field}: ${message}`, [{ field, code: 'out_of_range', message }]);
      if (!Number.isFinite(duration) || duration <= 0 || duration > MAX_DURATION_S)
        throw outOfRange('duration_s', `must be more than 0 and at most ${MAX_DURATION_S} seconds.`);
      if (!Number.isFinite(position) || position < 0 || position > duration)
        throw outOfRange('position_s', 'must be between 0 and duration_s.');
      const now = clock.now();
      const saved = await store.savePlayback(
        db,
        {
          user_id: userId,
          lesson_id: lesson.id,
          position_s: Math.floor(position),
          duration_s: Math.ceil(duration),
          updated_at: now.toISOString(),
        },
        new Date(now.getTime() - PLAYBACK_SAVE_SECONDS * 1000).toISOString(),
      );
      if (!saved) throw errors.rateLimited(PLAYBACK_SAVE_SECONDS);
      return { lesson, position_s: Math.floor(position), duration_s: Math.ceil(duration) };
    },
  };
}
