import { createHash } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import Type from 'typebox';
import type { Db, Executor, ImageVariantsTable } from '../../db/tables.ts';
import type { JobQueue } from '../../jobs/queue.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import {
  FORMAT_EXTENSIONS,
  FORMAT_TYPES,
  makeVariants,
  UnreadableImage,
  type VariantFormat,
} from '../../storage/image-variants.ts';
import type { Clock } from '../../time/clock.ts';
import type { StorageStore } from './store.ts';

export const MAKE_VARIANTS = 'storage.image-variants';

/** The largest original decoded for variants; a larger one is shown as it is (the upload limit may allow more). */
const MAX_ORIGINAL_BYTES = 50_000_000;
/** How many images one start-up queues at most; the next start queues the rest. */
const BACKFILL_BATCH = 1000;

/** The order formats are offered in: the smallest first, the one every browser reads last. */
const OFFERED: VariantFormat[] = ['avif', 'webp', 'jpeg', 'png'];

/** "640-3f9a1c2b7d4e.avif": what a variant is served as under /media/<asset id>/. */
const VARIANT_NAME = /^\d{1,5}-[0-9a-f]{12}\.(avif|webp|jpg|png)$/;

export const VariantParams = Type.Object(
  { id: Type.String({ maxLength: 64 }), name: Type.String({ maxLength: 64 }) },
  { additionalProperties: false },
);

/** An uploaded image as pages show it: its size, placeholder and variants by format (see web/shared/picture.ts). */
export type StoredImage = {
  width: number;
  height: number;
  placeholder: string | null;
  formats: { type: string; sources: { url: string; width: number }[] }[];
};

async function* once(bytes: Buffer) {
  yield bytes;
}

/**
 * The variants of uploaded images, made once by a durable job queued when an image becomes ready (and, at start, for
 * images uploaded before variants existed), stored in the blob store beside the original, and served under names that
 * are hashes of their bytes, so they may be kept for good by every cache.
 */
export function imageVariants(deps: {
  db: Db;
  clock: Clock;
  jobs: JobQueue;
  store: StorageStore;
  blobs: BlobStore;
  log?: (message: string, fields: Record<string, unknown>) => void;
}) {
  const { db, store, blobs, jobs } = deps;

  async function make(id: string) {
    const row = await store.find(db, id);
    if (row?.purpose !== 'image' || row.status !== 'ready' || !row.storage_key) return { skipped: 'not a ready image' };
    if (row.variants) return { skipped: `variants already ${row.variants}` };
    if (Number(row.byte_size) > MAX_ORIGINAL_BYTES) {
      await store.saveVariants(db, id, { variants: 'unreadable' }, []);
      return { unreadable: 'too large to decode' };
    }
    let made: Awaited<ReturnType<typeof makeVariants>>;
    try {
      made = await makeVariants(await buffer(await blobs.get(row.storage_key)));
    } catch (error) {
      if (!(error instanceof UnreadableImage)) throw error;
      // The type was told from the bytes' signature; the rest of them may still be broken.
      await store.saveVariants(db, id, { variants: 'unreadable' }, []);
      deps.log?.('image variants not made', { asset_id: id, reason: error.message });
      return { unreadable: error.message };
    }
    const at = deps.clock.now().toISOString();
    const rows: ImageVariantsTable[] = [];
    for (const variant of made.variants) {
      const hash = createHash('sha256').update(variant.bytes).digest('hex').slice(0, 12);
      const name = `${variant.width}-${hash}.${FORMAT_EXTENSIONS[variant.format]}`;
      const key = `assets/${id}/variants/${name}`;
      await blobs.put(key, once(variant.bytes), {
        byteSize: variant.bytes.length,
        contentType: FORMAT_TYPES[variant.format],
      });
      rows.push({
        asset_id: id,
        name,
        format: variant.format,
        width: variant.width,
        height: variant.height,
        byte_size: variant.bytes.length,
        storage_key: key,
        created_at: at,
      });
    }
    await db
      .transaction()
      .execute((trx) =>
        store.saveVariants(
          trx,
          id,
          { width: made.width, height: made.height, placeholder: made.placeholder, variants: 'made' },
          rows,
        ),
      );
    return { variants: rows.length, bytes: rows.reduce((n, r) => n + r.byte_size, 0) };
  }

  jobs.handle(MAKE_VARIANTS, (payload: { asset_id: string }) => make(payload.asset_id));

  return {
    /** Queues the making of an image's variants, in the transaction that makes it ready. */
    queue: (ex: Executor, id: string) => jobs.enqueue(ex, MAKE_VARIANTS, { asset_id: id }),

    /**
     * Queues a job for each ready image without variants (uploaded before they existed, or whose job failed for good).
     * Two instances starting together queue the same images twice; the second job of one finds it done.
     */
    async queueMissing(): Promise<number> {
      const queued = new Set(
        (
          await db
            .selectFrom('jobs')
            .select('payload')
            .where('kind', '=', MAKE_VARIANTS)
            .where('status', 'in', ['queued', 'running'])
            .execute()
        ).map((j) => (JSON.parse(j.payload) as { asset_id: string }).asset_id),
      );
      const missing = (await store.imagesWithoutVariants(db, BACKFILL_BATCH)).filter((r) => !queued.has(r.id));
      for (const { id } of missing) await jobs.enqueue(db, MAKE_VARIANTS, { asset_id: id });
      return missing.length;
    },

    /** The images among `ids` whose variants are made, by id, with their variants' root-relative addresses. */
    async images(ids: string[]): Promise<Map<string, StoredImage>> {
      const { images, variants } = await store.imageFacts(db, [...new Set(ids)]);
      const found = new Map<string, StoredImage>();
      for (const image of images) {
        const own = variants.filter((v) => v.asset_id === image.id);
        found.set(image.id, {
          width: Number(image.width),
          height: Number(image.height),
          placeholder: image.placeholder ?? null,
          formats: OFFERED.map((format) => ({
            type: FORMAT_TYPES[format],
            sources: own
              .filter((v) => v.format === format)
              .map((v) => ({ url: `/media/${image.id}/${v.name}`, width: Number(v.width) }))
              .sort((a, b) => a.width - b.width),
          })).filter((f) => f.sources.length),
        });
      }
      return found;
    },

    /** A variant to serve, or undefined when `name` names none of a ready image. */
    async variant(id: string, name: string) {
      if (!/^ast_[0-9a-z]{26}$/.test(id) || !VARIANT_NAME.test(name)) return undefined;
      const row = await store.variant(db, id, name);
      return (
        row && {
          key: row.storage_key,
          contentType: FORMAT_TYPES[row.format],
          byteSize: Number(row.byte_size),
          etag: `"${row.name}"`,
        }
      );
    },
  };
}

export type ImageVariants = ReturnType<typeof imageVariants>;
