import type { FastifyRequest } from 'fastify';
import type { FieldProblem } from '../shared/layout.ts';
import type { AdminDeps } from './admin-context.ts';
import { resourceOfId } from './catalog.ts';
import type { PostedForm } from './form-kit/form-values.ts';
import type { FormField } from './form-kit/schema-fields.ts';
import { rowName } from './form-kit/values-view.ts';

type Row = Record<string, unknown>;

/** How many of a search's answers are read to find the one a name means. */
const LOOKED_AT = 100;

const isIdOf = (prefix: string, text: string) => new RegExp(`^${prefix}_[0-9a-z]{26}$`).test(text);

/**
 * The names typed into the id fields that take names (a school with more objects than a list can offer: choices.ts)
 * as the ids the API takes (any text in an id field that is not an id is taken as a name), each found through the resource's own list and its search, as the signed-in person. A
 * name matching one object exactly (its name, title or e-mail address, in any case) or the only one the search finds
 * is that object; a name that fits none or several is a problem beside its field. Ids typed in are kept as they are.
 */
export async function idsOfNames(
  deps: Pick<AdminDeps, 'operations' | 'call'>,
  request: FastifyRequest,
  fields: readonly FormField[],
  posted: PostedForm,
): Promise<{ posted: PostedForm; problems: FieldProblem[] }> {
  const resolved: PostedForm = { ...posted };
  const problems: FieldProblem[] = [];
  await Promise.all(
    fields.map(async (field) => {
      const prefix = field.prefix;
      if (!prefix || (field.kind !== 'ref' && field.kind !== 'refs')) return;
      const resource = resourceOfId(deps.operations, `${prefix}_`);
      const list = resource?.list;
      if (!resource || !list || !deps.operations.get(list)?.route.args.query.includes('q')) return;
      const lines = [posted[field.name] ?? []]
        .flat()
        .flatMap((v) => v.split(/\r?\n/))
        .map((line) => line.trim())
        .filter(Boolean);
      if (lines.every((text) => isIdOf(prefix, text))) return;
      // The ids the form held, by the names it showed for them: a name left as shown keeps its id, unsearched.
      const held = new Map(
        [posted[`${field.name}.held`] ?? []].flat().flatMap((pair) => {
          const [id = '', name = ''] = pair.split('\t');
          return isIdOf(prefix, id) ? [[name, id] as const] : [];
        }),
      );
      const ids = await Promise.all(
        lines.map(async (text): Promise<string | undefined> => {
          if (isIdOf(prefix, text)) return text;
          const kept = held.get(text);
          if (kept) return kept;
          const answer = await deps.call(request, list, { q: text, limit: LOOKED_AT });
          const rows = answer.status === 200 ? (answer.body.data as Row[]) : [];
          const wanted = text.toLowerCase();
          const exact = rows.filter((row) =>
            [...resource.title, 'name', 'title', 'email'].some(
              (key) => typeof row[key] === 'string' && (row[key] as string).toLowerCase() === wanted,
            ),
          );
          const [only] = exact.length === 1 ? exact : rows.length === 1 ? rows : [];
          if (only) return String(only.id);
          problems.push({
            field: field.name,
            message: rows.length
              ? `“${text}” fits several: ${rows
                  .slice(0, 3)
                  .map((row) => rowName(row, resource.title))
                  .join(', ')}${rows.length > 3 ? ' …' : ''}. Type the whole name or the e-mail address.`
              : `No ${resource.singular} is called “${text}”.`,
          });
          return undefined;
        }),
      );
      resolved[field.name] = field.kind === 'ref' ? (ids[0] ?? '') : ids.filter((id) => id !== undefined).join('\n');
    }),
  );
  return { posted: resolved, problems };
}
