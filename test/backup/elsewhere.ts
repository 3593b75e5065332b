import pg from 'pg';
import { freshDatabaseUrl } from '../support/databases.ts';

/**
 * Where a restored school's database goes: a new SQLite file, or for PostgreSQL a database of its own (made here,
 * dropped after), working in the same schema as the backed-up one, as a restore on another server would.
 */
export async function elsewhere(engine: 'sqlite' | 'postgres', sourceUrl: string) {
  if (engine === 'sqlite') return { url: await freshDatabaseUrl('sqlite'), drop: async () => {} };
  const name = `lyceum_restore_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const target = new URL(sourceUrl);
  target.pathname = `/${name}`;
  return {
    url: target.toString(),
    async drop() {
      const again = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await again.connect();
      await again.query(`drop database if exists ${name} with (force)`);
      await again.end();
    },
  };
}
