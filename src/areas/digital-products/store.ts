import type { Updateable } from 'kysely';
import type { Executor, ProductGrantsTable, ProductsTable } from '../../db/tables.ts';

export function digitalProductsStore() {
  return {
    /** Which of `ids` are products (another area's input may name them). */
    existingIds: async (ex: Executor, ids: string[]) =>
      (await ex.selectFrom('products').select('id').where('id', 'in', ids).execute()).map((r) => r.id),

    baseQuery: (ex: Executor) => ex.selectFrom('products').selectAll(),

    findByIdOrSlug: (ex: Executor, key: string) =>
      ex
        .selectFrom('products')
        .selectAll()
        .where((eb) => eb.or([eb('id', '=', key), eb('slug', '=', key)]))
        .executeTakeFirst(),

    slugTaken: async (ex: Executor, slug: string, exceptId?: string) => {
      let query = ex.selectFrom('products').select('id').where('slug', '=', slug);
      if (exceptId) query = query.where('id', '!=', exceptId);
      return (await query.executeTakeFirst()) !== undefined;
    },

    insert: async (ex: Executor, row: ProductsTable) => {
      await ex.insertInto('products').values(row).execute();
    },

    update: async (ex: Executor, id: string, changes: Updateable<ProductsTable>) => {
      await ex.updateTable('products').set(changes).where('id', '=', id).execute();
    },

    /** The files of `productIds`, each product's in order. */
    files: (ex: Executor, productIds: string[]) =>
      productIds.length === 0
        ? Promise.resolve([])
        : ex
            .selectFrom('product_files')
            .select(['product_id', 'asset_id'])
            .where('product_id', 'in', productIds)
            .orderBy('product_id')
            .orderBy('position')
            .execute(),

    replaceFiles: async (ex: Executor, productId: string, assetIds: string[]) => {
      await ex.deleteFrom('product_files').where('product_id', '=', productId).execute();
      if (assetIds.length) {
        await ex
          .insertInto('product_files')
          .values(assetIds.map((asset_id, position) => ({ product_id: productId, asset_id, position })))
          .execute();
      }
    },

    /** Deletes the product only while it is a draft (the caller has asked the orders area that none was sold). */
    deleteDraft: async (ex: Executor, id: string) => {
      const result = await ex
        .deleteFrom('products')
        .where('id', '=', id)
        .where('status', '=', 'draft')
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },

    /** The ids of the products granted to `userId` and not revoked; only `productId`, when given. */
    grantedProductIds: async (ex: Executor, userId: string, productId?: string) => {
      let q = ex
        .selectFrom('product_grants')
        .select('product_id')
        .where('user_id', '=', userId)
        .where('revoked_at', 'is', null);
      if (productId) q = q.where('product_id', '=', productId);
      return (await q.execute()).map((r) => r.product_id);
    },

    userExists: async (ex: Executor, id: string) =>
      (await ex.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst()) !== undefined,

    grantsQuery: (ex: Executor) => ex.selectFrom('product_grants').selectAll(),

    findGrant: (ex: Executor, productId: string, userId: string) =>
      ex
        .selectFrom('product_grants')
        .selectAll()
        .where('product_id', '=', productId)
        .where('user_id', '=', userId)
        .executeTakeFirst(),

    /**
     * Grants the product, or reopens a revoked grant with the new source and order, in one statement (the unique
     * index on product and person decides between two at once). An active grant is left as it is. Returns the row
     * written, or undefined when the grant was already active.
     */
    upsertGrant: (ex: Executor, row: ProductGrantsTable) =>
      ex
        .insertInto('product_grants')
        .values(row)
        .onConflict((oc) =>
          oc
            .columns(['product_id', 'user_id'])
            .doUpdateSet({
              source: row.source,
              order_id: row.order_id,
              granted_at: row.granted_at,
              revoked_at: null,
            })
            .where('product_grants.revoked_at', 'is not', null),
        )
        .returningAll()
        .executeTakeFirst(),

    /** Revokes the active grants `where` selects; returns how many. */
    revokeGrants: async (
      ex: Executor,
      at: string,
      where: { productId: string; userId: string } | { orderId: string },
    ) => {
      let q = ex.updateTable('product_grants').set({ revoked_at: at }).where('revoked_at', 'is', null);
      q =
        'orderId' in where
          ? q.where('order_id', '=', where.orderId)
          : q.where('product_id', '=', where.productId).where('user_id', '=', where.userId);
      return Number((await q.executeTakeFirst()).numUpdatedRows);
    },
  };
}

export type DigitalProductsStore = ReturnType<typeof digitalProductsStore>;
