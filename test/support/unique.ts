/** A short random word (six lowercase letters and digits) that makes a test's titles, slugs and codes its own. */
export const unique = () => Math.random().toString(36).slice(2, 8);
