// Which area's code names which tables, checked by `npm run lint` (docs/architecture.md, "Tables have owners").
// Every table has one owner: an area (src/areas/<name>/) or a floor below the areas. An area's code writes only its
// own tables, and reads none of another area's: it asks the owner's service or a port (docs/architecture.md).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const BELOW = 'a floor below the areas';

/** The owner of each table of db/tables.ts. */
const OWNERS: Record<string, string> = {
  school: 'school',
  appearance: 'appearance',
  audit_log: 'audit',
  assets: 'storage',
  image_variants: 'storage',
  courses: 'courses',
  sections: 'curriculum',
  lessons: 'curriculum',
  playback_positions: 'curriculum',
  lecturers: 'lecturers',
  enrollments: 'students',
  lesson_progress: 'students',
  quiz_attempts: 'students',
  certificates: 'certificates',
  comments: 'comments',
  posts: 'posts',
  pages: 'pages',
  forms: 'forms',
  form_submissions: 'forms',
  events: 'events',
  event_lecturers: 'events',
  event_registrations: 'events',
  calendar_feeds: 'events',
  membership_plans: 'membership-plans',
  plan_courses: 'membership-plans',
  plan_prices: 'membership-plans',
  plan_products: 'membership-plans',
  products: 'digital-products',
  product_files: 'digital-products',
  product_grants: 'digital-products',
  coupons: 'coupons',
  coupon_redemptions: 'coupons',
  orders: 'orders',
  order_items: 'orders',
  payments: 'orders',
  refund_requests: 'orders',
  counters: 'orders',
  subscriptions: 'subscriptions',
  members: 'members',
  revenue_slots: 'analytics',
  blocked_clients: 'security',
  // The floors below: identity/ (people, sessions, their tokens), mail/, jobs/, http/, security/, oauth/ and payments/.
  users: BELOW,
  sessions: BELOW,
  user_tokens: BELOW,
  setup_tokens: BELOW,
  sign_in_events: BELOW,
  server_secrets: BELOW,
  outbox: BELOW,
  jobs: BELOW,
  idempotency_keys: BELOW,
  oauth_models: BELOW,
  payment_events: BELOW,
};

/**
 * The areas that manage people's own rows of the identity floor (the people they are about): a student, a staff
 * member, a member and the account's owner are users, and ending their sessions is part of suspending them.
 */
const PEOPLE_WRITERS: Record<string, string[]> = {
  users: ['account', 'staff', 'students', 'members'],
  sessions: ['staff', 'students'],
};

const WRITES = new Set(['insertInto', 'updateTable', 'deleteFrom', 'mergeInto']);
const NAMED =
  /\b(selectFrom|insertInto|updateTable|deleteFrom|mergeInto|innerJoin|leftJoin|rightJoin|fullJoin)\(\s*'([a-z_]+)(?: as \w+)?'/g;

/** Raw SQL (sql`…`): the tables after FROM, JOIN, INTO and UPDATE. */
const RAW = /\bsql(?:<[^`]*?>)?`([^`]*)`/g;
const RAW_TABLE = /\b(from|join|into|update)\s+([a-z_]+)/gi;
/** A table chosen at run time from a union of names (`table: 'courses' | 'products'`), or from a map (`table: 'x'`). */
const CHOSEN = /\btable\??:\s*((?:'[a-z_]+'\s*\|\s*)*'[a-z_]+')/g;

/** Every table a source names, with how: a built query's method, `raw` SQL, or `chosen` at run time. */
function named(source: string): [method: string, table: string][] {
  const found: [string, string][] = [];
  for (const [, method, table] of source.matchAll(NAMED)) if (method && table) found.push([method, table]);
  for (const [, text] of source.matchAll(RAW))
    for (const [, verb, table] of (text ?? '').matchAll(RAW_TABLE))
      if (verb && table && table in OWNERS) found.push([/into|update/i.test(verb) ? 'insertInto' : 'raw', table]);
  for (const [, union] of source.matchAll(CHOSEN))
    for (const [, table] of (union ?? '').matchAll(/'([a-z_]+)'/g))
      if (table && table in OWNERS) found.push(['chosen', table]);
  return found;
}

export function tableProblems(root: string): string[] {
  const problems: string[] = [];
  const tables = readFileSync(join(root, 'src/db/tables.ts'), 'utf8');
  const declared = [...(tables.split('export type Tables = {')[1] ?? '').matchAll(/^ {2}([a-z_]+):/gm)].map(
    (m) => m[1],
  );
  for (const table of declared)
    if (!(table && table in OWNERS)) problems.push(`table ${table} has no owner in scripts/lint-tables.ts`);
  const areasDir = join(root, 'src/areas');
  for (const area of readdirSync(areasDir, { withFileTypes: true })) {
    if (!area.isDirectory()) continue;
    for (const file of readdirSync(join(areasDir, area.name)).filter((f) => f.endsWith('.ts'))) {
      const source = readFileSync(join(areasDir, area.name, file), 'utf8');
      for (const [method, table] of named(source)) {
        const owner = OWNERS[table];
        const where = `src/areas/${area.name}/${file}`;
        if (owner === undefined) problems.push(`${where}: names ${table}, which no area or floor owns`);
        if (owner === area.name) continue;
        if (WRITES.has(method)) {
          if (!PEOPLE_WRITERS[table]?.includes(area.name))
            problems.push(
              `${where}: writes ${table} (${method}), which belongs to ${owner}; ask its owner through a port`,
            );
          continue;
        }
        if (owner === BELOW) continue;
        problems.push(`${where}: reads ${table}, which belongs to ${owner}; ask its service or declare a port`);
      }
    }
  }
  return problems;
}

if (import.meta.main) {
  const problems = tableProblems(process.cwd());
  for (const problem of new Set(problems)) console.error(`✘ ${problem}`);
  if (problems.length) process.exit(1);
  console.log("✔ every table named in src/areas/ is its own area's or a floor's below, and written only by its owner");
}
