import type { Db } from '../db/tables.ts';
import { revokeGrant } from './adapter.ts';
import { visibleClientName } from './registration.ts';

export type ConnectedApp = {
  client_id: string;
  client_name: string;
  scopes: string[];
  granted_at: string;
};

type GrantPayload = { iat?: number; openid?: { scope?: string }; resources?: Record<string, string> };

/** The apps a user has granted access to (one entry per client, all of its grants merged), and their revocation. */
export function connectedAppsService(deps: { db: Db; onRevoke: () => void }) {
  const { db } = deps;
  return {
    async list(userId: string): Promise<ConnectedApp[]> {
      const rows = await db
        .selectFrom('oauth_models as g')
        .leftJoin('oauth_models as c', (join) => join.onRef('c.id', '=', 'g.client_id').on('c.model', '=', 'Client'))
        .select(['g.client_id', 'g.payload', 'g.created_at', 'c.payload as client_payload'])
        .where('g.model', '=', 'Grant')
        .where('g.account_id', '=', userId)
        .orderBy('g.created_at', 'desc')
        .execute();
      const apps = new Map<string, ConnectedApp>();
      for (const row of rows) {
        if (!row.client_id) continue;
        const grant = JSON.parse(row.payload) as GrantPayload;
        const client = row.client_payload ? (JSON.parse(row.client_payload) as { client_name?: string }) : {};
        const scopes = [grant.openid?.scope ?? '', ...Object.values(grant.resources ?? {})]
          .flatMap((s) => s.split(' '))
          .filter(Boolean);
        const app = apps.get(row.client_id) ?? {
          client_id: row.client_id,
          client_name: visibleClientName(client.client_name, row.client_id),
          scopes: [],
          granted_at: row.created_at,
        };
        app.scopes = [...new Set([...app.scopes, ...scopes])].sort();
        apps.set(row.client_id, app);
      }
      return [...apps.values()];
    },

    /** Ends every grant the user gave the client, and with them every code and token, at once. */
    async revoke(userId: string, clientId: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        const grants = await trx
          .selectFrom('oauth_models')
          .select('id')
          .where('model', '=', 'Grant')
          .where('account_id', '=', userId)
          .where('client_id', '=', clientId)
          .execute();
        for (const grant of grants) await revokeGrant(trx, grant.id);
        deps.onRevoke();
        return grants.length > 0;
      });
    },
  };
}

export type ConnectedAppsService = ReturnType<typeof connectedAppsService>;
