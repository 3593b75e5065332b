import type { ImageFacts, Pictures } from './picture.ts';

/** Loads the facts of the pictures a page will show, by their addresses, in one query. */
export type PictureSource = (urls: readonly (string | null | undefined)[]) => Promise<Pictures>;

/** How many images' facts one instance keeps: a few hundred bytes each. */
const KEPT = 5000;

/**
 * The page's pictures from the storage area: the addresses that are the school's own uploads are looked up, the rest
 * (pictures elsewhere) have no facts. An image's facts never change once its variants are made, so they are kept in
 * this process; an image still waiting for its variants is asked about again on the next page.
 */
export function pictureSource(deps: {
  images: (ids: string[]) => Promise<Map<string, ImageFacts>>;
  /** The asset an address names, when it is the public address of one of the school's uploads. */
  assetOf: (url: string) => string | undefined;
}): PictureSource {
  const kept = new Map<string, ImageFacts>();
  const idOf = (url: string | null | undefined) => (url ? deps.assetOf(url) : undefined);
  return async (urls) => {
    const ids = [...new Set(urls.map(idOf).filter((id) => id !== undefined))];
    const missing = ids.filter((id) => !kept.has(id));
    if (missing.length) {
      for (const [id, facts] of await deps.images(missing)) {
        if (kept.size >= KEPT) kept.delete(kept.keys().next().value as string);
        kept.set(id, facts);
      }
    }
    return {
      facts: (url) => {
        const id = idOf(url);
        return id ? kept.get(id) : undefined;
      },
    };
  };
}
