import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import type { Config } from '../config.ts';
import { BackupError, bareUrl, pgTool } from './backup.ts';
import { fileSum, MANIFEST, type Manifest } from './manifest.ts';

/** The schema a PostgreSQL URL works in: its `search_path` option, else public. */
const schemaOfUrl = (url: string) =>
  /search_path=([^\s,]+)/.exec(new URL(url).searchParams.get('options') ?? '')?.[1] ?? 'public';

async function readManifest(folder: string): Promise<Manifest> {
  const text = await readFile(join(folder, MANIFEST), 'utf8').catch(() => undefined);
  if (text === undefined)
    throw new BackupError(`${folder} has no ${MANIFEST}: it is not a backup, or one that was cut off.`);
  const manifest = JSON.parse(text) as Manifest;
  if (manifest.format !== 1) throw new BackupError(`${folder} is a backup of an unknown format (${manifest.format}).`);
  return manifest;
}

/** Whether a SQLite file holds any table. */
function sqliteHasTables(path: string) {
  if (!existsSync(path)) return false;
  const db = new DatabaseSync(path, { readOnly: true });
  try {
    const row = db.prepare(`select count(*) as n from sqlite_master where type = 'table'`).get() as { n: number };
    return row.n > 0;
  } finally {
    db.close();
  }
}

/**
 * Restores a backup made by makeBackup into an empty school: every file is checked against the manifest first, then
 * the database and the uploaded files are put back. A school that already has tables or files is refused, never
 * overwritten. PostgreSQL restores into the schema the backup was made from, named by DATABASE_URL's search_path.
 */
export async function restoreBackup(config: Config, folder: string): Promise<Manifest> {
  const manifest = await readManifest(folder);
  for (const file of manifest.files) {
    // Only the backup's own files, inside its folder: a manifest naming ../anything is not one makeBackup wrote.
    if (!/^(database\.(sqlite|pgdump)|files\/.+)$/.test(file.path) || file.path.split('/').includes('..'))
      throw new BackupError(`The backup is damaged: its manifest names ${JSON.stringify(file.path)}.`);
    const sum = await fileSum(join(folder, file.path)).catch(() => undefined);
    if (!sum || sum.sha256 !== file.sha256 || sum.bytes !== file.bytes)
      throw new BackupError(`The backup is damaged: ${file.path} is ${sum ? 'not what was backed up' : 'missing'}.`);
  }
  if (manifest.engine !== config.database.engine)
    throw new BackupError(
      `This is a ${manifest.engine} backup and DATABASE_URL names ${config.database.engine}: restore it into ${manifest.engine}.`,
    );
  const restoresFiles = manifest.storage.kind === 'local';
  if (restoresFiles && existsSync(config.STORAGE_DIR)) {
    if ((await readdir(config.STORAGE_DIR)).length)
      throw new BackupError(`${config.STORAGE_DIR} is not empty: a backup is restored into an empty school only.`);
  }

  // Everything is put beside its place first and moved in at the end, so a restore that fails leaves the school as
  // empty as it found it, and can be run again.
  const staged = `${config.STORAGE_DIR}.restoring-${process.pid}`;
  const moves: (() => Promise<void>)[] = [];
  if (restoresFiles) {
    for (const file of manifest.files.filter((f) => f.path.startsWith('files/'))) {
      await mkdir(dirname(join(staged, file.path.slice('files/'.length))), { recursive: true });
      await cp(join(folder, file.path), join(staged, file.path.slice('files/'.length)));
    }
    moves.push(async () => {
      await rm(config.STORAGE_DIR, { recursive: true, force: true });
      await mkdir(staged, { recursive: true });
      await rename(staged, config.STORAGE_DIR);
    });
  }
  try {
    await restoreDatabase(config, folder, manifest, moves);
  } catch (error) {
    await rm(staged, { recursive: true, force: true });
    throw error;
  }
  for (const move of moves) await move();
  return manifest;
}

/** The database of a backup, restored (PostgreSQL, in one transaction) or staged to be moved in (SQLite). */
async function restoreDatabase(config: Config, folder: string, manifest: Manifest, moves: (() => Promise<void>)[]) {
  if (config.database.engine === 'sqlite') {
    const { path } = config.database;
    if (sqliteHasTables(path))
      throw new BackupError(`The database ${path} is not empty: a backup is restored into an empty school only.`);
    await mkdir(dirname(path), { recursive: true });
    await cp(join(folder, 'database.sqlite'), `${path}.restoring`);
    // Last of all: until the database is in place, the school is still empty.
    moves.push(async () => {
      for (const leftover of [path, `${path}-wal`, `${path}-shm`]) await rm(leftover, { force: true });
      await rename(`${path}.restoring`, path);
    });
  } else {
    const schema = schemaOfUrl(config.database.url);
    if (schema !== manifest.schema)
      throw new BackupError(
        `The backup is of schema ${manifest.schema}, and DATABASE_URL works in ${schema}: restore into a database whose search_path is ${manifest.schema}.`,
      );
    const client = new pg.Client({ connectionString: bareUrl(config.database.url) });
    await client.connect();
    try {
      const tables = await client.query<{ n: string }>(
        'select count(*) as n from information_schema.tables where table_schema = $1',
        [schema],
      );
      if (Number(tables.rows[0]?.n) > 0)
        throw new BackupError(`The schema ${schema} is not empty: a backup is restored into an empty school only.`);
      // The schema is made here (public exists already in a new database), and left out of the dump's items below.
      await client.query(`create schema if not exists ${pg.escapeIdentifier(schema)}`);
      for (const extension of manifest.extensions) {
        await client.query(`create schema if not exists ${pg.escapeIdentifier(extension.schema)}`);
        await client.query(
          `create extension if not exists ${pg.escapeIdentifier(extension.name)} with schema ${pg.escapeIdentifier(extension.schema)}`,
        );
      }
    } finally {
      await client.end();
    }
    const dump = join(folder, 'database.pgdump');
    const items = (await pgTool('pg_restore', config.database.url, ['--list', dump])).stdout
      .split('\n')
      .filter((line) => !/^\d+; \d+ \d+ SCHEMA - /.test(line));
    const list = join(await mkdtemp(join(tmpdir(), 'lyceum-restore-')), 'items');
    await writeFile(list, items.join('\n'));
    await pgTool('pg_restore', config.database.url, [
      '--no-owner',
      '--no-privileges',
      '--exit-on-error',
      '--single-transaction',
      `--use-list=${list}`,
      dump,
    ]);
  }
}
