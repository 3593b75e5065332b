import { html, type SafeHtml } from '../../../text/html.ts';
import { csrfField, errorSummary, type FieldProblem } from '../../shared/layout.ts';
import { displayValue } from './form-values.ts';
import { currencySymbol, majorUnits } from './money.ts';
import type { FormField } from './schema-fields.ts';
import { type SchoolClock, UTC_CLOCK, zoneWords } from './school-time.ts';

export type FormState = {
  /** The values to show: what the object holds, or what was posted when the API refused it. */
  values: Record<string, unknown>;
  /** Posted text to show again as typed after a refusal (takes precedence over `values`). */
  posted?: Record<string, string | string[] | undefined>;
  problems: FieldProblem[];
  message?: string;
  /** Objects an id field may name, by id prefix, when there are few enough to list. */
  choices?: ReadonlyMap<string, readonly Choice[]>;
  /** Id prefixes with too many objects to list, whose boxes take names; with the names of the ids shown. */
  named?: ReadonlyMap<string, ReadonlyMap<string, string>>;
  /** The school's zone and language: times are shown and typed in it. */
  clock?: SchoolClock;
};

export type Choice = { id: string; label: string };

const fieldId = (name: string) => `f-${name.replace(/[^a-zA-Z0-9_-]/g, '-')}`;

function input(field: FormField, state: FormState, describedBy: string, invalid: boolean): SafeHtml {
  const id = fieldId(field.name);
  const postedText = (name: string) => {
    const value = state.posted?.[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const clock = state.clock ?? UTC_CLOCK;
  const names = field.prefix ? state.named?.get(field.prefix) : undefined;
  const heldIds = state.values[field.name];
  const shown = state.posted
    ? (postedText(field.name) ?? '')
    : names
      ? [heldIds ?? []]
          .flat()
          .map((id) => names.get(String(id)) ?? String(id))
          .join('\n')
      : displayValue(field, heldIds, clock);
  const common = html`id="${id}" name="${field.name}"${describedBy ? html` aria-describedby="${describedBy}"` : ''}${
    invalid ? html` aria-invalid="true"` : ''
  }${field.required && field.kind !== 'boolean' ? html` required` : ''}`;
  const choices = field.prefix ? state.choices?.get(field.prefix) : undefined;
  if (field.kind === 'ref' && choices)
    return html`<select ${common}><option value="">—</option>${choices.map(
      (c) => html`<option value="${c.id}"${c.id === shown ? html` selected` : ''}>${c.label}</option>`,
    )}</select>`;
  // The ids held, with the names shown for them: saved as shown, a name means its id without a search.
  const held = names
    ? [heldIds ?? []]
        .flat()
        .map(
          (id) =>
            html`<input type="hidden" name="${field.name}.held" value="${String(id)}\t${names.get(String(id)) ?? String(id)}">`,
        )
    : [];
  if (field.kind === 'ref' && names) return html`<input ${common} value="${shown}" autocomplete="off">${held}`;
  switch (field.kind) {
    case 'textarea':
    case 'json':
    case 'lines':
    case 'refs':
      return html`<textarea ${common} rows="${field.kind === 'textarea' ? 8 : 4}"${
        field.markdown ? html` data-markdown-preview` : ''
      }>${shown}</textarea>${held}`;
    case 'boolean': {
      const checked = state.posted
        ? postedText(field.name) !== undefined
        : field.name in state.values
          ? state.values[field.name] === true
          : field.defaultValue === true;
      return html`<input type="checkbox" ${common}${checked ? html` checked` : ''}>`;
    }
    case 'select':
      return html`<select ${common}>${field.required ? '' : html`<option value="">—</option>`}${(
        field.options ?? []
      ).map(
        (option, i) =>
          html`<option value="${option}"${option === shown ? html` selected` : ''}>${field.optionLabels?.[i] ?? option}</option>`,
      )}</select>`;
    case 'money': {
      const money = state.values[field.name] as { amount?: number; currency?: string } | null | undefined;
      const currency = state.posted ? postedText(`${field.name}.currency`) : (money?.currency ?? '');
      const major = state.posted
        ? postedText(`${field.name}.amount`)
        : money && typeof money.amount === 'number'
          ? majorUnits(money.amount, money.currency ?? 'EUR')
          : '';
      return html`<span class="money"><input id="${id}" name="${field.name}.amount" inputmode="decimal" value="${major}" aria-label="${field.label}: amount"${
        describedBy ? html` aria-describedby="${describedBy}"` : ''
      }${invalid ? html` aria-invalid="true"` : ''}> <input name="${field.name}.currency" value="${currency}" maxlength="3" size="4" aria-label="${field.label}: currency (EUR, USD …)" autocapitalize="characters"></span>`;
    }
    case 'datetime':
      return html`<span class="with-unit"><input type="datetime-local" ${common} value="${shown}"> <span class="unit">${zoneWords(clock.zone)}</span></span>`;
    case 'place':
      return html`<input type="number" min="1" step="1" ${common} value="${shown}">`;
    case 'amount':
      return html`<span class="with-unit">${field.currency ? html`<span class="unit">${currencySymbol(field.currency, clock.locale)}</span> ` : ''}<input inputmode="decimal" ${common} value="${shown}"></span>`;
    case 'color':
      return html`<input type="color" ${common} value="${shown || '#000000'}">`;
    case 'date':
      return html`<input type="date" ${common} value="${shown}">`;
    case 'number':
      return html`<input type="number" step="any" ${common} value="${shown}">`;
    default:
      return html`<input type="${field.kind === 'email' ? 'email' : field.kind === 'url' ? 'url' : 'text'}" ${common} value="${shown}">`;
  }
}

const kindHint: Partial<Record<FormField['kind'], string>> = {
  lines: 'One per line.',
  refs: 'One per line.',
};

/** What a box that takes names asks for: people are found by e-mail address too. */
const namedHint = (field: FormField) => {
  const what = field.prefix === 'usr' ? 'name or e-mail address' : 'name';
  return field.kind === 'refs'
    ? `Type each one's ${what}, one per line: there are too many to list`
    : `Type the ${what}: there are too many to list`;
};

/** Ids of other objects as a list of ticked names (the choices are few enough to list). */
function choiceGroup(
  field: FormField,
  state: FormState,
  choices: readonly Choice[],
  error: SafeHtml | string,
): SafeHtml {
  const posted = state.posted ? [state.posted[field.name] ?? []].flat() : undefined;
  const current = posted ?? (Array.isArray(state.values[field.name]) ? (state.values[field.name] as string[]) : []);
  const id = fieldId(field.name);
  return html`<fieldset class="field choices"${error ? html` aria-describedby="${id}-error"` : ''}><legend>${field.label}</legend> ${error}${
    choices.length === 0 ? html`<p class="meta">None to choose from yet.</p>` : ''
  }${choices.map(
    (c, i) =>
      html`<div class="field-check"><input type="checkbox" id="${id}-${i}" name="${field.name}" value="${c.id}"${
        current.includes(c.id) ? html` checked` : ''
      }> <label for="${id}-${i}">${c.label}</label></div>`,
  )}</fieldset>`;
}

/** Spare empty rows under a list of rows, to add to it without JavaScript. */
const SPARE_ROWS = 3;

/** A list of small objects (a menu's items) as a table: a row each, plus empty rows to add more. */
function rowsBlock(field: FormField, state: FormState): SafeHtml {
  const current = Array.isArray(state.values[field.name])
    ? (state.values[field.name] as Record<string, unknown>[])
    : [];
  const posted = (name: string) => {
    const value = state.posted?.[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const count = state.posted
    ? Object.keys(state.posted).filter((k) => new RegExp(`^${field.name}\\.\\d+\\.`).test(k)).length /
      Math.max(1, field.fields?.length ?? 1)
    : current.length + SPARE_ROWS;
  const problem = state.problems.find((p) => p.field === field.name || p.field.startsWith(`${field.name}.`));
  const columns = field.fields ?? [];
  return html`<fieldset class="field rows" id="${fieldId(field.name)}"><legend>${field.label}</legend>${
    field.hint ? html`<small class="hint">${field.hint}. Empty rows are left out.</small>` : ''
  }${problem ? html`<span class="field-error">${problem.message}</span>` : ''}<table><thead><tr>${columns.map(
    (c) => html`<th scope="col">${c.label}</th>`,
  )}</tr></thead><tbody>${Array.from(
    { length: count },
    (_, i) =>
      html`<tr>${columns.map((c) => {
        const name = `${field.name}.${i}.${c.name}`;
        const value = state.posted ? (posted(name) ?? '') : String(current[i]?.[c.name] ?? '');
        return html`<td><input name="${name}" value="${value}" aria-label="${c.label} ${i + 1}"></td>`;
      })}</tr>`,
  )}</tbody></table></fieldset>`;
}

/** One field with its label, hint and, after a refusal, its own error right under the label. */
function fieldBlock(field: FormField, state: FormState): SafeHtml {
  const id = fieldId(field.name);
  if (field.kind === 'rows') return rowsBlock(field, state);
  if (field.kind === 'group') {
    const values = (state.values[field.name] ?? {}) as Record<string, unknown>;
    const inner: FormState = {
      ...state,
      values: Object.fromEntries(Object.entries(values).map(([k, v]) => [`${field.name}.${k}`, v])),
    };
    const problem = state.problems.find((p) => p.field === field.name || p.field.startsWith(`${field.name}.`));
    return html`<fieldset class="field group" id="${id}"><legend>${field.label}</legend>${
      field.hint ? html`<small class="hint">${field.hint}.</small>` : ''
    }${problem ? html`<span class="field-error">${problem.message}</span>` : ''}${(field.fields ?? []).map((sub) =>
      fieldBlock(sub, { ...inner, problems: inner.problems.filter((p) => p.field === sub.name) }),
    )}</fieldset>`;
  }
  const choices = field.kind === 'refs' && field.prefix ? state.choices?.get(field.prefix) : undefined;
  if (choices) {
    const problem = state.problems.find((p) => p.field === field.name || p.field.startsWith(`${field.name}.`));
    return choiceGroup(
      field,
      state,
      choices,
      problem ? html`<span id="${id}-error" class="field-error">${problem.message}</span>` : '',
    );
  }
  const problem = state.problems.find((p) => p.field === field.name || p.field.startsWith(`${field.name}.`));
  const named = field.prefix !== undefined && state.named?.has(field.prefix);
  const hint = [
    field.hint,
    named ? namedHint(field) : undefined,
    named
      ? undefined
      : field.markdown
        ? 'Formatting: **bold**, *italic*, - for a list, [a link](https://example.com).'
        : kindHint[field.kind],
  ]
    .filter(Boolean)
    .map((h) => (/[.!?]$/.test(h as string) ? h : `${h}.`))
    .join(' ');
  const describedBy = [hint ? `${id}-hint` : '', problem ? `${id}-error` : ''].filter(Boolean).join(' ');
  const label = html`<label for="${id}">${field.label}${field.required ? html` <span aria-hidden="true">*</span>` : ''}</label>`;
  const help = hint ? html`<small id="${id}-hint" class="hint">${hint}</small>` : '';
  const error = problem ? html`<span id="${id}-error" class="field-error">${problem.message}</span>` : '';
  return field.kind === 'boolean'
    ? html`<div class="field field-check">${input(field, state, describedBy, !!problem)} ${label} ${help} ${error}</div>`
    : html`<div class="field">${label} ${help} ${error} ${input(field, state, describedBy, !!problem)}</div>`;
}

/** A form of an operation's fields; refused input comes back with the API's messages next to their fields. */
export function schemaForm(opts: {
  action: string;
  fields: FormField[];
  state: FormState;
  csrf: string;
  submit: string;
  hidden?: Record<string, string>;
  danger?: boolean;
}): SafeHtml {
  const labels = new Map(opts.fields.map((f) => [f.name, f.label]));
  const known = (field: string) => labels.has(field.split('.')[0] ?? field);
  const summary = errorSummary(opts.state.message, opts.state.problems, {
    href: (field) => (known(field) ? `#${fieldId(field.split('.')[0] ?? field)}` : '#'),
    label: (field) => labels.get(field.split('.')[0] ?? field),
  });
  return html`${summary}<form method="post" action="${opts.action}" class="admin-form" novalidate>${csrfField(opts.csrf)}${Object.entries(
    opts.hidden ?? {},
  ).map(([name, value]) => html`<input type="hidden" name="${name}" value="${value}">`)}
${opts.fields.map((field) => fieldBlock(field, opts.state))}
<p><button type="submit"${opts.danger ? html` class="danger"` : ''}>${opts.submit}</button></p>
</form>`;
}
