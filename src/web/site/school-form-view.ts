import type { FormField } from '../../areas/forms/schema.ts';
import type { PublicForm } from '../../areas/forms/service.ts';
import type { FieldError } from '../../http/errors.ts';
import { html, type SafeHtml } from '../../text/html.ts';
import { csrfField, errorSummary } from '../shared/layout.ts';

/** The name of the honeypot field: no form field can have it (field names start with a letter). */
export const HONEYPOT = '_website';

/** Above this many options a choice is a drop-down list rather than a row of radio buttons. */
const RADIO_OPTIONS = 6;

export const formAnchor = (formId: string) => `form-${formId}`;

export type FormState = {
  form: PublicForm;
  action: string;
  csrf: string;
  /** What the visitor sent, shown again after a refusal. */
  posted?: Record<string, unknown>;
  /** The fields to correct, by field name, each with its sentence. */
  problems?: FieldError[];
  /** The form was just sent: its success message takes its place. */
  sent?: boolean;
  /** Why the form as a whole was refused (closed, too many submissions). */
  refusal?: string;
};

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * One form of a page, after its body: every field with its label, help and (after a refusal) its problem next to it,
 * the values the visitor typed kept. It posts without JavaScript; the browser's own checks are off (novalidate) so
 * every visitor gets the server's messages, worded the same. A honeypot field, off-screen and hidden from assistive
 * technology, catches robots that fill in every box.
 */
export function pageFormView(state: FormState): SafeHtml {
  const { form } = state;
  const anchor = formAnchor(form.id);
  const heading = html`<h2 id="${anchor}-title">${form.title}</h2>`;
  if (state.sent) {
    return html`<section class="page-form" id="${anchor}" aria-labelledby="${anchor}-title">${heading}<p class="notice" role="status">${form.success_message}</p></section>`;
  }
  const problems = state.problems ?? [];
  const problemOf = (name: string) => problems.find((p) => p.field === name)?.message;
  const idOf = (name: string) => `${form.id}-${name}`;
  const labelOf = (name: string) => form.fields.find((f) => f.name === name)?.label ?? name;
  const summary = problems.length
    ? errorSummary(`Please correct ${problems.length === 1 ? 'this field' : 'these fields'}:`, problems, {
        href: (name) => `#${idOf(name)}`,
        label: labelOf,
      })
    : '';
  const refusal = state.refusal ? html`<p class="warning" role="alert">${state.refusal}</p>` : '';
  return html`<section class="page-form" id="${anchor}" aria-labelledby="${anchor}-title">${heading}${refusal}${summary}
<form method="post" action="${state.action}" novalidate>
${csrfField(state.csrf)}
${form.fields.map((field) => fieldView(field, idOf(field.name), state.posted?.[field.name], problemOf(field.name)))}
<div class="hp" aria-hidden="true"><label for="${form.id}-${HONEYPOT}">Leave this empty</label><input id="${form.id}-${HONEYPOT}" name="${HONEYPOT}" type="text" tabindex="-1" autocomplete="off"></div>
<p><button type="submit">Send</button></p>
</form></section>`;
}

function fieldView(field: FormField, id: string, posted: unknown, problem: string | undefined): SafeHtml {
  const required = field.required && field.type !== 'consent' ? html` <span class="meta">(required)</span>` : '';
  const help = field.help ? html`<span class="help meta" id="${id}-help">${field.help}</span>` : '';
  const error = problem ? html`<span class="field-error" id="${id}-error">${problem}</span>` : '';
  const described = [field.help ? `${id}-help` : '', problem ? `${id}-error` : ''].filter(Boolean).join(' ');
  const aria = html`${described ? html` aria-describedby="${described}"` : ''}${problem ? html` aria-invalid="true"` : ''}${
    field.required ? html` aria-required="true"` : ''
  }`;
  const value = text(posted);
  switch (field.type) {
    case 'long_text':
      return html`<p><label for="${id}">${field.label}${required}</label>${help}<textarea id="${id}" name="${field.name}" rows="6" maxlength="${String(field.max_length)}"${aria}>${value}</textarea>${error}</p>`;
    case 'checkbox':
    case 'consent':
      return html`<p class="choice"><input type="checkbox" id="${id}" name="${field.name}" value="yes"${value ? html` checked` : ''}${aria}> <label for="${id}">${field.label}${required}</label></p>${
        help || error ? html`<p>${help}${error}</p>` : ''
      }`;
    case 'choice': {
      const options = field.options ?? [];
      if (options.length > RADIO_OPTIONS) {
        return html`<p><label for="${id}">${field.label}${required}</label>${help}<select id="${id}" name="${field.name}"${aria}><option value="">Choose…</option>${options.map(
          (option) => html`<option value="${option}"${option === value ? html` selected` : ''}>${option}</option>`,
        )}</select>${error}</p>`;
      }
      return html`<fieldset id="${id}"${described ? html` aria-describedby="${described}"` : ''}><legend>${field.label}${required}</legend>${help}${options.map(
        (option, i) =>
          html`<p class="choice"><input type="radio" id="${id}-${String(i)}" name="${field.name}" value="${option}"${
            option === value ? html` checked` : ''
          }${problem ? html` aria-invalid="true"` : ''}> <label for="${id}-${String(i)}">${option}</label></p>`,
      )}${error}</fieldset>`;
    }
    default:
      return html`<p><label for="${id}">${field.label}${required}</label>${help}<input id="${id}" name="${field.name}" type="${
        field.type === 'email' ? 'email' : 'text'
      }" value="${value}" maxlength="${String(field.max_length)}"${field.type === 'email' ? html` autocomplete="email"` : ''}${aria}>${error}</p>`;
  }
}
