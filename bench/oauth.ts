/**
 * npm run bench:oauth — Lyceum's authorization server beside a reference one (bench/reference-as.ts: oidc-provider in
 * memory, signing in and consenting without pages), measured interleaved in one run with the floors (/healthz, bare
 * Fastify), on SQLite and PostgreSQL: the returning user's flow (already signed in: authorize → consent → code →
 * token), a complete fresh flow (a new browser: with sign-in), introspection of an access token, and the discovery
 * document. Flows are driven over HTTP like a browser without rendering: redirects are followed, and a page is
 * answered by the form it carries (a sign-in form gets the account's email and password, a consent form "allow"), so
 * the bench does not depend on which hops a server takes.
 */
import { formPost, registerClient } from '../test/support/oauth.ts';
import { WebClient } from '../test/support/web-client.ts';
import { type Account, type AuthorizationServer, codeFlow } from './flow.ts';
import {
  benchEachEngine,
  floorRows,
  flowRow,
  type LoadRequest,
  loadRow,
  measureTable,
  type Row,
  withSchool,
} from './load.ts';
import { REFERENCE } from './reference-as.ts';
import { answers, spawnNode } from './support.ts';

const CONCURRENCY = 16;
/** The bench signs in and authorizes far faster than a person from one address: lift those per-address limits. */
const UNLIMITED = { SIGNIN_MAX_FAILURES: '1000', OAUTH_AUTHORIZATIONS_PER_MINUTE: '1000000' };

/** The flow rows and the introspection and discovery rows of one authorization server. */
function rowsOf(as: AuthorizationServer, label: string, accounts: { account: Account; fresh: [string, Account][] }) {
  const returning = Array.from({ length: CONCURRENCY }, () => new WebClient(as.base));
  let requests = 0;
  const flow = async (web: WebClient, account: Account) => {
    const done = await codeFlow(as, web, account);
    requests = done.requests;
    return done.accessToken;
  };
  const signIn = async () => {
    await Promise.all(returning.map((web) => flow(web, accounts.account)));
  };
  const counted = (row: Row): Row => {
    let count = 0;
    return { ...row, requests: () => count, run: (s) => row.run(s).finally(() => (count = requests)) };
  };
  const pool = [...returning];
  const returningRow: Row = {
    ...counted(
      flowRow(`${label}: returning user's flow`, as.pid, async () => {
        const web = pool.pop() ?? new WebClient(as.base);
        await flow(web, accounts.account).finally(() => pool.push(web));
      }),
    ),
    prepare: signIn, // the reference keeps sessions in a bounded in-memory store: sign in again before each rep
  };
  const freshRows = accounts.fresh.map(([name, account]) =>
    counted(
      flowRow(`${label}: fresh flow${name}`, as.pid, async () => {
        await flow(new WebClient(as.base), account);
      }),
    ),
  );
  const introspection: LoadRequest = {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  };
  const introspectRow: Row = {
    ...loadRow(`${label}: introspection`, as.pid, `${as.base}${as.paths.introspect}`, introspection),
    prepare: async () => {
      const token = await flow(returning[0] ?? new WebClient(as.base), accounts.account);
      introspection.body = new URLSearchParams({ token, client_id: as.clientId }).toString();
      const check = await formPost(as.base, as.paths.introspect, { token, client_id: as.clientId });
      if (check.body.active !== true) throw new Error(`introspection: ${JSON.stringify(check.body)}`);
    },
  };
  const discoveryRow = loadRow(`${label}: discovery`, as.pid, `${as.base}/.well-known/openid-configuration`);
  return { returningRow, freshRows, introspectRow, discoveryRow };
}

const reference = await spawnNode('bench/reference-as.ts', {}, (c) =>
  answers(`${c.url}/.well-known/openid-configuration`),
);
const referenceAs: AuthorizationServer = {
  base: reference.url,
  pid: reference.pid,
  clientId: REFERENCE.clientId,
  redirectUri: REFERENCE.redirectUri,
  paths: { authorize: '/auth', token: '/token', introspect: '/token/introspection' },
};
await benchEachEngine(
  async (engine, bare) => {
    // On PostgreSQL a second instance with Redis (BENCH_REDIS_URL or TEST_REDIS_URL) keeps the short-lived records
    // there, as several instances do; without Redis they are in SQL.
    const redisUrl = engine === 'postgres' ? (process.env.BENCH_REDIS_URL ?? process.env.TEST_REDIS_URL) : undefined;
    const envs: Record<string, string>[] = [
      UNLIMITED,
      ...(redisUrl ? [{ ...UNLIMITED, REDIS_URL: redisUrl, REDIS_PREFIX: `bench-${Date.now()}:` }] : []),
    ];
    return withSchool(engine, envs, { courses: 0, enrollments: 0 }, async ([server, withRedis], people) => {
      if (!server) throw new Error('no server');
      const lyceumAt = async (instance: typeof server) => {
        const client = await registerClient(instance.url, 49152, { client_name: 'bench' });
        return {
          base: instance.url,
          pid: instance.pid,
          clientId: client.client_id,
          redirectUri: 'http://127.0.0.1:49152/callback',
          paths: { authorize: '/oauth/authorize', token: '/api/oauth/token', introspect: '/api/oauth/introspect' },
        } satisfies AuthorizationServer;
      };
      const lyceum = await lyceumAt(server);
      const ours = rowsOf(lyceum, 'Lyceum', {
        account: people.staff,
        fresh: [
          [' (sign-in with scrypt N=16384)', people.staff],
          [' (sign-in, a stored hash of scrypt N=16: all but the hash)', people.quick],
        ],
      });
      const theirs = rowsOf(referenceAs, 'reference', {
        account: { email: '', password: '' },
        fresh: [[' (automatic sign-in and consent)', { email: '', password: '' }]],
      });
      const paired = (row: Row, ref: Row): Row => ({ ...row, reference: ref });
      const redisRows = withRedis
        ? rowsOf(await lyceumAt(withRedis), 'Lyceum with Redis', {
            account: people.staff,
            fresh: [[' (stored hash of scrypt N=16)', people.quick]],
          })
        : undefined;
      const rows = [
        paired(ours.returningRow, theirs.returningRow),
        ...(redisRows ? [paired(redisRows.returningRow, theirs.returningRow)] : []),
        theirs.returningRow,
        ...ours.freshRows.map((row) => paired(row, theirs.freshRows[0] as Row)),
        ...(redisRows?.freshRows.map((row) => paired(row, theirs.freshRows[0] as Row)) ?? []),
        ...theirs.freshRows,
        paired(ours.introspectRow, theirs.introspectRow),
        theirs.introspectRow,
        paired(ours.discoveryRow, theirs.discoveryRow),
        theirs.discoveryRow,
      ];
      const title = `${engine} — flows ${CONCURRENCY} at a time, requests 32 connections at a time`;
      const note =
        "No setting lowers Lyceum's scrypt cost (N=16384); the second fresh-flow row signs in an account whose stored " +
        'hash is scrypt N=16 (the school verifies with the N in the hash): the fresh flow without the cost of the hash.\n';
      return `${await measureTable(title, floorRows(server, bare), rows, 'op')}${note}`;
    });
  },
  [reference],
);
