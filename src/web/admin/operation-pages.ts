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
import { needsConfirmation } from './catalog.ts';
import { choicesFor } from './choices.ts';
import { bodyFromForm, type PostedForm } from './form-kit/form-values.ts';
import { schemaForm } from './form-kit/forms-view.ts';
import { formFields } from './form-kit/schema-fields.ts';
import { bodyFields } from './resource-pages.ts';

/** Where an operation's answer is best seen, when it is not where the person came from (a new batch's codes). */
const AFTER: Record<string, (answer: Record<string, unknown>) => string | undefined> = {
  bulkCreateCoupons: (answer) =>
    typeof answer.batch === 'string' ? `/admin/coupons/batches/${encodeURIComponent(answer.batch)}` : undefined,
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
  const writeOf = (name: string) => {
    const tool = deps.operations.get(name);
    return tool && tool.route.method !== 'GET' ? tool : undefined;
  };

  async function screen(
    request: FastifyRequest,
    reply: FastifyReply,
    tool: OperationTool,
    given: Record<string, string>,
    refused?: Refused,
  ) {
    const params = tool.route.args.params;
    const fixed = Object.fromEntries(params.filter((p) => given[p]).map((p) => [p, given[p] as string]));
    const asked = formFields(tool.inputSchema, [...params.filter((p) => !given[p]), ...tool.route.args.query]).map(
      (f) => ({ ...f, required: true }),
    );
    const fields = [...asked, ...bodyFields(tool)];
    const danger = needsConfirmation(tool);
    const returnTo = adminReturn(given.return_to, '/admin');
    const about = Object.entries(fixed).map(
      ([name, value]) =>
        html`<li>${name}: ${link(value) ? html`<a href="${link(value) as string}"><code>${value}</code></a>` : html`<code>${value}</code>`}</li>`,
    );
    const body = html`<p>${tool.title}.</p>${about.length ? html`<ul class="meta">${about}</ul>` : ''}${
      danger
        ? html`<p class="warning" role="note">Please confirm: ${tool.title.toLowerCase()}. This may not be undone.</p>`
        : ''
    }${schemaForm({
      action: `/admin/operations/${tool.name}`,
      fields,
      state: {
        values: {},
        posted: refused?.posted,
        problems: refused?.problems ?? [],
        message: refused?.message,
        choices: await choicesFor(deps, request, fields),
      },
      csrf: reply.generateCsrf(),
      submit: danger ? `Yes, ${tool.title.toLowerCase()}` : tool.title,
      hidden: { ...fixed, return_to: returnTo, ...(danger ? { confirm: 'yes' } : {}) },
      danger,
    })}<p><a href="${returnTo}">Cancel</a></p>`;
    return page(request, reply, { title: tool.title, body, status: refused?.status });
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
      const queryFields = formFields(tool.inputSchema, tool.route.args.query);
      const { body, problems } = bodyFromForm([...queryFields, ...bodyFields(tool)], posted);
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
