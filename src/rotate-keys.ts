import { commandConfig } from './command-config.ts';
import { connectDatabase } from './db/connect.ts';
import { KEY_TIMES, rotateSigningKeys } from './oauth/keys.ts';
import { systemClock } from './time/clock.ts';

/**
 * `npm run rotate-keys`: one step of the ID-token signing key's rotation (oauth/keys.ts), which the instances also take
 * by themselves when SIGNING_KEY_ROTATE_DAYS is set (the default); `-- --now` begins a rotation before the key is due
 * (a key thought exposed). Every instance signs with a newly promoted key within a minute.
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
      said = `key ${step.kid} now signs; every instance moves onto it within a minute (the old key stays published for a day)`;
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
