import type { Executor } from '../../db/tables.ts';
import { containsText } from '../../db/text-match.ts';

/** The registered apps (oidc-provider's Client rows) with what staff need to judge them, and the sign-in log. */
export function securityStore() {
  const clients = (ex: Executor) =>
    ex
      .selectFrom('oauth_models as c')
      .leftJoin('blocked_clients as b', 'b.client_id', 'c.id')
      .where('c.model', '=', 'Client')
      .select([
        'c.id',
        'c.payload',
        'c.created_at',
        'b.blocked_at',
        (eb) =>
          eb
            .selectFrom('oauth_models as g')
            .select((e) => e.fn.countAll<number | string>().as('n'))
            .where('g.model', '=', 'Grant')
            .whereRef('g.client_id', '=', 'c.id')
            .as('grants'),
        (eb) =>
          eb
            .selectFrom('oauth_models as t')
            .select((e) => e.fn.max('t.created_at').as('m'))
            .where('t.model', 'in', ['AccessToken', 'RefreshToken'])
            .whereRef('t.client_id', '=', 'c.id')
            .as('last_used_at'),
      ]);
  return {
    clients,
    /** The registration (name, addresses) mentions `text`. */
    mentioning: (q: ReturnType<typeof clients>, text: string) => q.where(containsText('c.payload', text)),
    blocked: (q: ReturnType<typeof clients>, yes: boolean) => q.where('b.blocked_at', yes ? 'is not' : 'is', null),
    client: (ex: Executor, id: string) => clients(ex).where('c.id', '=', id).executeTakeFirst(),
    grants: (ex: Executor, clientId: string) =>
      ex
        .selectFrom('oauth_models as g')
        .leftJoin('users as u', 'u.id', 'g.account_id')
        .where('g.model', '=', 'Grant')
        .where('g.client_id', '=', clientId)
        .select(['g.id', 'g.payload', 'g.created_at', 'u.id as user_id', 'u.email', 'u.name'])
        .orderBy('g.created_at', 'desc')
        .execute(),
    grantIds: (ex: Executor, clientId: string) =>
      ex
        .selectFrom('oauth_models')
        .select('id')
        .where('model', '=', 'Grant')
        .where('client_id', '=', clientId)
        .execute(),
    block: async (ex: Executor, clientId: string, at: string, by: string | null) => {
      await ex
        .insertInto('blocked_clients')
        .values({ client_id: clientId, blocked_at: at, blocked_by: by })
        .onConflict((oc) => oc.column('client_id').doNothing())
        .execute();
    },
    unblock: async (ex: Executor, clientId: string) => {
      await ex.deleteFrom('blocked_clients').where('client_id', '=', clientId).execute();
    },
    signIns: (ex: Executor) => ex.selectFrom('sign_in_events').selectAll(),
  };
}

export type SecurityStore = ReturnType<typeof securityStore>;
