import { html, type SafeHtml } from '../../text/html.ts';
import { csrfField } from '../shared/layout.ts';
import { type DraftQuestion, QUIZ_LIMITS, type QuizDraft, type QuizProblem } from './quiz-draft.ts';

const boxId = (box: string) => box.replace(/\./g, '-');

/**
 * The quiz builder: one form holding every question, its choices (a tick beside each right one) and its explanation.
 * Adding, removing and moving are buttons of the same form, so nothing typed is lost and it all works without a
 * script; only "Save the quiz" sends it to the API.
 */
export function quizBuilderView(opts: {
  action: string;
  lessonPath: string;
  draft: QuizDraft;
  problems: QuizProblem[];
  /** The form was changed (a question added, moved …) and is not saved yet. */
  unsaved: boolean;
  csrf: string;
}): SafeHtml {
  const { draft } = opts;
  const problemOf = (box: string) => opts.problems.find((p) => p.box === box)?.message;
  const error = (box: string) => {
    const message = problemOf(box);
    return message ? html`<span id="${boxId(box)}-error" class="field-error">${message}</span>` : '';
  };
  const described = (box: string) =>
    problemOf(box) ? html` aria-describedby="${boxId(box)}-error" aria-invalid="true"` : '';
  const button = (change: string, label: SafeHtml | string, kind = 'small secondary') =>
    html`<button type="submit" name="do" value="${change}" class="${kind}" formnovalidate>${label}</button>`;
  const hidden = (text: string) => html`<span class="visually-hidden">${text}</span>`;

  const choice = (q: DraftQuestion, i: number, text: string, j: number) =>
    html`<li class="quiz-choice"><input type="checkbox" id="q${i}-r${j}" name="q${i}.right" value="${String(j)}"${
      q.right.includes(j) ? html` checked` : ''
    }><label for="q${i}-r${j}" class="quiz-right">Right${hidden(` answer: choice ${j + 1}`)}</label>
<label for="q${i}-c${j}" class="visually-hidden">Choice ${j + 1} of question ${i + 1}</label><input id="q${i}-c${j}" name="q${i}.c${j}" value="${text}" maxlength="500">${
      q.choices.length > 2 ? button(`remove-choice:${i}:${j}`, html`Remove${hidden(` choice ${j + 1}`)}`) : ''
    }</li>`;

  const question = (q: DraftQuestion, i: number) => html`<fieldset class="quiz-question" id="q${i}">
<legend>Question ${i + 1}</legend>
<div class="field"><label for="q${i}-prompt">What is asked</label> ${error(`q${i}.prompt`)}
<textarea id="q${i}-prompt" name="q${i}.prompt" rows="2" maxlength="2000"${described(`q${i}.prompt`)}>${q.prompt}</textarea></div>
<fieldset class="quiz-choices" id="q${i}-choices"${described(`q${i}.choices`)}><legend>Choices: tick the right one, or several</legend> ${error(`q${i}.choices`)}
<input type="hidden" name="q${i}.count" value="${String(q.choices.length)}">
<ol>${q.choices.map((text, j) => choice(q, i, text, j))}</ol>
${q.choices.length < QUIZ_LIMITS.choices ? button(`add-choice:${i}`, html`Add a choice${hidden(` to question ${i + 1}`)}`) : ''}</fieldset>
<div class="field"><label for="q${i}-explanation">Explanation shown after an answer (optional)</label> ${error(`q${i}.explanation`)}
<textarea id="q${i}-explanation" name="q${i}.explanation" rows="2" maxlength="2000"${described(`q${i}.explanation`)}>${q.explanation}</textarea></div>
<p class="builder-actions">${i > 0 ? button(`up:${i}`, html`Move up${hidden(` question ${i + 1}`)}`) : ''}${
    i < draft.questions.length - 1 ? button(`down:${i}`, html`Move down${hidden(` question ${i + 1}`)}`) : ''
  }${button(`remove-question:${i}`, html`Remove question ${i + 1}`, 'small danger')}</p>
</fieldset>`;

  const summary = opts.problems.length
    ? html`<div class="error" role="alert"><p>The quiz was not saved. Please correct:</p><ul>${opts.problems.map(
        (p) => html`<li>${p.box ? html`<a href="#${boxId(p.box)}">${where(p.box)}</a>: ` : ''}${p.message}</li>`,
      )}</ul></div>`
    : '';
  return html`<p><a href="${opts.lessonPath}">Back to the lesson</a></p>${summary}
<form method="post" action="${opts.action}" class="admin-form quiz-builder" novalidate>${csrfField(opts.csrf)}
<button type="submit" name="do" value="save" class="visually-hidden" tabindex="-1">Save the quiz</button>
<input type="hidden" name="count" value="${String(draft.questions.length)}">
<div class="quiz-settings">
<div class="field"><label for="pass_percent">Pass mark: questions answered right (%)</label> ${error('pass_percent')}
<input type="number" id="pass_percent" name="pass_percent" min="0" max="100" value="${draft.passPercent}" inputmode="numeric"${described('pass_percent')}></div>
<div class="field"><label for="max_attempts">Attempts allowed</label> <small class="hint" id="max_attempts-hint">Leave empty for no limit.</small> ${error('max_attempts')}
<input type="number" id="max_attempts" name="max_attempts" min="1" max="100" value="${draft.maxAttempts}" inputmode="numeric" aria-describedby="max_attempts-hint"></div>
</div>
<div id="questions">${error('questions')}${draft.questions.map(question)}</div>
${draft.questions.length < QUIZ_LIMITS.questions ? html`<p>${button('add-question', 'Add a question', 'secondary')}</p>` : ''}
<p class="submit">${button('save', 'Save the quiz', '')}${
    opts.unsaved ? html` <span class="meta" role="status">Changes not saved yet.</span>` : ''
  }</p>
</form>`;
}

const QUESTION_PARTS: Record<string, string> = {
  prompt: 'what is asked',
  choices: 'choices',
  explanation: 'explanation',
};
const SETTINGS: Record<string, string> = {
  pass_percent: 'Pass mark',
  max_attempts: 'Attempts allowed',
  questions: 'Questions',
};

/** A box named for the summary of problems. */
function where(box: string): string {
  const question = /^q(\d+)\.(\w+)$/.exec(box);
  if (question) {
    const n = Number(question[1]) + 1;
    const part = QUESTION_PARTS[question[2] ?? ''];
    return `Question ${n}${part ? `, ${part}` : ''}`;
  }
  return SETTINGS[box] ?? box;
}

/** A lesson of another type: it has no questions until it is made a quiz. */
export function notAQuizView(opts: { action: string; lessonPath: string; type: string; csrf: string }): SafeHtml {
  return html`<p><a href="${opts.lessonPath}">Back to the lesson</a></p>
<p>This is a ${opts.type} lesson. Only a quiz lesson has questions.</p>
<form method="post" action="${opts.action}">${csrfField(opts.csrf)}<input type="hidden" name="do" value="make-quiz">
<p><button type="submit">Make it a quiz lesson</button></p></form>`;
}
