import { generateKeyPairSync, randomUUID } from 'node:crypto';
import type { JWK } from 'oidc-provider';
import type { Db } from '../db/tables.ts';
import { loadOrCreateSecret } from '../security/server-secrets.ts';
import type { Clock } from '../time/clock.ts';

/** The ID-token signing key (RS256, what every OIDC client accepts by default), made at first start and kept in the database. */
export async function loadSigningKeys(db: Db, clock: Clock): Promise<JWK[]> {
  const stored = await loadOrCreateSecret(db, clock, 'oidc_signing_keys', () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const jwk = privateKey.export({ format: 'jwk' });
    return JSON.stringify([{ ...jwk, kid: randomUUID(), use: 'sig', alg: 'RS256' }]);
  });
  return JSON.parse(stored) as JWK[];
}
