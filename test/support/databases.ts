import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';

export type { Engine } from '../../src/db/tables.ts';

import type { Engine } from '../../src/db/tables.ts';

/** SQLite always; PostgreSQL too whenever TEST_DATABASE_URL is set (CI sets it). */
export const engines: Engine[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

/**
 * A fresh, empty database for one test: a new SQLite file, or a new PostgreSQL schema selected through the
 * connection's search_path, so tests never see each other's rows.
 */
export async function freshDatabaseUrl(engine: Engine): Promise<string> {
  if (engine === 'sqlite') return join(mkdtempSync(join(tmpdir(), 'lyceum-test-')), 'lyceum.sqlite');
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL is not set');
  const schema = `t_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    await client.query(`create schema ${schema}`);
  } finally {
    await client.end();
  }
  const url = new URL(base);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
}
