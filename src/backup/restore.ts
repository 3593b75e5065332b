import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { promisify } from 'node:util';
import pg from 'pg';
import type { Config } from '../config.ts';
import { BackupError, bareUrl } from './backup.ts';
import { fileSum, MANIFEST, type Manifest } from './manifest.ts';

const run = promisify(execFile);

/** Runs a tool; when it fails, its own words (stderr) are the error's. */
async function runTold(command: string, args: string[]) {
  try {
    await run(command, args);
  } catch (error) {
    const said = String((error as { stderr?: string }).stderr ?? '').trim();
    throw new Error(`${command} failed: ${said || (error as Error).message}`);
  }
}

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

  if (config.database.engine === 'sqlite') {
    const { path } = config.database;
    if (sqliteHasTables(path))
      throw new BackupError(`The database ${path} is not empty: a backup is restored into an empty school only.`);
    await mkdir(dirname(path), { recursive: true });
    await cp(join(folder, 'database.sqlite'), path);
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
    const items = (await run('pg_restore', ['--list', dump], { maxBuffer: 64 * 1024 * 1024 })).stdout
      .split('\n')
      .filter((line) => !/^\d+; \d+ \d+ SCHEMA - /.test(line));
    const list = join(await mkdtemp(join(tmpdir(), 'lyceum-restore-')), 'items');
    await writeFile(list, items.join('\n'));
    await runTold('pg_restore', [
      '--no-owner',
      '--no-privileges',
      '--exit-on-error',
      '--single-transaction',
      `--use-list=${list}`,
      `--dbname=${bareUrl(config.database.url)}`,
      dump,
    ]);
  }
  if (restoresFiles && existsSync(join(folder, 'files')))
    await cp(join(folder, 'files'), config.STORAGE_DIR, { recursive: true });
  return manifest;
}
