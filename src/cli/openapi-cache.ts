import { join } from 'node:path';
import { CliFailure, EXIT } from './exit-codes.ts';
import { reach } from './oauth-client.ts';
import { type Operation, operationsOf } from './operations.ts';
import { cacheDir, type Env } from './paths.ts';
import { readJson, writePrivateFile } from './profiles.ts';

/** Bump when the derived shape changes, so old caches are rebuilt instead of misread. */
const FORMAT = 2;

type Cached = { format: number; etag: string; operations: Operation[] };

/**
 * A school's commands, derived from its /openapi.json and kept as commands.json in the school's cache folder with the
 * document's ETag. The derived tree, not the document, is kept: it is a few percent of the size, so a warm start
 * parses ~100 KB instead of ~2 MB. `warn` hears of operations left out (once a document: the tree is kept without them).
 */
export function commandCache(env: Env, baseUrl: string, warn: (line: string) => void) {
  const path = join(cacheDir(env, baseUrl), 'commands.json');
  const read = (): Cached | undefined => {
    const cached = readJson<Cached | undefined>(path, undefined);
    return cached?.format === FORMAT ? cached : undefined;
  };
  return {
    path,
    read,
    /**
     * Asks the school whether its document changed (If-None-Match); a new one is derived and stored. Resolves to the
     * operations when they changed, undefined when the cache is current (or the school cannot be reached while a
     * cache exists: the cached commands still work, and the command itself reports the failure).
     */
    async revalidate(cached = read()): Promise<Operation[] | undefined> {
      let response: Response;
      try {
        response = await reach(`${baseUrl}/openapi.json`, {
          headers: cached ? { 'if-none-match': cached.etag } : {},
          signal: AbortSignal.timeout(10_000),
        });
      } catch (error) {
        if (cached) return undefined;
        throw error;
      }
      if (response.status === 304 && cached) return undefined;
      if (!response.ok) {
        if (cached) return undefined;
        throw new CliFailure(EXIT.unavailable, `${baseUrl}/openapi.json answered ${response.status}.`);
      }
      const operations = operationsOf(await response.json(), warn);
      writePrivateFile(path, JSON.stringify({ format: FORMAT, etag: response.headers.get('etag') ?? '', operations }));
      return operations;
    },
  };
}
