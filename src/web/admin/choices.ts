import type { FastifyRequest } from 'fastify';
import type { AdminDeps } from './admin-context.ts';
import { resourceOfId } from './catalog.ts';
import type { Choice } from './form-kit/forms-view.ts';
import type { FormField } from './form-kit/schema-fields.ts';
import { rowName } from './form-kit/values-view.ts';

/** Most objects offered by name in a form; beyond it the field takes ids typed in. */
const MOST = 100;

/**
 * The objects each id field of a form may name, listed by name through the resource's own list operation (so the
 * person sees only what they may see), for the prefixes that have one and few enough rows.
 */
export async function choicesFor(
  deps: AdminDeps,
  request: FastifyRequest,
  fields: readonly FormField[],
): Promise<Map<string, Choice[]>> {
  const prefixes = new Set(fields.flatMap((f) => (f.prefix ? [f.prefix] : [])));
  const listed = await Promise.all(
    [...prefixes].map(async (prefix): Promise<[string, Choice[]] | undefined> => {
      const resource = resourceOfId(deps.operations, `${prefix}_`);
      if (!resource?.list) return undefined;
      const answer = await deps.call(request, resource.list, { limit: MOST });
      if (answer.status !== 200 || answer.body.has_more) return undefined;
      const rows = answer.body.data as Record<string, unknown>[];
      return [prefix, rows.map((row) => ({ id: String(row.id), label: rowName(row, resource.title) }))];
    }),
  );
  return new Map(listed.filter((pair) => pair !== undefined));
}
