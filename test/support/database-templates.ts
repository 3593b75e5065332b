import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { loadConfig } from '../../src/config.ts';
import { connectDatabase } from '../../src/db/connect.ts';
import { loadSigningKeys } from '../../src/oauth/keys.ts';
import { loadOrCreateSecret } from '../../src/security/server-secrets.ts';
import { randomToken } from '../../src/security/tokens.ts';
import { systemClock } from '../../src/time/clock.ts';
import { type Engine, freshDatabaseUrl } from './databases.ts';

/**
 * A school's database as the server leaves it before its first request — migrated, with the secrets it keeps — made
 * once per run and copied for each test: migrating PostgreSQL costs ~0.3 s and the RSA signing key ~0.1–0.5 s of CPU,
 * on each of several hundred server starts. `npm test`'s global setup makes the templates and publishes where they are
 * in the environment; a test file run alone makes its own on first use.
 */
const SQLITE_TEMPLATE = 'LYCEUM_TEST_SQLITE_TEMPLATE';
const POSTGRES_TEMPLATE = 'LYCEUM_TEST_POSTGRES_TEMPLATE';
/** What the PostgreSQL script calls its schema; replaced by each copy's own. */
const SCHEMA_PLACEHOLDER = 'lyceum_template_schema';

const run = promisify(execFile);

/** Migrates an empty database and stores the secrets a server makes at its first start (server.ts). */
async function prepare(url: string): Promise<void> {
  const database = connectDatabase(loadConfig({ DATABASE_URL: url }).database);
  try {
    await database.migrate();
    for (const name of ['cookie_key', 'oidc_cookie_key'])
      await loadOrCreateSecret(database.db, systemClock, name, () => randomToken(32));
    await loadSigningKeys(database.db, systemClock);
  } finally {
    await database.close();
  }
}

async function sqliteTemplate(): Promise<string> {
  const url = await freshDatabaseUrl('sqlite');
  // Closing the last connection checkpoints the WAL into the file, so the one file is the whole database.
  await prepare(url);
  return url;
}

/** The schema and rows of a prepared schema as one SQL script (pg_dump), its schema's name a placeholder. */
async function postgresTemplate(): Promise<string | undefined> {
  const url = await freshDatabaseUrl('postgres');
  await prepare(url);
  const schema = new URL(url).searchParams.get('options')?.replace('-c search_path=', '') ?? '';
  const base = new URL(url);
  base.searchParams.delete('options');
  let dump: string;
  try {
    ({ stdout: dump } = await run(
      'pg_dump',
      ['--schema-only', '--no-owner', '--no-privileges', '--schema', schema, base.toString()],
      { maxBuffer: 64 * 1024 * 1024 },
    ));
    const { stdout: rows } = await run(
      'pg_dump',
      ['--data-only', '--inserts', '--no-owner', '--schema', schema, base.toString()],
      { maxBuffer: 64 * 1024 * 1024 },
    );
    dump += rows;
  } catch {
    // Without pg_dump (no PostgreSQL client tools) each test migrates its own schema, as before.
    return undefined;
  } finally {
    await dropSchema(base.toString(), schema);
  }
  const script = dump
    .split('\n')
    // The dump's own session settings (search_path '' among them) and its CREATE SCHEMA: the copy's schema exists.
    .filter((line) => !/^(SET |SELECT pg_catalog\.set_config|CREATE SCHEMA |\\)/.test(line))
    .join('\n')
    .replaceAll(`${schema}.`, `${SCHEMA_PLACEHOLDER}.`);
  const file = join(mkdtempSync(join(tmpdir(), 'lyceum-template-')), 'postgres.sql');
  writeFileSync(file, script);
  return file;
}

async function dropSchema(url: string, schema: string) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`drop schema ${schema} cascade`);
  } finally {
    await client.end();
  }
}

/** Makes the run's templates and publishes them to every test process (npm test's global setup). */
export async function makeDatabaseTemplates(): Promise<void> {
  process.env[SQLITE_TEMPLATE] = await sqliteTemplate();
  if (process.env.TEST_DATABASE_URL) {
    const script = await postgresTemplate();
    if (script) process.env[POSTGRES_TEMPLATE] = script;
  }
}

const madeHere = new Map<Engine, Promise<string | undefined>>();

/** This run's template for the engine: the global setup's, else one made by this process on first use. */
function templateOf(engine: Engine): Promise<string | undefined> {
  const published = process.env[engine === 'sqlite' ? SQLITE_TEMPLATE : POSTGRES_TEMPLATE];
  if (published) return Promise.resolve(published);
  let made = madeHere.get(engine);
  if (!made) {
    made = engine === 'sqlite' ? sqliteTemplate() : postgresTemplate();
    madeHere.set(engine, made);
  }
  return made;
}

/** A new database holding what a server makes at its first start: the copy of the run's template. */
export async function preparedDatabaseUrl(engine: Engine): Promise<string> {
  const template = await templateOf(engine);
  const url = await freshDatabaseUrl(engine);
  if (!template) return url;
  if (engine === 'sqlite') {
    copyFileSync(template, url);
    return url;
  }
  const schema = new URL(url).searchParams.get('options')?.replace('-c search_path=', '') ?? '';
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(readScript(template).replaceAll(`${SCHEMA_PLACEHOLDER}.`, `${schema}.`));
  } finally {
    await client.end();
  }
  return url;
}

const scripts = new Map<string, string>();
const readScript = (file: string) => {
  let text = scripts.get(file);
  if (text === undefined) {
    text = readFileSync(file, 'utf8');
    scripts.set(file, text);
  }
  return text;
};
