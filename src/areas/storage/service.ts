import { createHash, randomUUID } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import { newId } from '../../db/ids.ts';
import { insertWith } from '../../db/request-writes.ts';
import type { AssetsTable } from '../../db/tables.ts';
import { errors } from '../../http/errors.ts';
import { type Principal, userIdOf } from '../../http/principal.ts';
import { withoutDeceptive } from '../../security/deceptive-text.ts';
import type { BlobStore } from '../../storage/blob-store.ts';
import type { MediaUrls } from '../../storage/media-urls.ts';
import { baseType, SNIFF_BYTES, sniffType } from '../../storage/sniff.ts';
import type { AreaDeps } from '../deps.ts';
import { paginate } from '../pagination.ts';
import { derivedFiles } from './derived-files.ts';
import { imageVariants } from './image-variants.ts';
import {
  type Asset,
  type AssetCreate,
  type AssetListQuery,
  CAPTIONS_LIMIT_BYTES,
  PURPOSES,
  type Purpose,
} from './schema.ts';
import type { StorageStore } from './store.ts';

/** A refusal found while reading the bytes: the asset becomes failed with `reason`. */
class Refused extends Error {
  readonly tooLarge: boolean;
  constructor(reason: string, tooLarge = false) {
    super(reason);
    this.tooLarge = tooLarge;
  }
}

/**
 * Uploaded files. An upload is created with what it claims to be (purpose, name, type, size) and is pending until
 * its bytes are PUT; they are streamed to the blob store while their SHA-256 is computed, and the asset becomes ready
 * only if they are what was declared — the type their first bytes show, the exact size — else failed, with the
 * bytes dropped. Images are public; other purposes are served only through signed URLs.
 */
export function storageService(deps: AreaDeps & { store: StorageStore; blobs: BlobStore; urls: MediaUrls }) {
  const { db, clock, store, blobs, urls, config } = deps;
  const now = () => clock.now().toISOString();
  const variants = imageVariants({ db, clock, jobs: deps.jobs, store, blobs });
  const derived = derivedFiles(blobs);
  const limits: Record<Purpose, number> = {
    image: config.UPLOAD_LIMIT_IMAGE_BYTES,
    video: config.UPLOAD_LIMIT_VIDEO_BYTES,
    audio: config.UPLOAD_LIMIT_AUDIO_BYTES,
    pdf: config.UPLOAD_LIMIT_PDF_BYTES,
    download: config.UPLOAD_LIMIT_DOWNLOAD_BYTES,
    captions: CAPTIONS_LIMIT_BYTES,
  };

  /** Where a ready asset is served to whoever may see it: its public URL, or a signed one valid from now. */
  function urlOf(row: Pick<AssetsTable, 'id' | 'purpose' | 'status'>) {
    if (row.status !== 'ready') return null;
    return PURPOSES[row.purpose].public ? urls.publicUrl(row.id) : urls.signedUrl(row.id, clock.now()).url;
  }

  function toAsset(row: AssetsTable): Asset {
    return {
      id: row.id,
      purpose: row.purpose,
      filename: row.filename,
      content_type: row.content_type,
      byte_size: Number(row.byte_size),
      sha256: row.sha256,
      status: row.status,
      failure_reason: row.failure_reason,
      url: urlOf(row),
      upload_url: row.status === 'pending' ? `${config.BASE_URL}/api/v1/storage/assets/${row.id}/content` : null,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }

  async function find(id: string) {
    const row = await store.find(db, id);
    if (!row) throw errors.notFound('asset');
    return row;
  }

  /** Marks a pending asset failed and returns the error that tells the uploader why. */
  async function fail(row: AssetsTable, refusal: Refused) {
    await store.updateWhilePending(db, row.id, {
      status: 'failed',
      failure_reason: refusal.message,
      updated_at: now(),
    });
    const description = `${refusal.message} The asset is now failed; create a new one to upload again.`;
    return refusal.tooLarge ? errors.payloadTooLarge(description) : errors.invalidRequest(description);
  }

  /** The type the bytes will be served as, if the purpose accepts them as what was declared. */
  function judgeType(row: AssetsTable, sniffed: string | undefined): string {
    if (row.purpose === 'download') return sniffed ?? 'application/octet-stream';
    const allowed: readonly string[] = PURPOSES[row.purpose].types;
    if (!sniffed)
      throw new Refused(`The bytes are not a file type allowed for ${row.purpose} (${allowed.join(', ')}).`);
    if (!allowed.includes(sniffed)) {
      throw new Refused(`The bytes are ${sniffed}, which is not allowed for ${row.purpose} (${allowed.join(', ')}).`);
    }
    if (sniffed !== baseType(row.content_type)) {
      throw new Refused(`The bytes are ${sniffed}, not ${row.content_type} as declared.`);
    }
    return sniffed;
  }

  return {
    toAsset,

    async create(principal: Principal, input: AssetCreate) {
      const allowed: readonly string[] = PURPOSES[input.purpose].types;
      if (allowed.length && !allowed.includes(baseType(input.content_type))) {
        const message = `${input.purpose} accepts ${allowed.join(', ')}.`;
        throw errors.invalidRequest(`content_type: ${message}`, [
          { field: 'content_type', code: 'not_allowed', message },
        ]);
      }
      const limit = limits[input.purpose];
      if (input.byte_size > limit) {
        const message = `${input.purpose} uploads are at most ${limit} bytes.`;
        throw errors.payloadTooLarge(`byte_size: ${message}`, [{ field: 'byte_size', code: 'maximum', message }]);
      }
      // A bidi override or zero-width character can disguise a name's extension ("report\u202Efdp.exe" reads as
      // "reportexe.pdf"); the name is kept as people will see it, without them.
      const filename = withoutDeceptive(input.filename).trim();
      if (filename === '' || filename === '.' || filename === '..') {
        const message = 'must have visible characters besides formatting and control characters.';
        throw errors.invalidRequest(`filename: ${message}`, [{ field: 'filename', code: 'pattern', message }]);
      }
      const at = now();
      const row: AssetsTable = {
        id: newId('ast'),
        purpose: input.purpose,
        filename,
        content_type: baseType(input.content_type),
        byte_size: input.byte_size,
        sha256: null,
        expected_sha256: input.sha256 ?? null,
        status: 'pending',
        failure_reason: null,
        storage_key: null,
        created_by: userIdOf(principal) ?? null,
        created_at: at,
        updated_at: at,
      };
      return insertWith(db, deps.writes, (ex) => store.insert(ex, row), toAsset(row));
    },

    get: async (id: string) => toAsset(await find(id)),

    async list(query: AssetListQuery) {
      let q = store.baseQuery(db);
      if (query.purpose) q = q.where('purpose', '=', query.purpose);
      if (query.status) q = q.where('status', '=', query.status);
      const page = await paginate(q, query, 'id', 'created_at');
      return { ...page, data: page.data.map(toAsset) };
    },

    /**
     * Takes the bytes of a pending asset from `body` (`declaredLength`: the request's Content-Length, if any): reads
     * the beginning to tell the type, then streams everything to the blob store while hashing and counting, never
     * reading more than the declared size. A broken-off transfer leaves the asset pending, to be sent again.
     */
    async upload(id: string, body: AsyncIterable<Uint8Array>, declaredLength: number | undefined) {
      const row = await find(id);
      if (row.status !== 'pending') {
        throw errors.conflict(`This asset is already ${row.status}; create a new asset to upload another file.`);
      }
      const size = Number(row.byte_size);
      const source = body[Symbol.asyncIterator]();
      let received = 0;
      const take = async (): Promise<Uint8Array | undefined> => {
        const next = await source.next();
        if (next.done) return undefined;
        received += next.value.length;
        if (received > size) throw new Refused(`More than the declared ${size} bytes were sent.`, true);
        return next.value;
      };
      const hash = createHash('sha256');
      const key = `assets/${row.id}/${randomUUID()}`;
      let stored = false;
      try {
        if (declaredLength !== undefined && declaredLength !== size) {
          throw new Refused(
            `The request has ${declaredLength} bytes, not the declared ${size}.`,
            declaredLength > size,
          );
        }
        const head: Uint8Array[] = [];
        let headLength = 0;
        while (headLength < Math.min(SNIFF_BYTES, size)) {
          const chunk = await take();
          if (!chunk) break;
          head.push(chunk);
          headLength += chunk.length;
        }
        const type = judgeType(row, await sniffType(Buffer.concat(head)));
        async function* bytes() {
          for (const chunk of head) {
            hash.update(chunk);
            yield chunk;
          }
          for (let chunk = await take(); chunk; chunk = await take()) {
            hash.update(chunk);
            yield chunk;
          }
          if (received < size) throw new Refused(`Only ${received} of the declared ${size} bytes were sent.`);
        }
        await blobs.put(key, bytes(), { byteSize: size, contentType: type });
        stored = true;
        const sha256 = hash.digest('hex');
        if (row.expected_sha256 && row.expected_sha256 !== sha256) {
          throw new Refused(`The bytes have SHA-256 ${sha256}, not ${row.expected_sha256} as declared.`);
        }
        const changes = { status: 'ready', content_type: type, sha256, storage_key: key, updated_at: now() } as const;
        // An image's variants are made once, in the background, by a job that exists exactly when the image is ready.
        const readied = await db.transaction().execute(async (trx) => {
          const done = await store.updateWhilePending(trx, id, changes);
          if (done && row.purpose === 'image') await variants.queue(trx, id);
          return done;
        });
        if (readied) return toAsset({ ...row, ...changes });
        throw errors.conflict('Another upload of this asset finished first.');
      } catch (error) {
        // Bytes that did not make the asset ready are nobody's.
        if (stored) await blobs.delete(key);
        if (error instanceof Refused) throw await fail(row, error);
        throw error;
      }
    },

    /**
     * Checks that `id` names a ready asset of one of `purposes`, for the field of another area that refers to it;
     * a 400 naming `field` otherwise.
     */
    async requireReady(field: string, id: string, purposes: readonly Purpose[]) {
      const row = await store.find(db, id);
      const problem = !row
        ? `No asset ${id}; upload one first (POST /api/v1/storage/assets).`
        : row.status !== 'ready'
          ? `Asset ${id} is ${row.status}, not ready.`
          : !purposes.includes(row.purpose)
            ? `Asset ${id} is a ${row.purpose}; this needs ${purposes.join(' or ')}.`
            : undefined;
      if (problem) throw errors.invalidRequest(`${field}: ${problem}`, [{ field, code: 'asset', message: problem }]);
    },

    /** Signed URLs of lesson media, with their expiry, for a caller already judged entitled to see them. */
    signedUrl: (id: string) => urls.signedUrl(id, clock.now()),
    publicUrl: (id: string) => urls.publicUrl(id),

    /**
     * The asset behind a /media address, if it may be served to whoever holds that address: a ready public asset to
     * anyone; any other ready asset only with a genuine, unexpired signature. Forged or unknown: 404; expired: 403.
     */
    async servable(id: string, signed: { expires?: string; signature?: string }) {
      const row = /^ast_[0-9a-z]{26}$/.test(id) ? await store.find(db, id) : undefined;
      if (row?.status !== 'ready' || !row.storage_key) throw errors.notFound('file');
      if (!PURPOSES[row.purpose].public || signed.signature !== undefined) {
        const verdict =
          signed.expires !== undefined && signed.signature !== undefined
            ? urls.check(id, signed.expires, signed.signature, clock.now())
            : 'forged';
        if (verdict === 'forged') throw errors.notFound('file');
        if (verdict === 'expired') {
          throw errors.accessDenied('This link has expired; open the page that gave it again for a new one.');
        }
      }
      return {
        key: row.storage_key,
        filename: row.filename,
        contentType: row.content_type,
        byteSize: Number(row.byte_size),
        sha256: row.sha256 ?? '',
        public: PURPOSES[row.purpose].public,
        attachment: row.purpose === 'download',
        /** How long a cache may keep the answer: a year for public assets (an id's bytes never change), else until the link expires. */
        freshForSeconds: PURPOSES[row.purpose].public
          ? 31_536_000
          : Math.max(0, Number(signed.expires) - Math.floor(clock.now().getTime() / 1000)),
      };
    },

    open: (key: string, range?: { start: number; end: number }) => blobs.get(key, range),

    /** The uploaded images among `ids` as pages show them: size, placeholder and variants (once they are made). */
    images: variants.images,
    /** A variant of an image to serve, by the name its address gives; undefined for none. */
    variant: variants.variant,
    /** Queues the variants of images uploaded before variants existed; run once at start. */
    queueMissingVariants: variants.queueMissing,
    /** A file made from the school's data (a share image), made once and kept under `name` in the blob store. */
    keepDerived: derived.keep,

    /** The bytes of a ready image, to draw from (a share image crops a course's cover); undefined for any other. */
    async imageBytes(id: string): Promise<Buffer | undefined> {
      const row = await store.find(db, id);
      if (row?.purpose !== 'image' || row.status !== 'ready' || !row.storage_key) return undefined;
      return buffer(await blobs.get(row.storage_key));
    },
  };
}

export type StorageService = ReturnType<typeof storageService>;
