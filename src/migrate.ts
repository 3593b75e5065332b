import { commandConfig } from './command-config.ts';
import { connectDatabase, SchemaAheadError } from './db/connect.ts';

/**
 * `npm run migrate`: applies the pending migrations and exits, the step of a rolling upgrade that comes before any
 * instance of the new version takes traffic (with MIGRATE_ON_START=false). Migrations only add (expand, then contract
 * in a later release), so the instances of the version before go on serving while it runs. Exit 2 on a bad setting or
 * a database a newer version migrated; 1 when a migration fails (it rolls back on PostgreSQL).
 */
const config = commandConfig();
const database = connectDatabase(config.database, { poolSize: 1 });
try {
  const { pending } = await database.schema();
  await database.migrate();
  process.stdout.write(pending.length ? `applied: ${pending.join(', ')}\n` : 'the database schema is current\n');
} catch (error) {
  process.stderr.write(`lyceum: ${(error as Error).message}\n`);
  process.exitCode = error instanceof SchemaAheadError ? 2 : 1;
} finally {
  await database.close();
}
