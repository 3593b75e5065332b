import type { Adapter, AdapterPayload } from 'oidc-provider';
import Provider, { errors } from 'oidc-provider';
import { preparedQuery } from '../db/prepared-query.ts';
import type { Db, Executor } from '../db/tables.ts';
import { sha256 } from '../security/tokens.ts';
import type { Clock } from '../time/clock.ts';
import { SHORT_LIVED_MODELS, type ShortLivedStore } from './short-lived-store.ts';

/**
 * Grant and Client ids are internal or public identifiers, not bearer secrets, so they are stored as they are (and
 * tokens can be joined to their grant); every other id is a secret and is stored as its SHA-256.
 */
export const storedId = (model: string, id: string) => (model === 'Grant' || model === 'Client' ? id : sha256(id));

const STARTED = Symbol('lyceum.requestStartedAt');
const CLIENT_CACHE_MS = 60_000;

/** Remembers, on the raw request, when (by the server's clock, in ms) the server began handling it (see `isReplay`). */
export function markRequestStart(raw: object, at: number) {
  (raw as Record<symbol, number>)[STARTED] = at;
}

/**
 * Whether a consumed code or refresh token is being replayed (and its grant must be revoked) or merely presented
 * twice at about the same time, as a client retrying on a timeout or two tabs refreshing at once do. Within
 * `graceMs` of its consumption the second presentation only gets invalid_grant and the first one's tokens stand;
 * after it, oidc-provider treats it as a replay and revokes the whole grant.
 */
function isReplay(consumedAtMs: number, graceMs: number, clock: Clock): boolean {
  const started = (Provider.ctx?.req as unknown as Record<symbol, unknown> | undefined)?.[STARTED];
  const now = typeof started === 'number' ? started : clock.now().getTime();
  return consumedAtMs < now - graceMs;
}

/** Deletes every token of a grant and the grant itself, in one statement. */
export async function revokeGrant(ex: Executor, grantId: string): Promise<void> {
  await ex
    .deleteFrom('oauth_models')
    .where((eb) => eb.or([eb('grant_id', '=', grantId), eb.and([eb('model', '=', 'Grant'), eb('id', '=', grantId)])]))
    .execute();
}

/** Revokes every grant a person has given (each with its tokens): their access ends with their account's. */
export async function revokeGrantsOf(ex: Executor, userId: string): Promise<void> {
  const grants = await ex
    .selectFrom('oauth_models')
    .select('id')
    .where('model', '=', 'Grant')
    .where('account_id', '=', userId)
    .execute();
  for (const grant of grants) await revokeGrant(ex, grant.id);
}

/**
 * oidc-provider's storage on Kysely. Token rows are keyed by the SHA-256 of the id and the raw id (`jti`) is never
 * stored, so the table holds no usable secret. `consume` is a conditional update: of two concurrent exchanges of one code or
 * refresh token exactly one wins; the loser gets invalid_grant and the grant is revoked, as a replay would be.
 */
export function kyselyAdapterFactory(deps: {
  db: Db;
  clock: Clock;
  reuseGraceMs: number;
  onRevoke: () => void;
  /** Where short-lived records go instead of SQL (short-lived-store.ts), when the deployment has such a place. */
  shortLived?: ShortLivedStore;
}) {
  const { db, clock } = deps;
  // Registered clients never change (there is no client management endpoint) and are only ever deleted by
  // housekeeping, after a day unused: each is read once a minute at most, not several times per authorization.
  const clients = new Map<string, { payload: AdapterPayload | undefined; until: number }>();
  // Clients known to have had a grant: the "first use" mark is written once, not on every grant.
  const used = new Set<string>();
  const q = {
    find: preparedQuery(db, (p) =>
      db
        .selectFrom('oauth_models')
        .select(['payload', 'consumed_at', 'expires_at'])
        .where('model', '=', p('model'))
        .where('id', '=', p('id')),
    ),
    upsert: preparedQuery(db, (p) => {
      const row = {
        payload: p('payload'),
        grant_id: p('grant_id'),
        uid: p('uid'),
        account_id: p('account_id'),
        client_id: p('client_id'),
        expires_at: p('expires_at'),
      };
      return db
        .insertInto('oauth_models')
        .values({ model: p('model'), id: p('id'), ...row, consumed_at: p('consumed_at'), created_at: p('created_at') })
        .onConflict((oc) => oc.columns(['model', 'id']).doUpdateSet(row));
    }),
    consume: preparedQuery(db, (p) =>
      db
        .updateTable('oauth_models')
        .set({ consumed_at: p('now') })
        .where('model', '=', p('model'))
        .where('id', '=', p('id'))
        .where('consumed_at', 'is', null),
    ),
  };
  return (model: string): Adapter => {
    if (deps.shortLived && SHORT_LIVED_MODELS.has(model)) return shortLivedAdapter(model, deps.shortLived, deps);
    const key = (id: string) => storedId(model, id);
    const adapter = sqlAdapter(model, key);
    if (model !== 'Client') return adapter;
    return {
      ...adapter,
      async find(id: string) {
        // A client staff blocked is not found at all: it can neither authorize nor get tokens (invalid_client). Read
        // every time, not cached, so a block takes effect at once on every instance.
        const blocked = await db
          .selectFrom('blocked_clients')
          .select('client_id')
          .where('client_id', '=', id)
          .executeTakeFirst();
        if (blocked) return undefined;
        const now = clock.now().getTime();
        const cached = clients.get(id);
        if (cached && cached.until > now) return cached.payload;
        const payload = (await adapter.find(id)) ?? undefined;
        if (clients.size >= 10_000) clients.clear();
        clients.set(id, { payload, until: now + CLIENT_CACHE_MS });
        return payload;
      },
      async upsert(id: string, payload: AdapterPayload, expiresIn?: number) {
        clients.delete(id);
        await adapter.upsert(id, payload, expiresIn);
      },
      async destroy(id: string) {
        clients.delete(id);
        await adapter.destroy(id);
      },
    };
  };

  function sqlAdapter(model: string, key: (id: string) => string): Adapter {
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
        await q.upsert({ model, id: key(id), ...row, consumed_at: null, created_at: now.toISOString() });
        if (model === 'Grant' && payload.clientId && !used.has(payload.clientId)) {
          // A client is "used" once a grant was ever made for it (consumed_at doubles as first use on Client rows);
          // housekeeping removes only clients never used within a day.
          await db
            .updateTable('oauth_models')
            .set({ consumed_at: now.toISOString() })
            .where('model', '=', 'Client')
            .where('id', '=', payload.clientId)
            .where('consumed_at', 'is', null)
            .execute();
          if (used.size >= 10_000) used.clear();
          used.add(payload.clientId);
        }
      },

      async find(id: string) {
        const [row] = (await q.find({ model, id: key(id) })).rows;
        if (!row) return undefined;
        if (row.expires_at && row.expires_at <= clock.now().toISOString()) return undefined;
        const payload = JSON.parse(row.payload) as AdapterPayload;
        return {
          ...payload,
          ...(model === 'Client' ? {} : { jti: id }),
          ...(row.consumed_at && model !== 'Client' && isReplay(Date.parse(row.consumed_at), deps.reuseGraceMs, clock)
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
        const result = await q.consume({ now: clock.now().toISOString(), model, id: key(id) });
        if (Number(result.numAffectedRows) === 1) return;
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
  }
}

/** The same contract as the SQL adapter above, on a short-lived store: hashed ids, no `jti` kept, one consumer wins. */
function shortLivedAdapter(
  model: string,
  store: ShortLivedStore,
  deps: { clock: Clock; reuseGraceMs: number },
): Adapter {
  const key = (id: string) => storedId(model, id);
  return {
    async upsert(id: string, payload: AdapterPayload, expiresIn?: number) {
      const { jti: _jti, ...stored } = payload;
      await store.set(model, key(id), stored, expiresIn ?? 3600);
    },
    async find(id: string) {
      const record = await store.get(model, key(id));
      if (!record) return undefined;
      const replayed = record.consumedAt !== undefined && isReplay(record.consumedAt, deps.reuseGraceMs, deps.clock);
      return {
        ...record.payload,
        jti: id,
        ...(replayed ? { consumed: Math.floor((record.consumedAt as number) / 1000) } : {}),
      };
    },
    findByUid: (uid: string) => store.getByUid(model, uid),
    async findByUserCode() {
      return undefined;
    },
    async consume(id: string) {
      if (await store.consume(model, key(id), deps.clock.now().getTime())) return;
      throw new errors.InvalidGrant(`${model} already used`);
    },
    destroy: (id: string) => store.delete(model, key(id)),
    revokeByGrantId: (grantId: string) => store.deleteByGrant(model, grantId),
  };
}
