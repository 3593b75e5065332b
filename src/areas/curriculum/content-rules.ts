import type { LessonsTable } from '../../db/tables.ts';
import { errors } from '../../http/errors.ts';
import type { Purpose } from '../storage/schema.ts';
import type { DripColumns } from './access.ts';
import { quizProblem } from './quiz.ts';
import type { DripInput, QuizInput } from './schema.ts';

/*
 * The checks a section or lesson write makes that its schema cannot, and the columns they give: a title that is not
 * only spaces, a drip that names what its type needs, a quiz only on a quiz lesson, the files a lesson of each type
 * may carry, and what a lesson must hold before it is published.
 */

const ANY_PURPOSE: readonly Purpose[] = ['image', 'video', 'audio', 'pdf', 'download'];
/** The uploads a lesson of each type may carry. */
export const ASSET_PURPOSES: Record<LessonsTable['type'], readonly Purpose[]> = {
  video: ['video'],
  audio: ['audio'],
  pdf: ['pdf'],
  download: ANY_PURPOSE,
  text: ANY_PURPOSE,
  quiz: ANY_PURPOSE,
  embed: ANY_PURPOSE,
};

export function dripColumns(drip: DripInput): DripColumns {
  const field = (name: string, message: string) =>
    errors.invalidRequest(`drip.${name}: ${message}`, [{ field: `drip.${name}`, code: 'drip', message }]);
  if (drip.type !== 'days_after_enrollment' && drip.days !== undefined)
    throw field('days', 'days goes only with type days_after_enrollment; remove it.');
  if (drip.type !== 'on_date' && drip.date !== undefined)
    throw field('date', 'date goes only with type on_date; remove it.');
  if (drip.type === 'days_after_enrollment' && drip.days === undefined)
    throw field('days', 'days_after_enrollment needs days (1–3650).');
  if (drip.type === 'on_date' && drip.date === undefined)
    throw field('date', 'on_date needs a date (RFC 3339, e.g. 2030-01-31T09:00:00Z).');
  return {
    drip_type: drip.type,
    drip_days: drip.days ?? null,
    drip_date: drip.date === undefined ? null : new Date(drip.date).toISOString(),
  };
}

export function trimmedTitle(title: string) {
  const trimmed = title.trim();
  if (!trimmed) {
    throw errors.invalidRequest('title: must not be blank.', [
      { field: 'title', code: 'blank', message: 'Give it a title that is not only spaces.' },
    ]);
  }
  return trimmed;
}

export const parsedQuiz = (row: Pick<LessonsTable, 'quiz'> | undefined) =>
  row?.quiz ? (JSON.parse(row.quiz) as QuizInput) : null;

/** A lesson's quiz as stored, after the checks its schema cannot make. */
export function quizToStore(type: LessonsTable['type'], quiz: QuizInput | null): string | null {
  if (quiz === null) return null;
  if (type !== 'quiz') {
    throw errors.invalidRequest(`Only quiz lessons have questions; this lesson's type is ${type}.`, [
      { field: 'quiz', code: 'not_a_quiz', message: 'Set type to "quiz", or leave quiz out.' },
    ]);
  }
  const problem = quizProblem(quiz);
  if (problem) throw errors.invalidRequest(problem.message, [{ ...problem, code: 'out_of_range' }]);
  return JSON.stringify(quiz);
}

/** Why a lesson cannot be published as it is, if it cannot. */
export function contentProblem(
  row: Pick<LessonsTable, 'type' | 'body' | 'asset_url' | 'asset_id' | 'quiz'>,
): string | undefined {
  const hasBody = row.body.trim() !== '';
  const hasFile = Boolean(row.asset_url || row.asset_id);
  switch (row.type) {
    case 'text':
      return hasBody ? undefined : 'A text lesson needs a body before it can be published; set body.';
    case 'quiz':
      return row.quiz ? undefined : 'A quiz lesson needs its questions before it can be published; set quiz.';
    case 'embed':
      return hasBody || hasFile
        ? undefined
        : 'An embed lesson needs a body (embed code) or an asset_url (or an uploaded asset_id).';
    default:
      return hasFile
        ? undefined
        : `A ${row.type} lesson needs an asset_url (or an uploaded asset_id) before it can be published.`;
  }
}
