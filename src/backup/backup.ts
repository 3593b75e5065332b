import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import type { Config } from '../config.ts';
import { connectDatabase } from '../db/connect.ts';
import type { Clock } from '../time/clock.ts';
import { BackupError } from './backup-error.ts';
import type { Manifest } from './manifest.ts';
import { STORED, storagePlace, withBackupPlace } from './open-place.ts';
import { type BackupPlace, type BackupWrite, fileSource } from './place.ts';

const run = promisify(execFile);

/** The URL of a PostgreSQL database without its `options` (pg_dump is told the schema itself). */
export const bareUrl = (url: string) => {
  const bare = new URL(url);
  bare.searchParams.delete('options');
  return bare.toString();
};

/**
 * Runs pg_dump or pg_restore on a database: its password goes in the tool's environment (PGPASSWORD), never on a
 * command line other users can read; a failure is told in the tool's own words, never with the command line.
 */
export async function pgTool(command: 'pg_dump' | 'pg_restore', url: string, args: string[]) {
  const target = new URL(bareUrl(url));
  const password = decodeURIComponent(target.password);
  target.password = '';
  try {
    return await run(command, [...args, `--dbname=${target}`], {
      env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    const said = String((error as { stderr?: string }).stderr ?? '').trim();
    throw new BackupError(`${command} failed: ${said || `exit code ${(error as { code?: unknown }).code}`}`);
  }
}

/** Runs `work` on every item, `width` at a time. */
async function inTurns<T>(items: T[], width: number, work: (item: T) => Promise<void>) {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
}

/**
 * A consistent backup of a school while it serves, into an empty or new folder or bucket prefix (`where`: a path, or
 * `s3://bucket/prefix`): the database through its engine's own snapshot (SQLite's VACUUM INTO; pg_dump, one
 * repeatable-read transaction), then the uploaded files (which are written once and never changed, so a file the
 * snapshot names is there), from STORAGE_DIR or from the school's bucket alike, then manifest.json with every
 * file's SHA-256, last. The database holds the server's secrets, so sessions and tokens stay valid after a restore.
 */
export async function makeBackup(
  config: Config,
  where: string | BackupPlace,
  deps: { clock: Clock; version: string },
): Promise<Manifest> {
  return withBackupPlace(config, where, async (place) => {
    const write = await place.write();
    try {
      const manifest = await backUp(config, write, deps);
      await write.finish(`${JSON.stringify(manifest, null, 2)}\n`);
      return manifest;
    } catch (error) {
      await write.abandon();
      throw error;
    }
  });
}

async function backUp(config: Config, write: BackupWrite, deps: { clock: Clock; version: string }) {
  const database = connectDatabase(config.database, { poolSize: 1 });
  try {
    const migrations = (
      await sql<{ name: string }>`select name from kysely_migration order by name`.execute(database.db)
    ).rows.map((r) => r.name);
    const secrets = (await database.db.selectFrom('server_secrets').select('name').orderBy('name').execute()).map(
      (r) => r.name,
    );
    let schema: string | null = null;
    let extensions: Manifest['extensions'] = [];
    let snapshot: string;
    if (config.database.engine === 'sqlite') {
      snapshot = join(write.scratch, 'database.sqlite');
      // VACUUM INTO copies the database as one read transaction sees it: a consistent snapshot that writers (in WAL
      // mode) do not wait for. The online backup API restarts whenever another connection writes, so under steady
      // writes it never ends.
      const source = new DatabaseSync(config.database.path, { readOnly: true, timeout: 5000 });
      try {
        source.prepare('vacuum into ?').run(snapshot);
      } finally {
        source.close();
      }
    } else {
      snapshot = join(write.scratch, 'database.pgdump');
      schema = (await sql<{ s: string }>`select current_schema() as s`.execute(database.db)).rows[0]?.s ?? 'public';
      // Extensions live outside the dumped schema (pg_trgm in public), yet its indexes name them.
      extensions = (
        await sql<{ name: string; schema: string }>`select e.extname as name, n.nspname as schema
          from pg_extension e join pg_namespace n on n.oid = e.extnamespace where e.extname <> 'plpgsql'`.execute(
          database.db,
        )
      ).rows;
      await pgTool('pg_dump', config.database.url, [
        '--format=custom',
        '--no-owner',
        '--no-privileges',
        `--schema=${schema}`,
        `--file=${snapshot}`,
      ]);
    }
    const files: Manifest['files'] = [];
    const dbFile = snapshot.slice(write.scratch.length + 1);
    files.push({ path: dbFile, ...(await write.put(dbFile, await fileSource(snapshot))) });

    // Read after the snapshot: every file it names is among these (uploads are never deleted while it runs).
    const uploads = new Map(
      (
        await database.db
          .selectFrom('assets')
          .select(['storage_key', 'content_type'])
          .where('status', '=', 'ready')
          .where('storage_key', 'is not', null)
          .execute()
      ).map((row) => [row.storage_key as string, row.content_type]),
    );
    const copied = new Set<string>();
    const stored = await storagePlace(config);
    try {
      // Every file the storage holds, listed after the snapshot too, so what the storage area makes of an upload
      // (image variants) is copied along, and no list of the school's tables has to be kept here.
      await inTurns((await stored.files()).sort(), 4, async (path) => {
        const source = await stored.source(path);
        if (!source) return;
        const key = `${STORED}/${path}`;
        copied.add(key);
        const type = source.contentType ?? uploads.get(key);
        files.push({
          path: `files/${key}`,
          ...(await write.put(`files/${key}`, source)),
          ...(type ? { content_type: type } : {}),
        });
      });
    } finally {
      await stored.close();
    }
    const missing = [...uploads.keys()].filter((key) => !copied.has(key)).sort();
    const storage: Manifest['storage'] = {
      ...(config.S3_BUCKET ? { kind: 's3', bucket: config.S3_BUCKET } : { kind: 'local' }),
      ...(missing.length ? { missing } : {}),
    };
    return {
      format: 1,
      lyceum: deps.version,
      made_at: deps.clock.now().toISOString(),
      engine: config.database.engine,
      schema,
      extensions,
      migrations,
      secrets,
      storage,
      files: files.sort((a, b) => (a.path < b.path ? -1 : 1)),
    } satisfies Manifest;
  } finally {
    await database.close();
  }
}
