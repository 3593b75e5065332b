import { html, type SafeHtml } from '../../text/html.ts';
import { csrfField } from '../shared/layout.ts';
import { zoneWords } from './form-kit/school-time.ts';

/** One section's release as its boxes hold it (a date and time on the school's clock). */
export type DripRow = { id: string; title: string; type: string; days: string; date: string; time: string };

/** How a section opens to a student, in words. */
const WAYS = [
  { type: 'none', words: 'As soon as the student enrolls' },
  { type: 'days_after_enrollment', words: 'Some days after the student enrolls' },
  { type: 'on_date', words: 'On a date' },
] as const;

/**
 * When each section opens to a student, chosen by its words: at once, some days after enrolling, or on a day and
 * time of the school's clock. One form for all the sections shown; each changed section is saved on its own.
 */
export function dripEditorView(opts: {
  action: string;
  backPath: string;
  backLabel: string;
  zone: string;
  rows: DripRow[];
  problems: ReadonlyMap<string, { box: 'days' | 'date' | 'type'; message: string }>;
  csrf: string;
}): SafeHtml {
  const row = (s: DripRow) => {
    const problem = opts.problems.get(s.id);
    const error = (box: string) =>
      problem?.box === box ? html`<span id="${s.id}-${box}-error" class="field-error">${problem.message}</span>` : '';
    const invalid = (box: string) =>
      problem?.box === box ? html` aria-invalid="true" aria-describedby="${s.id}-${box}-error"` : '';
    const radio = (way: (typeof WAYS)[number]) =>
      html`<input type="radio" id="${s.id}-${way.type}" name="${s.id}.type" value="${way.type}"${
        s.type === way.type ? html` checked` : ''
      }> <label for="${s.id}-${way.type}">${way.words}</label>`;
    const [now, later, dated] = WAYS;
    return html`<fieldset class="drip-section" id="s-${s.id}"><legend>${s.title || 'Untitled section'}</legend>
<input type="hidden" name="sections" value="${s.id}">${error('type')}
<div class="drip-way">${radio(now)}</div>
<div class="drip-way">${radio(later)}
<div class="drip-detail" data-drip-for="${s.id}-${later.type}"><label for="${s.id}-days">Days after enrolling</label> ${error('days')}
<input type="number" id="${s.id}-days" name="${s.id}.days" min="1" max="3650" inputmode="numeric" value="${s.days}"${invalid('days')}></div></div>
<div class="drip-way">${radio(dated)}
<div class="drip-detail" data-drip-for="${s.id}-${dated.type}"><label for="${s.id}-date">Day</label> ${error('date')}
<input type="date" id="${s.id}-date" name="${s.id}.date" value="${s.date}"${invalid('date')}>
<label for="${s.id}-time">Time</label> <input type="time" id="${s.id}-time" name="${s.id}.time" value="${s.time}"></div></div>
</fieldset>`;
  };
  return html`<p><a href="${opts.backPath}">${opts.backLabel}</a></p>
<p class="meta">Days and times are on the school's clock (${zoneWords(opts.zone)}).</p>
${
  opts.rows.length === 0
    ? html`<p class="meta">This course has no sections yet: add them in its curriculum first.</p>`
    : html`<form method="post" action="${opts.action}" class="admin-form drip-editor" novalidate>${csrfField(opts.csrf)}
${opts.rows.map(row)}
<p class="submit"><button type="submit">Save when they open</button></p></form>`
}`;
}
