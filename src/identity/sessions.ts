import type { Clock } from '../db/clock.ts';
import type { Db } from '../db/tables.ts';
import { randomToken, sha256 } from '../security/tokens.ts';
import type { User } from './schema.ts';
import type { UsersStore } from './users-store.ts';

/** Browser sessions are rows keyed by the SHA-256 of the cookie's secret, so sign-out and password changes end them. */
export function sessionService(deps: { db: Db; clock: Clock; users: UsersStore; ttlHours: number }) {
  const { db, clock, users } = deps;
  const touchEveryMs = 5 * 60_000;
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

    async resolve(token: string): Promise<{ sessionId: string; user: User; createdAt: string } | undefined> {
      const id = sha256(token);
      const session = await db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
      const now = clock.now();
      if (!session || session.expires_at <= now.toISOString()) return undefined;
      const user = await users.findById(db, session.user_id);
      if (user?.status !== 'active') return undefined;
      if (now.getTime() - Date.parse(session.last_seen_at) > touchEveryMs) {
        await db.updateTable('sessions').set({ last_seen_at: now.toISOString() }).where('id', '=', id).execute();
      }
      return { sessionId: id, user, createdAt: session.created_at };
    },

    async destroy(token: string): Promise<void> {
      await db.deleteFrom('sessions').where('id', '=', sha256(token)).execute();
    },

    async destroyAllForUser(userId: string, exceptSessionId?: string): Promise<void> {
      let query = db.deleteFrom('sessions').where('user_id', '=', userId);
      if (exceptSessionId) query = query.where('id', '!=', exceptSessionId);
      await query.execute();
    },

    async purgeExpired(): Promise<void> {
      await db.deleteFrom('sessions').where('expires_at', '<=', clock.now().toISOString()).execute();
    },
  };
}

export type SessionService = ReturnType<typeof sessionService>;
