import Type, { type Static } from 'typebox';
import { Id, Timestamp } from '../../http/schemas.ts';

/**
 * A quiz lesson's questions. Each question has choices and the indexes of the right ones (one or several); a
 * submission passes when its share of fully right questions reaches `pass_percent`. Answers are shown to staff only.
 */
export const QuizInput = Type.Object(
  {
    pass_percent: Type.Integer({ minimum: 0, maximum: 100, description: 'Share of questions to get right to pass' }),
    max_attempts: Type.Optional(
      Type.Union([Type.Integer({ minimum: 1, maximum: 100 }), Type.Null()], {
        description: 'Attempts a student may make; null or absent for no limit',
      }),
    ),
    questions: Type.Array(
      Type.Object(
        {
          prompt: Type.String({ minLength: 1, maxLength: 2000 }),
          choices: Type.Array(Type.String({ minLength: 1, maxLength: 500 }), { minItems: 2, maxItems: 10 }),
          answers: Type.Array(Type.Integer({ minimum: 0, maximum: 9 }), {
            minItems: 1,
            maxItems: 10,
            uniqueItems: true,
            description: 'Indexes (0-based) of the right choices',
          }),
          explanation: Type.Optional(Type.String({ maxLength: 2000, description: 'Shown after an attempt' })),
        },
        { additionalProperties: false },
      ),
      { minItems: 1, maxItems: 50 },
    ),
  },
  { additionalProperties: false },
);
export type QuizInput = Static<typeof QuizInput>;

/** What the caller sees: staff get the answers and explanations; students the questions only. */
export const Quiz = Type.Object({
  pass_percent: Type.Integer(),
  max_attempts: Type.Union([Type.Integer(), Type.Null()]),
  questions: Type.Array(
    Type.Object({
      prompt: Type.String(),
      choices: Type.Array(Type.String()),
      multiple: Type.Boolean({ description: 'More than one choice is right: the question takes several answers' }),
      answers: Type.Optional(Type.Array(Type.Integer())),
      explanation: Type.Optional(Type.String()),
    }),
  ),
});
export type Quiz = Static<typeof Quiz>;

/** A student's answers: for each question in order, the indexes of the choices they picked. */
export const QuizSubmission = Type.Object(
  {
    answers: Type.Array(Type.Array(Type.Integer({ minimum: 0, maximum: 9 }), { maxItems: 10, uniqueItems: true }), {
      minItems: 1,
      maxItems: 50,
    }),
  },
  { additionalProperties: false },
);
export type QuizSubmission = Static<typeof QuizSubmission>;

export const QuizAttempt = Type.Object(
  {
    id: Id('qat'),
    lesson_id: Id('les'),
    user_id: Id('usr'),
    answers: Type.Array(Type.Array(Type.Integer())),
    score_percent: Type.Integer(),
    passed: Type.Boolean(),
    /** Per question: right or not, with the explanation when the quiz has one. */
    results: Type.Array(
      Type.Object({ correct: Type.Boolean(), explanation: Type.Union([Type.String(), Type.Null()]) }),
    ),
    created_at: Timestamp,
  },
  { $id: 'QuizAttempt' },
);
export type QuizAttempt = Static<typeof QuizAttempt>;

/** Why a quiz cannot be stored, with the field to point at; undefined when it can. */
export function quizProblem(quiz: QuizInput): { field: string; message: string } | undefined {
  for (const [i, question] of quiz.questions.entries()) {
    const outside = question.answers.find((answer) => answer >= question.choices.length);
    if (outside !== undefined) {
      return {
        field: `quiz.questions.${i}.answers`,
        message: `Answer ${outside} is not one of the question's ${question.choices.length} choices (0-based).`,
      };
    }
  }
  return undefined;
}

export function quizView(stored: QuizInput, staff: boolean): Quiz {
  return {
    pass_percent: stored.pass_percent,
    max_attempts: stored.max_attempts ?? null,
    questions: stored.questions.map((q) => ({
      prompt: q.prompt,
      choices: q.choices,
      multiple: q.answers.length > 1,
      ...(staff ? { answers: q.answers, ...(q.explanation ? { explanation: q.explanation } : {}) } : {}),
    })),
  };
}

/** Marks a submission: a question counts only when exactly its right choices were picked. */
export function gradeQuiz(quiz: QuizInput, submission: QuizSubmission) {
  const results = quiz.questions.map((question, i) => {
    const picked = new Set(submission.answers[i] ?? []);
    const correct = picked.size === question.answers.length && question.answers.every((a) => picked.has(a));
    return { correct, explanation: question.explanation ?? null };
  });
  const right = results.filter((r) => r.correct).length;
  const score = Math.floor((right * 100) / quiz.questions.length);
  return { results, score_percent: score, passed: score >= quiz.pass_percent };
}
