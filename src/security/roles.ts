/**
 * The three roles a person can hold. What a role may grant (security/scopes.ts), what a token's principal carries
 * (security/token-principal.ts, http/principal.ts) and the users table all speak of these, so they live on the floor
 * of the lowest of them.
 */
export const ROLES = { owner: 'owner', staff: 'staff', student: 'student' } as const;
export type Role = (typeof ROLES)[keyof typeof ROLES];
