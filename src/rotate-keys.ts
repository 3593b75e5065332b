import { commandConfig } from './command-config.ts';
import { connectDatabase } from './db/connect.ts';
import { KEY_TIMES, rotateSigningKeys } from './oauth/keys.ts';
import { systemClock } from './time/clock.ts';

/**
 * `npm run rotate-keys`: one step of the ID-token signing key's rotation (oauth/keys.ts), meant for a daily timer on
 * one machine; `-- --now` begins a rotation before the key is due (a key thought exposed). After a step that made a
 * new key the signing key, restart the instances one by one so they sign with it.
 */
const config = commandConfig();
const database = connectDatabase(config.database, { poolSize: 1 });
try {
  const step = await rotateSigningKeys(database.db, systemClock, { now: process.argv.includes('--now') });
  const minutes = KEY_TIMES.publishAheadMs / 60_000;
  let said: string;
  switch (step.did) {
    case 'published':
      said = `published a new signing key ${step.kid}; it can sign from ${step.signsFrom} (run this again then: clients caching the key set get ${minutes} minutes to see it first)`;
      break;
    case 'promoted':
      said = `key ${step.kid} now signs; restart the instances one by one so they use it (the old key stays published for a day)`;
      break;
    case 'waiting':
      said = `the new key ${step.kid} is published; it can sign from ${step.until}`;
      break;
    case 'nothing':
      said = `nothing to do: the next rotation is due ${step.nextRotation}`;
  }
  process.stdout.write(`${said}\n`);
} catch (error) {
  process.stderr.write(`lyceum: ${(error as Error).message}\n`);
  process.exitCode = 1;
} finally {
  await database.close();
}
