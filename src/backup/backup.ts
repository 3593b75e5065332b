import { execFile } from 'node:child_process';
import { cp, mkdir, readdir, rename, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { DatabaseSync, backup as sqliteBackup } from 'node:sqlite';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import type { Config } from '../config.ts';
import { connectDatabase } from '../db/connect.ts';
import type { Clock } from '../time/clock.ts';
import { fileSum, MANIFEST, type Manifest } from './manifest.ts';

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

/** Every file under a folder, as paths relative to it; files being written (`.partial/`) are left out. */
async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)))
    .filter((path) => !path.startsWith('.partial'));
}

/**
 * A consistent backup of a school while it serves, into an empty or new folder: the database through its engine's
 * own snapshot (SQLite's VACUUM INTO; pg_dump, one repeatable-read transaction), then the uploaded files (which
 * are written once and never changed, so a file the snapshot names is there), then manifest.json with every file's
 * SHA-256. The database holds the server's secrets, so sessions and tokens stay valid after a restore.
 */
export async function makeBackup(config: Config, folder: string, deps: { clock: Clock; version: string }) {
  await mkdir(folder, { recursive: true });
  if ((await readdir(folder)).length) throw new BackupError(`${folder} is not empty: give a new or empty folder.`);
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
    if (config.database.engine === 'sqlite') {
      // VACUUM INTO copies the database as one read transaction sees it: a consistent snapshot that writers (in WAL
      // mode) do not wait for. The online backup API restarts whenever another connection writes, so under steady
      // writes it never ends.
      const source = new DatabaseSync(config.database.path, { readOnly: true, timeout: 5000 });
      try {
        source.prepare('vacuum into ?').run(join(folder, 'database.sqlite'));
      } finally {
        source.close();
      }
    } else {
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
        `--file=${join(folder, 'database.pgdump')}`,
      ]);
    }
    const storage: Manifest['storage'] = config.S3_BUCKET
      ? { kind: 's3', bucket: config.S3_BUCKET }
      : { kind: 'local' };
    if (storage.kind === 'local')
      for (const path of await filesUnder(config.STORAGE_DIR))
        await cp(join(config.STORAGE_DIR, path), join(folder, 'files', path));
    const files = await Promise.all(
      (await filesUnder(folder)).sort().map(async (path) => ({ path, ...(await fileSum(join(folder, path))) })),
    );
    const manifest: Manifest = {
      format: 1,
      lyceum: deps.version,
      made_at: deps.clock.now().toISOString(),
      engine: config.database.engine,
      schema,
      extensions,
      migrations,
      secrets,
      storage,
      files,
    };
    // Written whole, then named: a backup cut off before this point has no manifest and is never restored.
    await writeFile(join(folder, `${MANIFEST}.partial`), `${JSON.stringify(manifest, null, 2)}\n`);
    await rename(join(folder, `${MANIFEST}.partial`), join(folder, MANIFEST));
    return manifest;
  } finally {
    await database.close();
  }
}

/** A backup or restore that cannot be made as asked; its message says why and what to do. */
export class BackupError extends Error {}
