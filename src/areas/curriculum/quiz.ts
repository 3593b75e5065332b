import type { Quiz, QuizInput, QuizSubmission } from './schema.ts';

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
