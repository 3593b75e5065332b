import { preparedQuery } from '../db/prepared-query.ts';
import type { Db, Executor } from '../db/tables.ts';
import { randomToken, sha256 } from '../security/tokens.ts';
import type { Clock } from '../time/clock.ts';
import type { User } from './schema.ts';

/**
 * The id a session is shown under: a hash of the stored key, so the list can name a session to end without handing
 * out what identifies it in the database.
 */
export const publicSessionId = (storedId: string) => `ses_${sha256(storedId).slice(0, 24)}`;

/** Browser sessions are rows keyed by the SHA-256 of the cookie's secret, so sign-out and password changes end them. */
export function sessionService(deps: { db: Db; clock: Clock; ttlHours: number }) {
  const { db, clock } = deps;
  const touchEveryMs = 5 * 60_000;
  const resolveQuery = preparedQuery(db, (p) =>
    db
      .selectFrom('sessions as s')
      .innerJoin('users as u', 'u.id', 's.user_id')
      .select([
        'u.id',
        'u.email',
        'u.name',
        'u.role',
        'u.status',
        'u.locale',
        'u.email_verified',
        'u.created_at',
        'u.updated_at',
        's.created_at as session_created_at',
        's.last_seen_at',
      ])
      .where('s.id', '=', p('id'))
      .where('s.expires_at', '>', p('now'))
      .where('u.status', '=', 'active'),
  );
  return {
    async create(userId: string): Promise<{ token: string; expiresAt: Date }> {
      const token = randomToken();
      const now = clock.now();
      const expiresAt = new Date(now.getTime() + deps.ttlHours * 3_600_000);
      await db
        .insertInto('sessions')
        .values({
          id: sha256(token),
          user_id: userId,
          created_at: now.toISOString(),
          last_seen_at: now.toISOString(),
          expires_at: expiresAt.toISOString(),
        })
        .execute();
      return { token, expiresAt };
    },

    /** The session and its user in one query: this runs on every page request. */
    async resolve(token: string): Promise<{ sessionId: string; user: User; createdAt: string } | undefined> {
      const id = sha256(token);
      const now = clock.now();
      const [row] = (await resolveQuery({ id, now: now.toISOString() })).rows;
      if (!row) return undefined;
      const { session_created_at: createdAt, last_seen_at: lastSeenAt, ...user } = row;
      if (now.getTime() - Date.parse(lastSeenAt) > touchEveryMs) {
        await db.updateTable('sessions').set({ last_seen_at: now.toISOString() }).where('id', '=', id).execute();
      }
      return { sessionId: id, user, createdAt };
    },

    async destroy(token: string): Promise<void> {
      await db.deleteFrom('sessions').where('id', '=', sha256(token)).execute();
    },

    async destroyAllForUser(userId: string, exceptSessionId?: string): Promise<void> {
      let query = db.deleteFrom('sessions').where('user_id', '=', userId);
      if (exceptSessionId) query = query.where('id', '!=', exceptSessionId);
      await query.execute();
    },

    /** A person's live browser sessions, newest first, each under its public id. */
    async listForUser(userId: string) {
      const rows = await db
        .selectFrom('sessions')
        .select(['id', 'created_at', 'last_seen_at', 'expires_at'])
        .where('user_id', '=', userId)
        .where('expires_at', '>', clock.now().toISOString())
        .orderBy('created_at', 'desc')
        .execute();
      return rows.map(({ id, ...row }) => ({ id: publicSessionId(id), ...row }));
    },

    /** Ends one session of the person by its public id; false when they have no such session. */
    async destroyForUser(userId: string, publicId: string): Promise<boolean> {
      const ids = (await db.selectFrom('sessions').select('id').where('user_id', '=', userId).execute()).map(
        (row) => row.id,
      );
      const id = ids.find((candidate) => publicSessionId(candidate) === publicId);
      if (!id) return false;
      await db.deleteFrom('sessions').where('id', '=', id).execute();
      return true;
    },

    /** Ends every session of the person inside the caller's transaction (an account deleted with everything else). */
    async destroyAllIn(ex: Executor, userId: string): Promise<void> {
      await ex.deleteFrom('sessions').where('user_id', '=', userId).execute();
    },

    async purgeExpired(): Promise<void> {
      await db.deleteFrom('sessions').where('expires_at', '<=', clock.now().toISOString()).execute();
    },
  };
}

export type SessionService = ReturnType<typeof sessionService>;
