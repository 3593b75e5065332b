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
  else if (typeof value === 'object' && value !== null) for (const item of Object.values(value)) idsIn(item, into);
}

/**
 * The names of the objects the ids on a page stand for, read through each resource's own get operation as the
 * signed-in person (who sees only what they may), so a page says "Pottery" where the API says crs_01kw….
 */
export async function namesOf(
  deps: Pick<AdminDeps, 'operations' | 'call'>,
  request: FastifyRequest,
  values: unknown,
  skip: ReadonlySet<string> = new Set(),
): Promise<Map<string, string>> {
  const ids = new Set<string>();
  idsIn(values, ids);
  const names = new Map<string, string>();
  for (const id of [...ids].filter((i) => !skip.has(i)).slice(0, MOST)) {
    const resource = resourceOfId(deps.operations, id);
    if (!resource?.get) continue;
    const gets = id.startsWith('usr_') ? PEOPLE : [resource.get];
    for (const get of gets) {
      if (!deps.operations.has(get)) continue;
      const answer = await deps.call(request, get, { id });
      if (answer.status !== 200) continue;
      const body = answer.body as Record<string, unknown>;
      names.set(id, rowName(body, [...resource.title, 'name', 'email', 'title', 'code', 'number']));
      break;
    }
  }
  return names;
}

/** What a page needs to show values in words: links, names, the school's clock and the resource shown. */
export async function valueViewFor(
  deps: Pick<AdminDeps, 'operations' | 'call' | 'clock'>,
  request: FastifyRequest,
  values: unknown,
  link: (id: string) => string | undefined,
  resource?: string,
): Promise<ValueView> {
  const [names, clock] = await Promise.all([namesOf(deps, request, values), deps.clock()]);
  return { link, names, clock, ...(resource ? { resource } : {}) };
}
