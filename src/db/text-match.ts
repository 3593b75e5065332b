import { sql } from 'kysely';

/** A LIKE pattern that matches `text` literally (used with `escape '\'`). */
export const literalLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** `column` contains `text`, case-insensitively; `%` and `_` in `text` are plain characters (the `q=` filters). */
export const containsText = (column: string, text: string) =>
  sql<boolean>`lower(${sql.ref(column)}) like ${`%${literalLike(text.toLowerCase())}%`} escape '\\'`;
