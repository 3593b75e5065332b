import type { FastifyRequest } from 'fastify';
import type { AdminDeps } from './admin-context.ts';
import { resourceOfId } from './catalog.ts';
import type { Choice } from './form-kit/forms-view.ts';
import { moneyWords } from './form-kit/money.ts';
import type { FormField } from './form-kit/schema-fields.ts';
import { rowName } from './form-kit/values-view.ts';
import { namesOf } from './id-names.ts';

/** Most objects offered by name in a list; beyond it the field takes names typed in (named-refs.ts). */
const MOST = 100;

type Row = Record<string, unknown>;
type Given = Readonly<Record<string, string | undefined>>;

/** What a form's id fields offer, by id prefix. */
export type FormChoices = {
  /** The objects to pick from, when there are few enough to list. */
  choices: Map<string, Choice[]>;
  /** Prefixes with too many objects to list: their boxes take names. Holds the names of the ids the form shows. */
  named: Map<string, Map<string, string>>;
};

/** "€9.00 a month": a plan's price as a person picks it. */
const PER: Record<string, string> = { month: 'a month', year: 'a year', one_time: 'once' };

/**
 * Objects listed within another's rather than all of their kind: a lesson moves among its own course's sections; a
 * subscription changes to one of the recurring prices of the plans on sale.
 */
const SCOPED: Record<
  string,
  (deps: AdminDeps, request: FastifyRequest, given: Given) => Promise<Choice[] | undefined>
> = {
  async sec(deps, request, given) {
    const lesson = given.id?.startsWith('les_') ? await deps.call(request, 'getLesson', { id: given.id }) : undefined;
    const course = lesson?.status === 200 ? lesson.body.course_id : given.course_id;
    if (typeof course !== 'string') return undefined;
    const answer = await deps.call(request, 'listSections', { id: course });
    if (answer.status !== 200) return undefined;
    return (answer.body.data as Row[]).map((s) => ({ id: String(s.id), label: rowName(s, ['title']) }));
  },
  async pri(deps, request) {
    const [answer, clock] = await Promise.all([
      deps.call(request, 'listMembershipPlans', { limit: MOST, status: 'active' }),
      deps.clock(request),
    ]);
    if (answer.status !== 200) return undefined;
    return (answer.body.data as Row[]).flatMap((plan) =>
      ((plan.prices ?? []) as Row[])
        .filter((price) => price.status === 'active' && price.interval !== 'one_time')
        .map((price) => ({
          id: String(price.id),
          label:
            `${rowName(plan, ['name'])}: ${moneyWords(Number(price.amount), String(price.currency), clock.locale)} ${
              PER[String(price.interval)] ?? ''
            }`.trim(),
        })),
    );
  },
};

/**
 * The objects each id field of a form may name, listed by name through the resource's own list operation (so the
 * person sees only what they may see). Where there are more than can be listed, the field takes names instead, and
 * the ids the form already holds (`values`) are named for it.
 */
export async function choicesFor(
  deps: AdminDeps,
  request: FastifyRequest,
  fields: readonly FormField[],
  context: { given?: Given; values?: Row } = {},
): Promise<FormChoices> {
  const prefixes = new Set(fields.flatMap((f) => (f.prefix ? [f.prefix] : [])));
  const result: FormChoices = { choices: new Map(), named: new Map() };
  await Promise.all(
    [...prefixes].map(async (prefix) => {
      const scoped = SCOPED[prefix];
      if (scoped) {
        const choices = await scoped(deps, request, context.given ?? {});
        if (choices) result.choices.set(prefix, choices);
        return;
      }
      const resource = resourceOfId(deps.operations, `${prefix}_`);
      if (!resource?.list) return;
      const answer = await deps.call(request, resource.list, { limit: MOST });
      if (answer.status !== 200) return;
      if (!answer.body.has_more) {
        const rows = answer.body.data as Row[];
        result.choices.set(
          prefix,
          rows.map((row) => ({ id: String(row.id), label: rowName(row, resource.title) })),
        );
        return;
      }
      if (!deps.operations.get(resource.list)?.route.args.query.includes('q')) return;
      const shown = fields.filter((f) => f.prefix === prefix).map((f) => context.values?.[f.name]);
      result.named.set(prefix, await namesOf(deps, request, shown));
    }),
  );
  return result;
}
