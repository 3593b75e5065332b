import { newId } from '../../db/ids.ts';
import type { Executor, ProductGrantsTable, ProductsTable } from '../../db/tables.ts';
import { errors } from '../../http/errors.ts';
import { isStaff, type Principal } from '../../http/principal.ts';
import type { AreaDeps } from '../deps.ts';
import { paginate } from '../pagination.ts';
import type { ProductGrant, ProductGrantCreate, ProductGrantListQuery } from './schema.ts';
import type { DigitalProductsStore } from './store.ts';

function toGrant(row: ProductGrantsTable): ProductGrant {
  return {
    id: row.id,
    product_id: row.product_id,
    user_id: row.user_id,
    source: row.source,
    order_id: row.order_id,
    status: row.revoked_at === null ? 'active' : 'revoked',
    granted_at: row.granted_at,
    revoked_at: row.revoked_at,
  };
}

/**
 * Who holds a product by grant: one row per product and person, given by staff (manual) or by a paid order, and
 * revoked by staff or by the order's full refund — the row stays as history, and granting again reopens it.
 */
export function productGrants(
  deps: AreaDeps & {
    store: DigitalProductsStore;
    /** The product `key` names if the caller sees it, else a 404. */
    find: (principal: Principal, key: string) => Promise<ProductsTable>;
  },
) {
  const { db, clock, store } = deps;
  const now = () => clock.now().toISOString();

  async function productById(id: string) {
    const row = await store.findByIdOrSlug(db, id);
    if (row?.id !== id) throw errors.notFound('digital product');
    return row;
  }

  /**
   * Grants `productId` to `userId` in the caller's transaction (the checkout's, for an order). An active grant is
   * left as it is (an order of something already held takes nothing back when refunded); a revoked one is reopened
   * with the new source and order. `created` says whether a new grant row was made.
   */
  async function grant(
    trx: Executor,
    input: { productId: string; userId: string; source: 'order' | 'manual'; orderId: string | null },
  ): Promise<{ grant: ProductGrant; created: boolean }> {
    const row: ProductGrantsTable = {
      id: newId('pgr'),
      product_id: input.productId,
      user_id: input.userId,
      source: input.source,
      order_id: input.orderId,
      granted_at: now(),
      revoked_at: null,
    };
    const written = await store.upsertGrant(trx, row);
    if (written) return { grant: toGrant(written), created: written.id === row.id };
    const active = await store.findGrant(trx, input.productId, input.userId);
    if (!active) throw new Error(`grant of ${input.productId} to ${input.userId} vanished`);
    return { grant: toGrant(active), created: false };
  }

  return {
    grant,

    /** Takes back what an order granted (its full refund); grants from elsewhere are kept. */
    async revokeForOrder(trx: Executor, orderId: string) {
      await store.revokeGrants(trx, now(), { orderId });
    },

    /** Staff grant a product to a person: 201 with a new grant; 200 with the grant they had (reopened if revoked). */
    async grantTo(productId: string, input: ProductGrantCreate) {
      await productById(productId);
      if (!(await store.userExists(db, input.user_id))) {
        const message = `No user ${input.user_id}.`;
        throw errors.invalidRequest(message, [{ field: 'user_id', code: 'not_found', message }]);
      }
      return db.transaction().execute(async (trx) => {
        const result = await grant(trx, { productId, userId: input.user_id, source: 'manual', orderId: null });
        await deps.writes.made(trx, result.grant, result.created ? 'created' : 'existing');
        return { created: result.created, item: result.grant };
      });
    },

    /** Revokes a person's grant (kept as history); revoking again changes nothing. 404 when they never had one. */
    async revokeGrant(productId: string, userId: string) {
      await productById(productId);
      await store.revokeGrants(db, now(), { productId, userId });
      const row = await store.findGrant(db, productId, userId);
      if (!row) throw errors.notFound('grant');
      return toGrant(row);
    },

    /** A product's grants: staff see all of them; anyone else only their own (on a product they see). */
    async listGrants(principal: Principal, productKey: string, query: ProductGrantListQuery) {
      const product = await deps.find(principal, productKey);
      let q = store.grantsQuery(db).where('product_id', '=', product.id);
      if (query.status) q = q.where('revoked_at', query.status === 'active' ? 'is' : 'is not', null);
      if (query.user_id) q = q.where('user_id', '=', query.user_id);
      if (!isStaff(principal)) q = q.where('user_id', '=', principal.kind === 'user' ? principal.userId : '');
      const page = await paginate(q, query, 'id', 'granted_at');
      return { ...page, data: page.data.map(toGrant) };
    },
  };
}
