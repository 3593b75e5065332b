import { errors, type FieldError } from '../../http/errors.ts';
import { type FormField, type FormFieldInput, LENGTHS } from './schema.ts';

const MAX_LABEL = 200;

const typed = (type: FormField['type']): type is keyof typeof LENGTHS => type in LENGTHS;

/**
 * A form's fields as given by staff, checked as a whole and normalised (defaults filled in, text trimmed): unique
 * names, options for choice fields only (distinct, at least one), max_length only where there is text to measure and
 * within its type's bound, a consent field always required. Every problem is reported at once, each naming its field
 * (`fields[2].options`), as one 400.
 */
export function checkDefinition(inputs: FormFieldInput[]): FormField[] {
  const problems: FieldError[] = [];
  const problem = (i: number, key: string, code: string, message: string) =>
    problems.push({ field: `fields[${i}].${key}`, code, message });
  const seen = new Set<string>();
  const fields = inputs.map((input, i): FormField => {
    if (seen.has(input.name)) problem(i, 'name', 'duplicate', `Another field is named "${input.name}" already.`);
    seen.add(input.name);
    const label = input.label.trim();
    if (!label) problem(i, 'label', 'blank', 'A field needs a label people can read.');
    if (input.type !== 'consent' && label.length > MAX_LABEL)
      problem(i, 'label', 'too_long', `Keep a label to ${MAX_LABEL} characters (a consent statement may be longer).`);
    // An option is stored as a visitor's browser sends it back: trimmed, inner spaces collapsed.
    const options = (input.options ?? []).map((o) => o.replace(/\s+/g, ' ').trim());
    if (input.type === 'choice') {
      if (!options.length) problem(i, 'options', 'required', 'A choice field needs at least one option.');
      if (options.some((o) => !o)) problem(i, 'options', 'blank', 'An option needs some text.');
      if (new Set(options).size !== options.length) problem(i, 'options', 'duplicate', 'Options must differ.');
    } else if (input.options !== undefined) {
      problem(i, 'options', 'not_allowed', 'Only choice fields have options.');
    }
    if (typed(input.type)) {
      const bound = LENGTHS[input.type].max;
      if (input.max_length != null && input.max_length > bound)
        problem(i, 'max_length', 'too_large', `A ${input.type} field takes at most ${bound} characters.`);
    } else if (input.max_length != null) {
      problem(i, 'max_length', 'not_allowed', `A ${input.type} field has no length.`);
    }
    if (input.type === 'consent' && input.required === false)
      problem(i, 'required', 'consent_required', 'A consent field is always required; use a checkbox for a choice.');
    return {
      name: input.name,
      label,
      type: input.type,
      required: input.type === 'consent' || input.required === true,
      help: input.help?.trim() || null,
      max_length: typed(input.type) ? (input.max_length ?? LENGTHS[input.type].default) : null,
      ...(input.type === 'choice' ? { options } : {}),
    };
  });
  if (problems.length) throw errors.invalidRequest(`The form's fields are not valid: ${describe(problems)}`, problems);
  return fields;
}

const describe = (problems: FieldError[]) => problems.map((p) => `${p.field}: ${p.message}`).join(' ');

/**
 * The first field of `before` that `after` removes, renames or retypes. Submissions hold their values by field name,
 * so once a form has any, its fields keep their name and type (labels, help, rules and order may change) — otherwise
 * old values would lose their column.
 */
export function lostField(before: FormField[], after: FormField[]): FormField | undefined {
  const next = new Map(after.map((f) => [f.name, f.type]));
  return before.find((f) => next.get(f.name) !== f.type);
}
