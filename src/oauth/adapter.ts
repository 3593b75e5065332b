import type { Adapter, AdapterPayload } from 'oidc-provider';
import Provider, { errors } from 'oidc-provider';
import type { Clock } from '../db/clock.ts';
import type { Db, Executor } from '../db/tables.ts';
import { sha256 } from '../security/tokens.ts';

/**
 * Grant and Client ids are internal or public identifiers, not bearer secrets, so they are stored as they are (and
 * tokens can be joined to their grant); every other id is a secret and is stored as its SHA-256.
 */
export const storedId = (model: string, id: string) => (model === 'Grant' || model === 'Client' ? id : sha256(id));

const STARTED = Symbol('lyceum.requestStartedAt');

/** Remembers, on the raw request, when the server began handling it (see `consumedBeforeThisRequest`). */
export function markRequestStart(raw: object) {
  (raw as Record<symbol, number>)[STARTED] = Date.now();
}

/**
 * Whether a consumed code or refresh token is being replayed (and its grant must be revoked) or merely presented
 * twice at about the same time, as a client retrying on a timeout or two tabs refreshing at once do. Within
 * `graceMs` of its consumption the second presentation only gets invalid_grant and the first one's tokens stand;
 * after it, oidc-provider treats it as a replay and revokes the whole grant.
 */
function isReplay(consumedAt: string, graceMs: number): boolean {
  const started = (Provider.ctx?.req as unknown as Record<symbol, unknown> | undefined)?.[STARTED];
  const now = typeof started === 'number' ? started : Date.now();
  return Date.parse(consumedAt) < now - graceMs;
}

/** Deletes every token of a grant and the grant itself, in one statement. */
export async function revokeGrant(ex: Executor, grantId: string): Promise<void> {
  await ex
    .deleteFrom('oauth_models')
    .where((eb) => eb.or([eb('grant_id', '=', grantId), eb.and([eb('model', '=', 'Grant'), eb('id', '=', grantId)])]))
    .execute();
}

/**
 * oidc-provider's storage on Kysely. Token rows are keyed by the SHA-256 of the id and the raw id (`jti`) is never
 * stored, so the table holds no usable secret. `consume` is a conditional update: of two concurrent exchanges of one code or
 * refresh token exactly one wins; the loser gets invalid_grant and the grant is revoked, as a replay would be.
 */
export function kyselyAdapterFactory(deps: { db: Db; clock: Clock; reuseGraceMs: number; onRevoke: () => void }) {
  const { db, clock } = deps;
  return (model: string): Adapter => {
    const key = (id: string) => storedId(model, id);
    return {
      async upsert(id: string, payload: AdapterPayload, expiresIn?: number) {
        const now = clock.now();
        const { jti: _jti, ...stored } = payload;
        const row = {
          payload: JSON.stringify(stored),
          grant_id: payload.grantId ?? null,
          uid: payload.uid ?? null,
          account_id: payload.accountId ?? null,
          client_id: payload.clientId ?? (model === 'Client' ? id : null),
          expires_at: expiresIn ? new Date(now.getTime() + expiresIn * 1000).toISOString() : null,
        };
        await db
          .insertInto('oauth_models')
          .values({ model, id: key(id), ...row, consumed_at: null, created_at: now.toISOString() })
          .onConflict((oc) => oc.columns(['model', 'id']).doUpdateSet(row))
          .execute();
        if (model === 'Grant' && payload.clientId) {
          // A client is "used" once a grant was ever made for it (consumed_at doubles as first use on Client rows);
          // housekeeping removes only clients never used within a day.
          await db
            .updateTable('oauth_models')
            .set({ consumed_at: now.toISOString() })
            .where('model', '=', 'Client')
            .where('id', '=', payload.clientId)
            .where('consumed_at', 'is', null)
            .execute();
        }
      },

      async find(id: string) {
        const row = await db
          .selectFrom('oauth_models')
          .select(['payload', 'consumed_at', 'expires_at'])
          .where('model', '=', model)
          .where('id', '=', key(id))
          .executeTakeFirst();
        if (!row) return undefined;
        if (row.expires_at && row.expires_at <= clock.now().toISOString()) return undefined;
        const payload = JSON.parse(row.payload) as AdapterPayload;
        return {
          ...payload,
          ...(model === 'Client' ? {} : { jti: id }),
          ...(row.consumed_at && model !== 'Client' && isReplay(row.consumed_at, deps.reuseGraceMs)
            ? { consumed: Date.parse(row.consumed_at) / 1000 }
            : {}),
        };
      },

      async findByUid(uid: string) {
        const row = await db
          .selectFrom('oauth_models')
          .select(['payload', 'expires_at'])
          .where('model', '=', model)
          .where('uid', '=', uid)
          .executeTakeFirst();
        if (!row || (row.expires_at && row.expires_at <= clock.now().toISOString())) return undefined;
        return JSON.parse(row.payload) as AdapterPayload;
      },

      async findByUserCode() {
        return undefined;
      },

      async consume(id: string) {
        const now = clock.now().toISOString();
        const result = await db
          .updateTable('oauth_models')
          .set({ consumed_at: now })
          .where('model', '=', model)
          .where('id', '=', key(id))
          .where('consumed_at', 'is', null)
          .executeTakeFirst();
        if (Number(result.numUpdatedRows) === 1) return;
        // Lost a race with a concurrent exchange of the same code or refresh token: only the winner's tokens stand.
        // A later, sequential replay is seen as `consumed` by oidc-provider, which then revokes the whole grant.
        throw new errors.InvalidGrant(`${model} already used`);
      },

      async destroy(id: string) {
        await db.deleteFrom('oauth_models').where('model', '=', model).where('id', '=', key(id)).execute();
        if (model === 'AccessToken' || model === 'RefreshToken' || model === 'Grant') deps.onRevoke();
      },

      async revokeByGrantId(grantId: string) {
        await db.deleteFrom('oauth_models').where('model', '=', model).where('grant_id', '=', grantId).execute();
        deps.onRevoke();
      },
    };
  };
}
