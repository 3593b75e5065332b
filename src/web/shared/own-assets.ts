import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** A file served under /assets for a year: its URL carries a version, so a new one is a new URL. */
export type OwnAsset = { body: Buffer; type: string; href: string };

const LONG_CACHE = 'public, max-age=31536000, immutable';

/** A script or stylesheet of the school's own pages, from src/web/client, under a versioned /assets URL. */
export function ownAsset(file: string, type: string): OwnAsset {
  return fileAsset(new URL(`../client/${file}`, import.meta.url), file, type);
}

/** A file (one of a package's, such as pdf.js) served as `/assets/<name>`, versioned like the school's own. */
export function fileAsset(file: URL, name: string, type: string): OwnAsset {
  const body = readFileSync(file);
  const version = createHash('sha256').update(body).digest('base64url').slice(0, 12);
  return { body, type, href: `/assets/${name}?v=${version}` };
}

/** Serves each asset at its path (the version in the query string only busts caches). */
export function serveAssets(app: FastifyInstance, assets: OwnAsset[]) {
  for (const asset of assets) {
    app.get(asset.href.split('?')[0] as string, { config: { public: true } }, async (_request, reply: FastifyReply) =>
      reply.type(asset.type).header('cache-control', LONG_CACHE).send(asset.body),
    );
  }
}
