import assert from 'node:assert/strict';
import { type ApiResponse, type apiClient, listAll } from './api.ts';

type Client = ReturnType<typeof apiClient>;
type Page = { data: { id: string; created_at?: string }[]; has_more: boolean; next_cursor: string | null };

/**
 * What every list of the API does (docs/api/README.md, "Lists"), checked the same way in each area: five items made by `make(i)`
 * in order, found by `query` (a list path with a filter that selects exactly them, e.g. `?q=<tag>`), walked two at a
 * time newest first across a page boundary and a deleted cursor item; `sort=created_at`; `created_after` comparing
 * instants whatever offset they are written with; and 400 for a limit over 100, a malformed cursor and an unknown
 * parameter. `remove(id)` deletes an item the way the area allows (drafts, say).
 */
export async function paginatesLikeEveryList(opts: {
  staff: Client;
  query: string;
  make: (i: number) => Promise<{ id: string }>;
  remove: (id: string) => Promise<unknown>;
}) {
  const { staff, query } = opts;
  const made: { id: string }[] = [];
  for (let i = 0; i < 5; i++) made.push(await opts.make(i));
  const ids = (page: ApiResponse<Page>) => page.body.data.map((item) => item.id);
  const first = await staff.get<Page>(`${query}&limit=2`);
  assert.equal(first.status, 200, JSON.stringify(first.body));
  assert.deepEqual(ids(first), [made[4]?.id, made[3]?.id]);
  assert.equal(first.body.has_more, true);
  assert.equal(first.body.next_cursor, made[3]?.id);
  await opts.remove(made[3]?.id ?? '');
  const second = await staff.get<Page>(`${query}&limit=2&starting_after=${first.body.next_cursor}`);
  assert.deepEqual(ids(second), [made[2]?.id, made[1]?.id], 'a deleted cursor item still works');
  const third = await staff.get<Page>(`${query}&limit=2&starting_after=${second.body.next_cursor}`);
  assert.deepEqual(ids(third), [made[0]?.id]);
  assert.equal(third.body.has_more, false);
  assert.equal(third.body.next_cursor, null);
  const ascending = await staff.get<Page>(`${query}&sort=created_at&limit=1`);
  assert.deepEqual(ids(ascending), [made[0]?.id]);

  const all = await listAll<{ id: string; created_at: string }>(staff, query);
  const firstCreated = new Date(all.at(-1)?.created_at ?? '');
  const sameInstant = new Date(firstCreated.getTime() - 1).toISOString().replace('Z', '+00:00');
  assert.equal((await listAll(staff, `${query}&created_after=${encodeURIComponent(sameInstant)}`)).length, 4);
  const inPlusTwo = new Date(firstCreated.getTime() + 2 * 3_600_000 - 1).toISOString().replace('Z', '+02:00');
  assert.equal((await listAll(staff, `${query}&created_after=${encodeURIComponent(inPlusTwo)}`)).length, 4);
  const lastCreated = new Date(all[0]?.created_at ?? '');
  assert.equal((await listAll(staff, `${query}&created_before=${firstCreated.toISOString()}`)).length, 0);
  const afterLast = new Date(lastCreated.getTime() + 1).toISOString();
  assert.equal((await listAll(staff, `${query}&created_before=${afterLast}`)).length, 4);
  for (const bad of ['limit=101', 'limit=0', 'starting_after=nope', 'sort=title', 'unknown=1']) {
    const refused = await staff.get<{ error: string }>(`${query}&${bad}`);
    assert.equal(refused.status, 400, bad);
    assert.equal(refused.body.error, 'invalid_request', bad);
  }
}

type Principals = { anonymous: Client; student: Client; staff: Client };
type Who = keyof Principals;

/**
 * The one visibility rule every area states (docs/api/README.md, "Views by principal"), checked the same way: each of the three
 * principals either finds the item in `list` and gets it by `get` (200), or sees it in neither — a 404, never a 403.
 */
export async function seenOnlyBy(
  principals: Principals,
  item: { id: string; get: string; list: string; label?: string },
  who: Who[],
) {
  for (const name of Object.keys(principals) as Who[]) {
    const client = principals[name];
    const sees = who.includes(name);
    const label = `${item.label ?? item.id}, as ${name}`;
    const got = await client.get(item.get);
    assert.equal(got.status, sees ? 200 : 404, label);
    const listed = (await listAll(client, item.list)).some((x) => x.id === item.id);
    assert.equal(listed, sees, `${label}: ${sees ? 'missing from' : 'shown in'} the list`);
  }
}
