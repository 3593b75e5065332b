import type { FastifyRequest } from 'fastify';
import type { AdminDeps } from './admin-context.ts';
import { resourceOfId } from './catalog.ts';
import { ID, rowName, type ValueView } from './form-kit/values-view.ts';

/** Most ids one page names; beyond it a page shows "Unnamed" rather than make a call per row. */
const MOST = 60;

/** Other ways to name a person than as a student (a staff member, a member). */
const PEOPLE = ['getStudent', 'getStaffMember', 'getMember'];

function idsIn(value: unknown, into: Set<string>) {
  if (typeof value === 'string') {
    if (ID.test(value)) into.add(value);
  } else if (Array.isArray(value)) for (const item of value) idsIn(item, into);
  else if (typeof value === 'object' && value !== null)
    // An object's own id is never shown as a name: the object names itself (its title, or its name beside an id).
    for (const [key, item] of Object.entries(value)) if (key !== 'id') idsIn(item, into);
}

/**
 * The names of the objects the ids on a page stand for, read through each resource's own get operation as the
 * signed-in person (who sees only what they may), so a page says "Pottery" where the API says crs_01kw….
 */
export async function namesOf(
  deps: Pick<AdminDeps, 'operations' | 'call'>,
  request: FastifyRequest,
  values: unknown,
): Promise<Map<string, string>> {
  const ids = new Set<string>();
  idsIn(values, ids);
  const nameOf = async (id: string): Promise<[string, string] | undefined> => {
    const resource = resourceOfId(deps.operations, id);
    if (!resource?.get) return undefined;
    for (const get of id.startsWith('usr_') ? PEOPLE : [resource.get]) {
      if (!deps.operations.has(get)) continue;
      const answer = await deps.call(request, get, { id });
      if (answer.status !== 200) continue;
      const body = answer.body as Record<string, unknown>;
      return [id, rowName(body, [...resource.title, 'name', 'email', 'title', 'code', 'number'])];
    }
    return undefined;
  };
  const named = await Promise.all([...ids].slice(0, MOST).map(nameOf));
  return new Map(named.filter((pair) => pair !== undefined));
}

/** What a page needs to show values in words: links, names, the school's clock and the resource shown. */
export async function valueViewFor(
  deps: Pick<AdminDeps, 'operations' | 'call' | 'clock'>,
  request: FastifyRequest,
  values: unknown,
  link: (id: string) => string | undefined,
  resource?: string,
): Promise<ValueView> {
  const [names, clock] = await Promise.all([namesOf(deps, request, values), deps.clock(request)]);
  return { link, names, clock, ...(resource ? { resource } : {}) };
}
