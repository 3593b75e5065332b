import type { AssetsTable, Executor, ImageVariantsTable } from '../../db/tables.ts';

export function storageStore() {
  return {
    baseQuery: (ex: Executor) => ex.selectFrom('assets').selectAll(),

    find: (ex: Executor, id: string) => ex.selectFrom('assets').selectAll().where('id', '=', id).executeTakeFirst(),

    insert: async (ex: Executor, row: AssetsTable) => {
      await ex.insertInto('assets').values(row).execute();
    },

    /** Applies `changes` only while the asset is pending: of two uploads racing, one finishes it. Returns whether it did. */
    updateWhilePending: async (ex: Executor, id: string, changes: Partial<AssetsTable>) => {
      const result = await ex
        .updateTable('assets')
        .set(changes)
        .where('id', '=', id)
        .where('status', '=', 'pending')
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },

    /** Ready images whose variants are still to be made, oldest first. */
    imagesWithoutVariants: (ex: Executor, limit: number) =>
      ex
        .selectFrom('assets')
        .select('id')
        .where('purpose', '=', 'image')
        .where('status', '=', 'ready')
        .where('variants', 'is', null)
        .orderBy('id')
        .limit(limit)
        .execute(),

    /**
     * Records an image's facts and its variants, replacing any an earlier run recorded (a job may run twice; the
     * names are hashes of the bytes, so both runs stored the same files under the same keys).
     */
    saveVariants: async (
      ex: Executor,
      id: string,
      facts: Pick<AssetsTable, 'width' | 'height' | 'placeholder' | 'variants'>,
      rows: ImageVariantsTable[],
    ) => {
      await ex.deleteFrom('image_variants').where('asset_id', '=', id).execute();
      if (rows.length) await ex.insertInto('image_variants').values(rows).execute();
      await ex.updateTable('assets').set(facts).where('id', '=', id).execute();
    },

    /** The facts of the ready images among `ids` whose variants are made, and those variants. */
    imageFacts: async (ex: Executor, ids: string[]) => {
      if (!ids.length) return { images: [], variants: [] };
      const [images, variants] = await Promise.all([
        ex
          .selectFrom('assets')
          .select(['id', 'width', 'height', 'placeholder'])
          .where('id', 'in', ids)
          .where('purpose', '=', 'image')
          .where('status', '=', 'ready')
          .where('variants', '=', 'made')
          .execute(),
        ex
          .selectFrom('image_variants')
          .select(['asset_id', 'name', 'format', 'width'])
          .where('asset_id', 'in', ids)
          .execute(),
      ]);
      return { images, variants };
    },

    /** One variant of a ready image, by its name. */
    variant: (ex: Executor, id: string, name: string) =>
      ex
        .selectFrom('image_variants')
        .innerJoin('assets', 'assets.id', 'image_variants.asset_id')
        .select([
          'image_variants.name',
          'image_variants.format',
          'image_variants.byte_size',
          'image_variants.storage_key',
        ])
        .where('image_variants.asset_id', '=', id)
        .where('image_variants.name', '=', name)
        .where('assets.status', '=', 'ready')
        .executeTakeFirst(),
  };
}

export type StorageStore = ReturnType<typeof storageStore>;
