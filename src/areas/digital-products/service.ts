import { newId } from '../../db/ids.ts';
import type { Executor, ProductsTable } from '../../db/tables.ts';
import { containsText } from '../../db/text-match.ts';
import { errors } from '../../http/errors.ts';
import { isStaff, type Principal } from '../../http/principal.ts';
import type { AreaDeps } from '../deps.ts';
import { paginate } from '../pagination.ts';
import { withRowLock } from '../row-locks.ts';
import { slugRules } from '../slugs.ts';
import type { StorageService } from '../storage/service.ts';
import type { MembershipRule } from '../subscriptions/service.ts';
import { productGrants } from './grants.ts';
import type { AssetFactsPort, PlanProductsPort, SalesPort } from './ports.ts';
import {
  type DigitalProduct,
  type DigitalProductCreate,
  type DigitalProductListQuery,
  type DigitalProductUpdate,
  FILE_PURPOSES,
  type ProductDownloads,
} from './schema.ts';
import type { DigitalProductsStore } from './store.ts';

type Status = ProductsTable['status'];

/**
 * Digital products: files (uploaded assets) sold or granted to people, who download them through signed links that
 * expire. Anonymous callers and students see published products (and, signed in, the archived ones they hold);
 * staff see everything. Anything else is 404.
 */
export function digitalProductsService(
  deps: AreaDeps & {
    store: DigitalProductsStore;
    storage: StorageService;
    /** Who holds which plan now (a plan can include products). */
    memberships: Pick<MembershipRule, 'activePlanIds'>;
    assets: AssetFactsPort;
    plans: PlanProductsPort;
    sales: SalesPort;
  },
) {
  const { db, clock, store, storage, memberships } = deps;
  const now = () => clock.now().toISOString();
  const notFound = () => errors.notFound('digital product');

  /** The files of `productIds`, each product's in order, with what its asset records of it. */
  async function filesOf(ex: Executor, productIds: string[]) {
    const files = await store.files(ex, productIds);
    const assets = new Map(
      (
        await deps.assets.describe(
          ex,
          files.map((f) => f.asset_id),
        )
      ).map((a) => [a.id, a]),
    );
    return files.flatMap((f) => {
      const asset = assets.get(f.asset_id);
      return asset
        ? [{ ...f, filename: asset.filename, content_type: asset.content_type, byte_size: asset.byte_size }]
        : [];
    });
  }

  async function toProducts(ex: Executor, rows: ProductsTable[]): Promise<DigitalProduct[]> {
    const files = await filesOf(
      ex,
      rows.map((r) => r.id),
    );
    return rows.map((row) => ({
      id: row.id,
      title: row.title,
      slug: row.slug,
      description: row.description,
      price:
        row.price_amount === null || row.price_currency === null
          ? null
          : { amount: Number(row.price_amount), currency: row.price_currency },
      image_url: row.image_url ?? null,
      files: files
        .filter((f) => f.product_id === row.id)
        .map((f) => ({
          asset_id: f.asset_id,
          filename: f.filename,
          content_type: f.content_type,
          byte_size: Number(f.byte_size),
        })),
      status: row.status,
      published_at: row.published_at,
      created_at: row.created_at,
      updated_at: row.updated_at,
    }));
  }
  const toProduct = async (ex: Executor, row: ProductsTable) => (await toProducts(ex, [row]))[0] as DigitalProduct;

  /** The products a person holds now: an unrevoked grant, or a plan they hold (the membership rule) including it. */
  async function heldBy(userId: string, productId?: string, ex: Executor = db) {
    const plans = await memberships.activePlanIds(ex, userId, now());
    const [granted, planned] = await Promise.all([
      store.grantedProductIds(ex, userId, productId),
      deps.plans.productIdsOf(ex, plans, productId),
    ]);
    return [...new Set([...granted, ...planned])];
  }

  /**
   * The one rule of who sees which products and who may download them, as data both the row check and the list
   * query use: staff see and download everything; anyone else sees published products and, signed in, the products
   * they hold that are not drafts — and downloads those.
   */
  function viewOf(principal: Principal) {
    /** What the caller holds (only `productId`, when given); read only when the rest does not decide. */
    const held = async (productId?: string): Promise<string[]> =>
      principal.kind === 'user' ? heldBy(principal.userId, productId) : [];
    return { all: isStaff(principal), held };
  }

  /** Whether the caller sees the product, and whether they may download its files. */
  async function standing(principal: Principal, row: ProductsTable) {
    const view = viewOf(principal);
    if (view.all) return { sees: true, downloads: true };
    const holds = row.status !== 'draft' && (await view.held(row.id)).includes(row.id);
    return { sees: holds || row.status === 'published', downloads: holds };
  }

  async function find(principal: Principal, key: string) {
    const row = await store.findByIdOrSlug(db, key);
    if (!row || !(await standing(principal, row)).sees) throw notFound();
    return row;
  }

  /** The files a product is to carry: ready uploads of a purpose served only through signed links. */
  async function checkFiles(assetIds: string[] | undefined) {
    for (const id of assetIds ?? []) await storage.requireReady('asset_ids', id, FILE_PURPOSES);
  }

  const slugs = slugRules('digital product', (slug, exceptId) => store.slugTaken(db, slug, exceptId));

  const titleOf = (title: string) => {
    const trimmed = title.trim();
    if (!trimmed) {
      throw errors.invalidRequest('title must not be blank.', [
        { field: 'title', code: 'blank', message: 'Give the product a title.' },
      ]);
    }
    return trimmed;
  };

  function transition(id: string, to: Status, from: Status[]) {
    return withRowLock(db, 'products', id, notFound, async (trx, row) => {
      if (row.status === to) return toProduct(trx, row);
      if (!from.includes(row.status)) throw errors.conflict(`A ${row.status} product cannot become ${to}.`);
      if (to === 'published' && (await filesOf(trx, [id])).length === 0) {
        throw errors.conflict(
          `A product needs at least one file before it is published (PATCH /api/v1/digital-products/${id} with asset_ids).`,
        );
      }
      const at = now();
      const changes: Partial<ProductsTable> = {
        status: to,
        updated_at: at,
        archived_at: to === 'archived' ? at : null,
        ...(to === 'published' && !row.published_at ? { published_at: at } : {}),
      };
      await store.update(trx, id, changes);
      return toProduct(trx, { ...row, ...changes });
    });
  }

  const grants = productGrants({ ...deps, find });

  /** Each file of `product` with a signed link valid from now (MEDIA_URL_TTL_SECONDS). */
  function linksOf(product: DigitalProduct): ProductDownloads {
    return {
      product_id: product.id,
      files: product.files.map((file) => {
        const signed = storage.signedUrl(file.asset_id);
        return { ...file, url: signed.url, expires_at: signed.expiresAt };
      }),
    };
  }

  return {
    async list(principal: Principal, query: DigitalProductListQuery) {
      let q = store.baseQuery(db);
      if (query.status) q = q.where('status', '=', query.status);
      if (query.q) q = q.where(containsText('title', query.q));
      if (query.price) q = q.where('price_amount', query.price === 'free' ? 'is' : 'is not', null);
      const view = viewOf(principal);
      const held = query.held !== undefined || !view.all ? await view.held() : [];
      if (query.held === true) q = q.where('id', 'in', held.length ? held : ['']);
      if (query.held === false && held.length) q = q.where('id', 'not in', held);
      if (!view.all) {
        q = q.where((eb) =>
          held.length
            ? eb.or([eb('status', '=', 'published'), eb.and([eb('id', 'in', held), eb('status', '!=', 'draft')])])
            : eb('status', '=', 'published'),
        );
      }
      const page = await paginate(q, query, 'id', 'created_at');
      return { ...page, data: await toProducts(db, page.data) };
    },

    get: async (principal: Principal, key: string) => toProduct(db, await find(principal, key)),

    async create(input: DigitalProductCreate) {
      const title = titleOf(input.title);
      await checkFiles(input.asset_ids);
      const slug = await slugs.choose(input.slug, title);
      const at = now();
      const row: ProductsTable = {
        id: newId('prd'),
        title,
        slug,
        description: input.description ?? '',
        price_amount: input.price?.amount ?? null,
        price_currency: input.price?.currency ?? null,
        image_url: input.image_url ?? null,
        status: 'draft',
        published_at: null,
        archived_at: null,
        created_at: at,
        updated_at: at,
      };
      const files = input.asset_ids ?? [];
      return slugs.write(slug, () =>
        db.transaction().execute(async (trx) => {
          await store.insert(trx, row);
          await store.replaceFiles(trx, row.id, files);
          const created = await toProduct(trx, row);
          await deps.writes.made(trx, created);
          return created;
        }),
      );
    },

    async update(id: string, input: DigitalProductUpdate) {
      const title = input.title === undefined ? undefined : titleOf(input.title);
      await checkFiles(input.asset_ids);
      await slugs.assertFree(input.slug, id);
      return slugs.write(input.slug, () =>
        withRowLock(db, 'products', id, notFound, async (trx, row) => {
          if (input.asset_ids?.length === 0 && row.status === 'published') {
            throw errors.conflict('A published product keeps at least one file; archive it before removing them all.');
          }
          const changes: Partial<ProductsTable> = { updated_at: now() };
          if (title !== undefined) changes.title = title;
          if (input.slug !== undefined) changes.slug = input.slug;
          if (input.description !== undefined) changes.description = input.description;
          if (input.image_url !== undefined) changes.image_url = input.image_url;
          if (input.price !== undefined) {
            changes.price_amount = input.price?.amount ?? null;
            changes.price_currency = input.price?.currency ?? null;
          }
          await store.update(trx, id, changes);
          if (input.asset_ids) await store.replaceFiles(trx, id, input.asset_ids);
          return toProduct(trx, { ...row, ...changes });
        }),
      );
    },

    async delete(id: string) {
      const deleted = await db
        .transaction()
        .execute(
          async (trx) => !(await deps.sales.namesItem(trx, 'product', id)) && (await store.deleteDraft(trx, id)),
        );
      if (deleted) return;
      const row = await store.findByIdOrSlug(db, id);
      if (!row || row.id !== id) throw notFound();
      throw errors.conflict(
        `Only a draft product that was never sold can be deleted; archive this one instead (POST /api/v1/digital-products/${id}/archive).`,
      );
    },

    publish: (id: string) => transition(id, 'published', ['draft', 'archived']),
    archive: (id: string) => transition(id, 'archived', ['draft', 'published']),

    /** The product's files with signed links, for a holder of the product or staff; 404 for anyone else. */
    /** The product as the caller sees it, with its download links when they may download (the product page). */
    async withDownloads(principal: Principal, key: string) {
      const row = await store.findByIdOrSlug(db, key);
      const standingOf = row && (await standing(principal, row));
      if (!row || !standingOf?.sees) throw notFound();
      const product = await toProduct(db, row);
      return { product, downloads: standingOf.downloads ? linksOf(product) : undefined };
    },

    async downloads(principal: Principal, key: string) {
      const row = await store.findByIdOrSlug(db, key);
      if (!row || !(await standing(principal, row)).downloads) throw notFound();
      return linksOf(await toProduct(db, row));
    },

    /** Every product a signed-in person holds and may download (not drafts), newest first, with its links. */
    async myDownloads(principal: Principal) {
      if (principal.kind !== 'user') return [];
      const ids = await heldBy(principal.userId);
      if (!ids.length) return [];
      const rows = await store
        .baseQuery(db)
        .where('id', 'in', ids)
        .where('status', '!=', 'draft')
        .orderBy('id', 'desc')
        .execute();
      return (await toProducts(db, rows)).map((product) => ({ product, downloads: linksOf(product) }));
    },

    /** A published product as the checkout sells it; 404 for anything else. */
    /** Whether `userId` holds the product now (a grant, or a plan including it), read on the caller's transaction. */
    holds: async (ex: Executor, userId: string, productId: string) =>
      (await heldBy(userId, productId, ex)).includes(productId),

    async forSale(ex: Executor, key: string) {
      const row = await store.findByIdOrSlug(ex, key);
      if (row?.status !== 'published') throw notFound();
      return {
        id: row.id,
        title: row.title,
        slug: row.slug,
        price:
          row.price_amount === null || row.price_currency === null
            ? null
            : { amount: Number(row.price_amount), currency: row.price_currency },
      };
    },

    ...grants,
  };
}

export type DigitalProductsService = ReturnType<typeof digitalProductsService>;
