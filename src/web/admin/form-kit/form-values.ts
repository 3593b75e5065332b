import type { FieldProblem } from '../../shared/layout.ts';
import { majorUnits, minorDigits, minorUnits } from './money.ts';
import type { FormField } from './schema-fields.ts';
import { fromZoneLocal, type SchoolClock, toZoneLocal, UTC_CLOCK } from './school-time.ts';

/** A posted HTML form: every value as text, repeated names as arrays. */
export type PostedForm = Record<string, string | string[] | undefined>;

/** One posted value as text: the first of a repeated name, '' when absent. */
export const postedText = (form: PostedForm, name: string) => {
  const value = form[name];
  return (Array.isArray(value) ? value[0] : value) ?? '';
};

/** What a field's box shows for a value the API gave: times in the school's zone, places counted from 1. */
export function displayValue(field: FormField, value: unknown, clock: SchoolClock = UTC_CLOCK): string {
  if (value === null || value === undefined) return '';
  if (field.kind === 'color') return typeof value === 'string' ? value.toLowerCase() : '';
  switch (field.kind) {
    case 'datetime':
      return toZoneLocal(value, clock.zone);
    case 'place':
      return typeof value === 'number' ? String(value + 1) : '';
    case 'amount':
      return typeof value === 'number' && field.currency ? majorUnits(value, field.currency) : String(value);
    case 'lines':
    case 'refs':
      return Array.isArray(value) ? value.join('\n') : String(value);
    case 'json':
      return JSON.stringify(value, null, 2);
    case 'boolean':
      return value ? 'on' : '';
    default:
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
}

type Parsed = { value: unknown; given: boolean } | { problem: string };

/** The rows of a `rows` field as posted: each index's fields; rows left wholly empty are dropped. */
function parseRows(field: FormField, form: PostedForm): Parsed {
  const rows: Record<string, string>[] = [];
  for (let i = 0; ; i++) {
    const names = (field.fields ?? []).map((f) => `${field.name}.${i}.${f.name}`);
    if (!names.some((n) => n in form)) break;
    const row = Object.fromEntries(
      (field.fields ?? []).map((f) => [f.name, postedText(form, `${field.name}.${i}.${f.name}`).trim()]),
    );
    if (Object.values(row).some((v) => v !== '')) rows.push(row);
  }
  return { value: rows, given: rows.length > 0 };
}

function parseField(field: FormField, form: PostedForm, clock: SchoolClock): Parsed {
  if (field.kind === 'rows') return parseRows(field, form);
  if (field.kind === 'group') {
    const object: Record<string, unknown> = {};
    for (const sub of field.fields ?? []) {
      const parsed = parseField(sub, form, clock);
      if ('problem' in parsed) return { problem: `${sub.label}: ${parsed.problem}` };
      if (parsed.given && parsed.value !== undefined && parsed.value !== null)
        object[sub.name.slice(field.name.length + 1)] = parsed.value;
    }
    return Object.keys(object).length ? { value: object, given: true } : { value: undefined, given: false };
  }
  const raw = postedText(form, field.name).trim();
  const empty = { value: field.nullable ? null : undefined, given: field.nullable };
  switch (field.kind) {
    case 'boolean':
      return { value: form[field.name] !== undefined && postedText(form, field.name) !== '', given: true };
    case 'number': {
      if (raw === '') return empty;
      const n = Number(raw);
      return Number.isFinite(n) ? { value: n, given: true } : { problem: 'Enter a number.' };
    }
    case 'datetime': {
      if (raw === '') return empty;
      const utc = fromZoneLocal(raw, clock.zone);
      return utc ? { value: utc, given: true } : { problem: 'Enter a date and a time.' };
    }
    case 'place': {
      if (raw === '') return empty;
      const n = Number(raw);
      return Number.isInteger(n) && n >= 1
        ? { value: n - 1, given: true }
        : { problem: 'Enter 1 for the first place, 2 for the second…' };
    }
    case 'amount': {
      if (raw === '') return empty;
      const currency = field.currency ?? postedText(form, 'currency').trim().toUpperCase();
      const minor = minorUnits(raw, currency || 'EUR');
      return minor === undefined
        ? {
            problem: `Enter an amount such as 10 or 10.50, with at most ${minorDigits(currency || 'EUR')} digits after the point.`,
          }
        : { value: minor, given: true };
    }
    case 'lines':
    case 'refs': {
      // One per line in a text box, or one per ticked box of a list of choices.
      const items = [form[field.name] ?? []]
        .flat()
        .flatMap((v) => v.split(/\r?\n/))
        .map((line) => line.trim())
        .filter(Boolean);
      return { value: items, given: items.length > 0 };
    }
    case 'json':
      if (raw === '') return empty;
      try {
        return { value: JSON.parse(raw), given: true };
      } catch {
        return { problem: 'Enter valid JSON.' };
      }
    case 'money': {
      const amount = postedText(form, `${field.name}.amount`).trim();
      const currency = postedText(form, `${field.name}.currency`).trim().toUpperCase();
      if (amount === '' && currency === '') return empty;
      if (!/^\d+([.,]\d+)?$/.test(amount)) return { problem: 'Enter an amount such as 49.00.' };
      const digits = minorDigits(currency || 'EUR');
      const [whole, fraction = ''] = amount.replace(',', '.').split('.');
      if (fraction.length > digits) return { problem: `Use at most ${digits} digits after the point.` };
      const minor = Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
      return { value: { amount: minor, currency }, given: true };
    }
    default:
      if (raw === '') return field.required ? { value: '', given: true } : empty;
      return { value: postedText(form, field.name), given: true };
  }
}

/** Nothing, null and empty text are one "no value" to a form, which cannot tell them apart. */
const blank = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);
const same = (a: unknown, b: unknown) => (blank(a) && blank(b)) || JSON.stringify(a) === JSON.stringify(b);

/**
 * The JSON an operation receives from a posted form. A create sends what was filled in and every tick box; an update (`current` given) sends only what differs from the object as it was, so a PATCH
 * never overwrites a field nobody touched. Problems are only the ones the browser form could not express (a number
 * box with letters); every rule of the data itself is the API's to judge.
 */
export function bodyFromForm(
  fields: FormField[],
  form: PostedForm,
  current?: Record<string, unknown>,
  clock: SchoolClock = UTC_CLOCK,
): { body: Record<string, unknown>; problems: FieldProblem[] } {
  const body: Record<string, unknown> = {};
  const problems: FieldProblem[] = [];
  for (const field of fields) {
    const parsed = parseField(field, form, clock);
    if ('problem' in parsed) {
      problems.push({ field: field.name, message: parsed.problem });
      continue;
    }
    if (current) {
      if (same(parsed.value, current[field.name])) continue;
      // Emptied: null where the field takes it, else empty text (the API says whether that is allowed).
      body[field.name] = parsed.value ?? (field.nullable ? null : field.kind === 'lines' ? [] : '');
      continue;
    }
    // A box is sent as it is shown, ticked or not: what the person saw is what the API gets.
    if (field.kind === 'boolean') {
      body[field.name] = parsed.value;
      continue;
    }
    if (parsed.given && parsed.value !== undefined) body[field.name] = parsed.value;
  }
  return { body, problems };
}
