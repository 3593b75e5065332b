import { type RawBuilder, sql } from 'kysely';

/**
 * The buckets as a table `b(i, s, e)`: bucket i holds the instants s <= t < e. `edges` are n + 1 ascending values of
 * the stored form (ISO timestamps, or revenue slots), so one query groups any range on both engines, each bucket an
 * index range scan. Shared by the areas whose rows analytics counts per bucket, each over its own tables.
 */
export const bucketsCte = (edges: string[]): RawBuilder<unknown> =>
  sql`b(i, s, e) as (values ${sql.join(
    edges.slice(0, -1).map((s, i) => sql`(${sql.lit(i)}, cast(${s} as text), cast(${edges[i + 1]} as text))`),
  )})`;
