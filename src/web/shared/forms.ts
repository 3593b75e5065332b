import type { FastifyRequest } from 'fastify';
import type { FieldProblem } from './layout.ts';

const LABELS: Record<string, string> = {
  email: 'Email',
  password: 'Password',
  name: 'Name',
  school_name: 'School name',
  default_currency: 'Default currency',
  timezone: 'Time zone',
  owner_name: 'Your name',
  owner_email: 'Email',
  owner_password: 'Password',
  current_password: 'Current password',
  new_password: 'New password',
  body: 'Comment',
};

/** The label a form shows for a field name, as problems are reported to the person filling it in. */
export const fieldLabel = (name: string) => LABELS[name] ?? name;

/** What to do about a field left empty, said the way the form asks for it. */
const FILL_IN: Record<string, string> = {
  name: 'Enter your name.',
  owner_name: 'Enter your name.',
  school_name: 'Enter the name of your school.',
  body: 'Write your comment.',
};

function explain(keyword: string, params: Record<string, unknown>, name: string): string {
  if (keyword === 'minLength' && params.limit === 1) return FILL_IN[name] ?? 'Fill this in.';
  if (keyword === 'minLength') return `must be at least ${params.limit} characters`;
  if (keyword === 'maxLength') return `must be at most ${params.limit} characters`;
  if (keyword === 'pattern') return 'is not in the expected format';
  if (keyword === 'required') return 'is required';
  return 'is invalid';
}

type ValidationItem = { instancePath?: string; keyword?: string; params?: Record<string, unknown> };

/**
 * The problems of a form its route's schema refused, worded for the person filling it in, or undefined when it passed.
 * A form that shows its problems beside the fields declares `attachValidation: true` and asks this first; its body
 * is typed by the schema only when this is undefined (read what was typed with `typed`).
 */
const WHOLE_FORM = 'This form';
const STALE_FORM = 'was sent with something it does not have; reload the page and try again';

export function formProblems(request: FastifyRequest): FieldProblem[] | undefined {
  const error = request.validationError as (Error & { validation?: ValidationItem[] }) | undefined;
  if (!error) return undefined;
  const problems: FieldProblem[] = [];
  for (const item of error.validation ?? []) {
    const params = item.params ?? {};
    const name = (item.instancePath ?? '').replace(/^\//, '');
    if (item.keyword === 'additionalProperties') {
      // A field the form does not have comes from an older or altered copy of the page: its name means nothing to
      // the person, so the whole form is named instead.
      if (!problems.some((p) => p.field === WHOLE_FORM)) problems.push({ field: WHOLE_FORM, message: STALE_FORM });
      continue;
    }
    const field = fieldLabel(item.keyword === 'required' ? String(params.missingProperty ?? name) : name);
    if (!problems.some((p) => p.field === field))
      problems.push({ field, message: explain(item.keyword ?? '', params, name) });
  }
  if (problems.length === 0) problems.push({ field: WHOLE_FORM, message: STALE_FORM });
  return problems;
}

/** What was typed into one field of a posted form, whether or not the form passed: to show it again. */
export function typed(body: unknown, name: string): string | undefined {
  const value = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value : undefined;
}

/** Only same-origin paths are followed after sign-in; anything else goes home. */
export function safeReturnTo(value: unknown): string {
  // A path on this origin only: printable ASCII without spaces or backslashes, and not protocol-relative. Browsers
  // drop tabs and newlines from URLs, so "/\t/evil.example" would otherwise become "//evil.example".
  if (typeof value !== 'string' || value.length > 2000 || !/^\/(?![/\\])[!-[\]-~]*$/.test(value)) return '/';
  return value;
}
