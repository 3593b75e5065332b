import type { Executor, OrderItemsTable } from '../../db/tables.ts';

/**
 * What digital products need of the areas around them; the composition root (areas/index.ts) hands in the owners'
 * implementations. Each takes the caller's executor, so it reads inside the caller's transaction.
 */

/** The storage area's record of each uploaded file a product carries. */
export type AssetFactsPort = {
  describe(
    ex: Executor,
    ids: string[],
  ): Promise<{ id: string; filename: string; content_type: string; byte_size: number }[]>;
};

/** The membership plans area: the products the plans a person holds include. */
export type PlanProductsPort = {
  productIdsOf(ex: Executor, planIds: string[], productId?: string): Promise<string[]>;
};

/** The orders area: whether an order has a line for the product, which keeps it from being deleted. */
export type SalesPort = {
  namesItem(ex: Executor, itemType: OrderItemsTable['item_type'], itemId: string): Promise<boolean>;
};
