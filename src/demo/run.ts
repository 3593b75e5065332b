import { ConfigError, loadConfig } from '../config.ts';
import { connectDatabase } from '../db/connect.ts';
import { configuredBlobStore } from '../storage/configured-blob-store.ts';
import { DemoRefused, type DemoResult, seedDemoSchool } from './seed.ts';

/**
 * What `npm run demo` runs (main.ts loads it): fills the configured, empty database with a demo school and prints how
 * to sign in.
 */

function report(result: DemoResult, baseUrl: string): string {
  const { counts } = result;
  const width = Math.max(...result.accounts.map((a) => a.email.length));
  const lines = result.accounts.map(
    (a) => `  ${a.role.padEnd(8)} ${a.email.padEnd(width)}  ${a.password ?? '(your password from first-run setup)'}`,
  );
  return [
    `The demo school "${result.schoolName}" is ready: ${counts.courses} courses (${counts.published} published, ` +
      `${counts.courses - counts.published} drafts), ${counts.lecturers} lecturers, ${counts.pages} pages, ` +
      `${counts.posts} posts and ${counts.comments} comments, a membership plan, a digital product, the coupon WELCOME10, ${counts.events} upcoming events and a question form on the FAQ page.`,
    '',
    `Start the school with \`npm start\` (same settings; add PAYMENTS_PROVIDER=test to try buying with the built-in test payment page), then sign in at ${baseUrl}/signin as:`,
    '',
    ...lines,
    '',
    'The passwords are shown only this once: keep them somewhere safe.',
    '',
  ].join('\n');
}

let config: ReturnType<typeof loadConfig>;
try {
  config = loadConfig(process.env);
} catch (error) {
  if (error instanceof ConfigError) {
    process.stderr.write(`lyceum demo: ${error.message}\n`);
    process.exit(2);
  }
  throw error;
}

const database = connectDatabase(config.database, { poolSize: 2 });
try {
  await database.migrate();
  // The demo's files go where the school keeps uploads: its bucket when one is set, else STORAGE_DIR.
  const say = (details: object, message: string) =>
    process.stderr.write(`lyceum demo: ${message} ${JSON.stringify(details)}\n`);
  const blobs = await configuredBlobStore(config, { warn: say, error: say });
  process.stdout.write(report(await seedDemoSchool(database.db, { config, blobs }), config.BASE_URL));
} catch (error) {
  process.exitCode = 1;
  if (error instanceof DemoRefused) process.stderr.write(`lyceum demo: ${error.message}\n`);
  else process.stderr.write(`lyceum demo: failed: ${(error as Error).message}\n`);
} finally {
  await database.close();
}
