import { errors } from '../http/errors.ts';
import { passwordWeakness } from '../security/password-strength.ts';

/**
 * Refuses a new password that guessing tools would find early (common, a keyboard walk, the person's own name or
 * address), naming the field it came in and saying what to choose instead. Every place a password is set asks this.
 */
export function requireStrongPassword(password: string, field: string, related: string[]): void {
  const why = passwordWeakness(password, related);
  if (why) throw errors.invalidRequest(why, [{ field, code: 'weak', message: why }]);
}
