import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Type from 'typebox';
import type { OperationTool } from '../../operations/operation-tools.ts';
import { html } from '../../text/html.ts';
import type { FieldProblem } from '../shared/layout.ts';
import { DerivedFormBody, Key, PageQuery } from '../shared/page-schemas.ts';
import {
  ADMIN_ROUTE,
  type AdminDeps,
  adminGate,
  adminLink,
  adminPage,
  adminPostGate,
  adminReturn,
  one,
  refusal,
} from './admin-context.ts';
import { needsConfirmation, resourceOfId } from './catalog.ts';
import { choicesFor } from './choices.ts';
import { bodyFromForm, type PostedForm } from './form-kit/form-values.ts';
import { schemaForm } from './form-kit/forms-view.ts';
import { formFields } from './form-kit/schema-fields.ts';
import { valueHtml } from './form-kit/values-view.ts';
import { valueViewFor } from './id-names.ts';
import { idsOfNames } from './named-refs.ts';
import { bodyFields } from './resource-pages.ts';
import { fieldLabel, operationTitle, operationWords } from './vocabulary/words.ts';

/** Where an operation's answer is best seen, when it is not where the person came from (a new batch's codes). */
const AFTER: Record<string, (answer: Record<string, unknown>) => string | undefined> = {
  bulkCreateCoupons: (answer) =>
    typeof answer.batch === 'string' ? `/admin/coupons/batches/${encodeURIComponent(answer.batch)}` : undefined,
};

/**
 * The currency an amount of an operation is in, read from the object it acts on, so a person types 10 for €10 and
 * the server sends the API 1000. Without one here, the amount's currency is the form's own currency box.
 */
const CURRENCY_OF: Record<string, { get: string; from: (object: Record<string, unknown>) => unknown }> = {
  refundOrder: { get: 'getOrder', from: (order) => (order.total as { currency?: unknown } | undefined)?.currency },
};

/** What the screen of an operation recalls about the object it acts on (an order's total before a refund). */
const FACTS_OF: Record<string, readonly string[]> = {
  refundOrder: ['customer', 'total', 'refunded_amount', 'status'],
};

/** The object an id given to an operation stands for, by its kind ("Order: 1001"), rather than a field's name. */
const kindOfIn =
  (operations: AdminDeps['operations']) =>
  (name: string, id: string): string | undefined => {
    const resource = name === 'id' ? resourceOfId(operations, id) : undefined;
    return resource ? resource.singular.charAt(0).toUpperCase() + resource.singular.slice(1) : undefined;
  };

type Refused = { posted: PostedForm; message: string | undefined; problems: FieldProblem[]; status: number };

/** The write operations the admin runs through its one operation screen (all of them; see the coverage test). */
export const adminWrites = (operations: Iterable<OperationTool>) =>
  [...operations].filter((tool) => tool.route.method !== 'GET');

/**
 * One screen for any write operation of the API: its path parameters (given ones fixed, others asked for), its body
 * fields, and — for what cannot be undone or takes something away — a confirmation first. The API answers; the
 * screen only shows its answer, so every rule and message is the operation's own.
 */
export function registerOperationPages(fastify: FastifyInstance, deps: AdminDeps) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const page = adminPage(deps);
  const link = adminLink(deps.operations);
  const kindOf = kindOfIn(deps.operations);
  const writeOf = (name: string) => {
    const tool = deps.operations.get(name);
    return tool && tool.route.method !== 'GET' ? tool : undefined;
  };

  /** The fields an operation asks for (path ids not given, then its body), an amount in the object's currency. */
  async function fieldsOf(request: FastifyRequest, tool: OperationTool, given: Record<string, string>) {
    const params = tool.route.args.params;
    const asked = formFields(
      tool.inputSchema,
      [...params.filter((p) => !given[p]), ...tool.route.args.query],
      [tool.name],
    ).map((f) => ({ ...f, required: true }));
    const source = CURRENCY_OF[tool.name];
    const answer = source && given.id ? await deps.call(request, source.get, { id: given.id }) : undefined;
    const object = answer?.status === 200 ? (answer.body as Record<string, unknown>) : undefined;
    const currency = object && source ? source.from(object) : undefined;
    const fields = [...asked, ...bodyFields(tool)].map((f) =>
      f.kind === 'amount' && typeof currency === 'string' ? { ...f, currency } : f,
    );
    return { fields, object };
  }

  /**
   * A new order of a course's sections or a section's lessons is given by moving them in the course builder: a form
   * asking for every id in order would be no form for a person.
   */
  async function builderOf(request: FastifyRequest, operation: string, id: string | undefined) {
    if (!id || (operation !== 'reorderSections' && operation !== 'reorderLessons')) return undefined;
    const course =
      operation === 'reorderSections'
        ? id
        : await deps.call(request, 'getSection', { id }).then((a) => (a.status === 200 ? a.body.course_id : undefined));
    return typeof course === 'string' ? `/admin/courses/${encodeURIComponent(course)}/curriculum` : undefined;
  }

  async function screen(
    request: FastifyRequest,
    reply: FastifyReply,
    tool: OperationTool,
    given: Record<string, string>,
    refused?: Refused,
  ) {
    const params = tool.route.args.params;
    const fixed = Object.fromEntries(params.filter((p) => given[p]).map((p) => [p, given[p] as string]));
    const { fields, object } = await fieldsOf(request, tool, given);
    const danger = needsConfirmation(tool);
    const words = operationWords(tool.name);
    const returnTo = adminReturn(given.return_to, '/admin');
    const clock = await deps.clock(request);
    const view = await valueViewFor(deps, request, [Object.values(fixed), object], link);
    const about = [
      ...Object.entries(fixed).map(
        ([name, value]) =>
          html`<li>${kindOf(name, value) ?? fieldLabel(name, [tool.name])}: ${valueHtml(value, view, name)}</li>`,
      ),
      ...(FACTS_OF[tool.name] ?? [])
        .filter((name) => object && name in object)
        .map((name) => html`<li>${fieldLabel(name)}: ${valueHtml(object?.[name], view, name)}</li>`),
    ];
    const body = html`${words.about ? html`<p>${words.about}</p>` : ''}${about.length ? html`<ul class="meta">${about}</ul>` : ''}${
      danger && words.confirm ? html`<p class="warning" role="note">${words.confirm}</p>` : ''
    }${schemaForm({
      action: `/admin/operations/${tool.name}`,
      fields,
      state: {
        values: {},
        posted: refused?.posted,
        problems: refused?.problems ?? [],
        message: refused?.message,
        ...(await choicesFor(deps, request, fields, { given })),
        clock,
      },
      csrf: reply.generateCsrf(),
      submit: danger ? `Yes, ${words.button.toLowerCase()}` : words.button,
      hidden: { ...fixed, return_to: returnTo, ...(danger ? { confirm: 'yes' } : {}) },
      danger,
    })}<p><a href="${returnTo}">Cancel</a></p>`;
    return page(request, reply, { title: operationTitle(tool.name), body, status: refused?.status });
  }

  app.get(
    '/admin/operations/:name',
    {
      schema: { params: Type.Object({ name: Key }), querystring: PageQuery({}) },
      ...ADMIN_ROUTE,
      preHandler: adminGate(),
    },
    async (request, reply) => {
      const tool = writeOf(request.params.name);
      if (!tool) return reply.callNotFound();
      const given: Record<string, string> = {};
      for (const [key, value] of Object.entries(request.query ?? {})) {
        const v = one(value);
        if (typeof v === 'string') given[key] = v;
      }
      const builder = await builderOf(request, tool.name, given.id);
      if (builder) return reply.redirect(builder, 303);
      return screen(request, reply, tool, given);
    },
  );

  app.post(
    '/admin/operations/:name',
    {
      schema: { params: Type.Object({ name: Key }), body: DerivedFormBody, querystring: PageQuery({}) },
      ...ADMIN_ROUTE,
      preHandler: adminPostGate(app),
    },
    async (request, reply) => {
      const tool = writeOf(request.params.name);
      if (!tool) return reply.callNotFound();
      const posted = request.body ?? {};
      const given: Record<string, string> = {};
      for (const source of [request.query ?? {}, posted]) {
        for (const [key, value] of Object.entries(source)) {
          const v = one(value);
          if (typeof v === 'string' && v !== '') given[key] = v;
        }
      }
      // A button of a destructive action posts without `confirm`: it is shown the confirmation first.
      if (needsConfirmation(tool) && given.confirm !== 'yes') return screen(request, reply, tool, given);
      const args: Record<string, unknown> = {};
      for (const name of [...tool.route.args.params]) if (given[name]) args[name] = given[name];
      const { fields } = await fieldsOf(request, tool, { ...given, ...args } as Record<string, string>);
      const asked = new Set(tool.route.args.params);
      const named = await idsOfNames(deps, request, fields, posted);
      const { body, problems } = bodyFromForm(
        fields.filter((f) => !asked.has(f.name)),
        named.posted,
        undefined,
        await deps.clock(request),
      );
      problems.push(...named.problems);
      if (problems.length)
        return screen(request, reply, tool, given, { posted, message: undefined, problems, status: 400 });
      const answer = await deps.call(request, tool.name, { ...args, ...body });
      if (answer.status >= 300)
        return screen(request, reply, tool, given, { posted, ...refusal(answer), status: answer.status });
      const made = AFTER[tool.name]?.(answer.body);
      if (made) return reply.redirect(`${made}?notice=${tool.name}`, 303);
      const back = adminReturn(given.return_to, '/admin');
      return reply.redirect(`${back}${back.includes('?') ? '&' : '?'}notice=${tool.name}`, 303);
    },
  );
}
