import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
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
};

/** The label a form shows for a field name, as problems are reported to the person filling it in. */
export const fieldLabel = (name: string) => LABELS[name] ?? name;

function explain(keyword: string, params: Record<string, unknown>): string {
  if (keyword === 'minLength') return `must be at least ${params.limit} characters`;
  if (keyword === 'maxLength') return `must be at most ${params.limit} characters`;
  if (keyword === 'pattern') return 'is not in the expected format';
  if (keyword === 'required') return 'is required';
  return 'is invalid';
}

/** Checks a posted form against its schema; unknown fields are problems too, never silently dropped. */
export function parseForm<T>(
  schema: TSchema,
  body: unknown,
): { ok: true; value: T } | { ok: false; problems: FieldProblem[] } {
  const value = typeof body === 'object' && body !== null ? body : {};
  if (Value.Check(schema, value)) return { ok: true, value: value as T };
  const problems: FieldProblem[] = [];
  for (const error of Value.Errors(schema, value)) {
    if (error.keyword === 'boolean') continue;
    const params = (error.params ?? {}) as Record<string, unknown>;
    let name = error.instancePath.replace(/^\//, '');
    if (error.keyword === 'required')
      name = String((params.requiredProperties as string[] | undefined)?.[0] ?? params.missingProperty ?? name);
    if (error.keyword === 'additionalProperties') {
      const extra = (params.additionalProperties as string[] | undefined) ?? [String(params.additionalProperty)];
      problems.push({ field: extra.join(', '), message: 'is not a field of this form' });
      continue;
    }
    if (problems.some((p) => p.field === fieldLabel(name))) continue;
    problems.push({ field: fieldLabel(name), message: explain(error.keyword, params) });
  }
  return { ok: false, problems };
}

/** Only same-origin paths are followed after sign-in; anything else goes home. */
export function safeReturnTo(value: unknown): string {
  // A path on this origin only: printable ASCII without spaces or backslashes, and not protocol-relative. Browsers
  // drop tabs and newlines from URLs, so "/\t/evil.example" would otherwise become "//evil.example".
  if (typeof value !== 'string' || value.length > 2000 || !/^\/(?![/\\])[!-[\]-~]*$/.test(value)) return '/';
  return value;
}
