import { type PostedForm, postedText } from './form-kit/form-values.ts';
import { swapped, without } from './form-kit/row-moves.ts';

/** A quiz as its builder form holds it: every box as typed, so a refused save comes back exactly as it was. */
export type QuizDraft = { passPercent: string; maxAttempts: string; questions: DraftQuestion[] };
export type DraftQuestion = { prompt: string; choices: string[]; right: number[]; explanation: string };

/** The API's own limits of a quiz (QuizInput), so the builder offers no button the API would refuse. */
export const QUIZ_LIMITS = { questions: 50, choices: 10 } as const;

const blankQuestion = (): DraftQuestion => ({ prompt: '', choices: ['', ''], right: [], explanation: '' });

/** The builder's first look at a lesson: its stored questions, or one empty question to start from. */
export function draftOf(quiz: unknown): QuizDraft {
  const stored = (quiz ?? null) as {
    pass_percent?: number;
    max_attempts?: number | null;
    questions?: { prompt: string; choices: string[]; answers?: number[]; explanation?: string }[];
  } | null;
  return {
    passPercent: String(stored?.pass_percent ?? 70),
    maxAttempts: stored?.max_attempts == null ? '' : String(stored.max_attempts),
    questions: stored?.questions?.length
      ? stored.questions.map((q) => ({
          prompt: q.prompt,
          choices: [...q.choices],
          right: [...(q.answers ?? [])],
          explanation: q.explanation ?? '',
        }))
      : [blankQuestion()],
  };
}

const count = (form: PostedForm, name: string, most: number) =>
  Math.min(most, Math.max(0, Number.parseInt(postedText(form, name), 10) || 0));

/** The draft as posted: `count` questions, each with `q<i>.count` choices, ticks and an explanation. */
export function draftFromForm(form: PostedForm): QuizDraft {
  return {
    passPercent: postedText(form, 'pass_percent'),
    maxAttempts: postedText(form, 'max_attempts'),
    questions: Array.from({ length: count(form, 'count', QUIZ_LIMITS.questions) }, (_, i) => ({
      prompt: postedText(form, `q${i}.prompt`),
      choices: Array.from({ length: count(form, `q${i}.count`, QUIZ_LIMITS.choices) }, (_, j) =>
        postedText(form, `q${i}.c${j}`),
      ),
      right: [form[`q${i}.right`] ?? []].flat().map(Number).filter(Number.isInteger),
      explanation: postedText(form, `q${i}.explanation`),
    })),
  };
}

/**
 * A change of the form's shape (`do` of the button pressed): add, remove or move a question, add or remove a choice.
 * Undefined for a save. The draft is shown again, changed, and saved only by the Save button.
 */
export function reshaped(draft: QuizDraft, change: string): QuizDraft | undefined {
  const [what, a = -1, b = -1] = change.split(':').map((part, i) => (i === 0 ? part : Number(part))) as [
    string,
    number?,
    number?,
  ];
  const questions = draft.questions;
  const edit = (i: number, f: (q: DraftQuestion) => DraftQuestion) => ({
    ...draft,
    questions: questions.map((q, k) => (k === i ? f(q) : q)),
  });
  switch (what) {
    case 'add-question':
      return questions.length >= QUIZ_LIMITS.questions
        ? draft
        : { ...draft, questions: [...questions, blankQuestion()] };
    case 'remove-question':
      return { ...draft, questions: without(questions, a) };
    case 'up':
      return { ...draft, questions: swapped(questions, a, a - 1) };
    case 'down':
      return { ...draft, questions: swapped(questions, a, a + 1) };
    case 'add-choice':
      return edit(a, (q) => (q.choices.length >= QUIZ_LIMITS.choices ? q : { ...q, choices: [...q.choices, ''] }));
    case 'remove-choice':
      return edit(a, (q) => ({
        ...q,
        choices: without(q.choices, b),
        right: q.right.filter((r) => r !== b).map((r) => (r > b ? r - 1 : r)),
      }));
    default:
      return undefined;
  }
}

/** A box left as typed when it is not a whole number, for the API to refuse in its own words. */
const whole = (value: string) => (/^\s*\d+\s*$/.test(value) ? Number(value) : value.trim());

/**
 * The quiz the API receives, and which question of the form each of its questions is (empty questions and empty
 * choices are left out, so the API's field paths are mapped back through `formIndex`).
 */
export function quizInput(draft: QuizDraft) {
  const formIndex: number[] = [];
  const questions = draft.questions.flatMap((q, i) => {
    const kept = q.choices.map((c, j) => ({ c: c.trim(), j })).filter(({ c }) => c !== '');
    if (q.prompt.trim() === '' && kept.length === 0 && q.explanation.trim() === '') return [];
    formIndex.push(i);
    return [
      {
        prompt: q.prompt.trim(),
        choices: kept.map(({ c }) => c),
        answers: kept.flatMap(({ j }, k) => (q.right.includes(j) ? [k] : [])),
        ...(q.explanation.trim() ? { explanation: q.explanation.trim() } : {}),
      },
    ];
  });
  return {
    quiz: {
      pass_percent: draft.passPercent.trim() === '' ? undefined : whole(draft.passPercent),
      max_attempts: draft.maxAttempts.trim() === '' ? null : whole(draft.maxAttempts),
      questions,
    },
    formIndex,
  };
}

/** Where a refusal of the API points in the form: a box of the builder, or the quiz as a whole. */
export type QuizProblem = { box: string; message: string };

/** The API's field errors in the builder's words, beside the boxes they are about. */
export function quizProblems(errors: { field: string; code?: string; message: string }[], formIndex: number[]) {
  return errors.map(({ field, code, message }): QuizProblem => {
    const path = field.replace(/^quiz\.?/, '');
    const question = /^questions\.(\d+)\.?(\w*)/.exec(path);
    if (question) {
      const i = formIndex[Number(question[1])] ?? Number(question[1]);
      switch (question[2]) {
        case 'prompt':
          return { box: `q${i}.prompt`, message: 'Write the question.' };
        case 'choices':
          return {
            box: `q${i}.choices`,
            message:
              code === 'maxItems'
                ? `A question has at most ${QUIZ_LIMITS.choices} choices.`
                : code === 'minItems'
                  ? 'Give at least two choices.'
                  : 'A choice is at most 500 characters.',
          };
        case 'answers':
          return { box: `q${i}.choices`, message: 'Tick the right choice (one or more).' };
        case 'explanation':
          return { box: `q${i}.explanation`, message: 'An explanation is at most 2,000 characters.' };
        default:
          return { box: `q${i}.prompt`, message };
      }
    }
    if (path === 'questions')
      return {
        box: 'questions',
        message:
          code === 'maxItems' ? `A quiz has at most ${QUIZ_LIMITS.questions} questions.` : 'Add at least one question.',
      };
    if (path === 'pass_percent') return { box: 'pass_percent', message: 'Give a whole number from 0 to 100.' };
    if (path === 'max_attempts')
      return { box: 'max_attempts', message: 'Give a whole number from 1 to 100, or leave it empty for no limit.' };
    return { box: '', message };
  });
}
