import { errors } from '../http/errors.ts';

export const NAME_MISSING = 'Enter your name.';

/** A person's name as stored: trimmed, and refused when nothing visible is left. */
export function requireName(value: string, field: string): string {
  const name = value.trim();
  if (!name) throw errors.invalidRequest(NAME_MISSING, [{ field, code: 'blank', message: NAME_MISSING }]);
  return name;
}
