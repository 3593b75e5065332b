import { randomBytes } from 'node:crypto';
import { isUniqueViolation } from '../db/unique-violation.ts';
import { errors } from '../http/errors.ts';

/** A URL slug from a title: lower-case ASCII words joined by dashes, at most 80 characters. */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80)
    .replace(/-+$/g, '');
}

/**
 * The slug rules shared by every area with unique slugs (courses, pages, posts): a requested slug that is taken is
 * a 409 that says what to do; a slug made from the title gets a random suffix when taken; and a write that loses a
 * race for the same slug (both passed the check) hits the unique index and becomes the same 409.
 */
export function slugRules(what: string, taken: (slug: string, exceptId?: string) => Promise<boolean>) {
  const conflict = (slug: string) =>
    errors.conflict(`The web address "${slug}" is already taken by another ${what}; choose another one.`);
  return {
    conflict,
    async choose(requested: string | undefined, title: string): Promise<string> {
      if (requested) {
        if (await taken(requested)) throw conflict(requested);
        return requested;
      }
      const base = slugify(title) || what;
      return (await taken(base)) ? `${base}-${randomBytes(3).toString('hex')}` : base;
    },
    async assertFree(slug: string | undefined, exceptId: string): Promise<void> {
      if (slug && (await taken(slug, exceptId))) throw conflict(slug);
    },
    async write<T>(slug: string | undefined, fn: () => Promise<T>): Promise<T> {
      try {
        return await fn();
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(slug ?? '');
        throw error;
      }
    },
  };
}
