import type { Executor } from '../../db/tables.ts';

/** What other areas ask of the products a plan includes. */
export function planProducts() {
  return {
    /** The ids of the products any of `planIds` includes; only `productId`, when given. */
    productIdsOf: async (ex: Executor, planIds: string[], productId?: string) => {
      if (planIds.length === 0) return [];
      let q = ex.selectFrom('plan_products').select('product_id').where('plan_id', 'in', planIds);
      if (productId) q = q.where('product_id', '=', productId);
      return (await q.execute()).map((r) => r.product_id);
    },
  };
}
