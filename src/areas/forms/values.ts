import { errors, type FieldError } from '../../http/errors.ts';
import type { FormField } from './schema.ts';

export type Values = Record<string, string | boolean>;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A posted value as one text: absent is empty; a repeated field (a tampered form) is refused by the caller. */
const textOf = (value: unknown) => (typeof value === 'string' ? value : '');

/** A ticked checkbox sends its value ("yes"); an unticked one sends nothing. */
const ticked = (value: unknown) => typeof value === 'string' && value !== '';

/**
 * What a visitor sent, checked against the form's fields: required fields filled in or ticked, lengths within
 * max_length, an e-mail shaped like one, a choice among the options; names the form does not have are refused.
 * Returns the values to store (empty optional text left out; a consent stored as the statement agreed to) and the
 * first e-mail field's value; or throws one 400 whose `errors` name each field with a sentence for the visitor.
 */
export function readValues(
  fields: FormField[],
  posted: Record<string, unknown>,
): { values: Values; email: string | null } {
  const problems: FieldError[] = [];
  const problem = (field: FormField, code: string, message: string) =>
    problems.push({ field: field.name, code, message });
  const known = new Set(fields.map((f) => f.name));
  for (const name of Object.keys(posted)) {
    if (!known.has(name)) problems.push({ field: name, code: 'unknown', message: 'This form has no such field.' });
  }
  const values: Values = {};
  let email: string | null = null;
  const emailField = fields.find((f) => f.type === 'email');
  for (const field of fields) {
    const raw = posted[field.name];
    if (Array.isArray(raw)) {
      problem(field, 'repeated', 'Give one value.');
      continue;
    }
    if (raw !== undefined && typeof raw !== 'string') {
      problem(field, 'format', 'Give this as text.');
      continue;
    }
    if (field.type === 'checkbox' || field.type === 'consent') {
      const on = ticked(raw);
      if (field.required && !on)
        problem(
          field,
          'required',
          field.type === 'consent' ? 'You need to agree to this to send the form.' : 'Tick this box to continue.',
        );
      values[field.name] = field.type === 'consent' ? field.label : on;
      continue;
    }
    // One-line fields take no line breaks (a pasted one becomes a space); long text keeps its lines.
    const text =
      field.type === 'long_text'
        ? textOf(raw).replace(/\r\n?/g, '\n').trim()
        : textOf(raw)
            .replace(/[\r\n]+/g, ' ')
            .trim();
    if (!text) {
      if (field.required) problem(field, 'required', 'Please fill this in.');
      continue;
    }
    if (field.max_length !== null && [...text].length > field.max_length) {
      problem(field, 'too_long', `Use at most ${field.max_length} characters.`);
      continue;
    }
    if (field.type === 'email' && !EMAIL.test(text)) {
      problem(field, 'format', 'Enter an e-mail address, like name@example.com.');
      continue;
    }
    if (field.type === 'choice' && !field.options?.includes(text)) {
      problem(field, 'not_an_option', 'Choose one of the options.');
      continue;
    }
    values[field.name] = text;
    if (field === emailField) email = text.toLowerCase();
  }
  if (problems.length) throw errors.invalidRequest('Some fields need correcting; see errors.', problems);
  return { values, email };
}

/** A stored value as people read it (the staff notice, the CSV export). */
export function shownValue(field: FormField, value: string | boolean | undefined): string {
  if (value === undefined) return '';
  if (field.type === 'checkbox') return value ? 'yes' : 'no';
  if (field.type === 'consent') return `agreed: ${String(value)}`;
  return String(value);
}
