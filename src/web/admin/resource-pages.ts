import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import Type, { type Static } from 'typebox';
import type { OperationTool } from '../../operations/operation-tools.ts';
import { html, type SafeHtml } from '../../text/html.ts';
import { markdownHtml } from '../shared/markdown.ts';
import { DerivedFormBody, DerivedQuery, Key } from '../shared/page-schemas.ts';
import {
  ADMIN_ROUTE,
  type AdminDeps,
  adminGate,
  adminLink,
  adminPage,
  adminPostGate,
  doneNotice,
  one,
  refusal,
  UNCHANGED,
} from './admin-context.ts';
import {
  type AdminResource,
  genericFields,
  needsConfirmation,
  objectOperations,
  resourceByKey,
  screensOf,
} from './catalog.ts';
import { choicesFor } from './choices.ts';
import { bodyFromForm, type PostedForm } from './form-kit/form-values.ts';
import { schemaForm } from './form-kit/forms-view.ts';
import { type FormField, formFields } from './form-kit/schema-fields.ts';
import { fromZoneLocal } from './form-kit/school-time.ts';
import { rowName } from './form-kit/values-view.ts';
import { valueViewFor } from './id-names.ts';
import { idsOfNames } from './named-refs.ts';
import { type ActionButton, actionBar, listHeader, objectFacts, rowsTable } from './screens-view.ts';
import { themePreview } from './theme-preview-view.ts';
import { allowedInState } from './vocabulary/state-actions.ts';
import { fieldLabel, isHiddenField, listHeading, operationTitle, operationWords } from './vocabulary/words.ts';

const KeyParams = Type.Object({ key: Key });
const Params = Type.Object({ key: Key, id: Key });
type Params = Static<typeof Params>;
type Row = Record<string, unknown>;

const PAGING = new Set(['limit', 'starting_after', 'sort']);

/** A settings page's own screens (appearance: its menu, fonts and logo), linked above its form. */
const screenLinks = (resource: AdminResource, object: Row) => {
  const screens = screensOf(resource, object);
  return screens.length
    ? html`<ul class="actions">${screens.map((s) => html`<li><a class="button secondary" href="/admin/${resource.key}/${s.path}">${s.label}</a></li>`)}</ul>`
    : '';
};

/** The body fields of an operation as form fields, in the words of the operation and of the resource it acts on. */
export const bodyFields = (tool: OperationTool, resource?: string): FormField[] =>
  formFields(tool.inputSchema, tool.route.args.body, [tool.name, resource]);

/**
 * The admin's screens of each resource, derived from the operations that read and write it: the list (with the list
 * operation's own filters), the object with its actions and child lists, and create and edit forms.
 */
export function registerResourcePages(fastify: FastifyInstance, deps: AdminDeps) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const page = adminPage(deps);
  const link = adminLink(deps.operations);
  const op = (name: string | undefined) => (name ? deps.operations.get(name) : undefined);
  const noticeOf = (request: FastifyRequest) => doneNotice(deps, request);
  const resourceOf = (request: FastifyRequest & { params: Partial<Params> }) =>
    resourceByKey(deps.operations, request.params.key ?? '');
  const singleton = (resource: AdminResource) => !resource.list && op(resource.get)?.route.args.params.length === 0;

  app.get(
    '/admin/:key',
    { schema: { params: KeyParams, querystring: DerivedQuery }, ...ADMIN_ROUTE, preHandler: adminGate() },
    async (request, reply) => {
      const resource = resourceOf(request);
      if (!resource) return reply.callNotFound();
      if (singleton(resource)) return editScreen(request, reply, resource, undefined);
      const list = op(resource.list);
      if (!list) return reply.callNotFound();
      const query = request.query;
      // The search box first, then choices, then the rest (dates, ids).
      const rank = (f: FormField) => (f.name === 'q' ? 0 : f.options ? 1 : 2);
      const filters = formFields(list.inputSchema, list.route.args.query, [list.name, resource.key])
        .filter((f) => !PAGING.has(f.name))
        .sort((a, b) => rank(a) - rank(b));
      const clock = await deps.clock(request);
      const kinds = new Map(filters.map((f) => [f.name, f.kind]));
      // What the filter boxes show (a day for a time), and what the list operation is asked (that day's start, in UTC).
      const shown: Row = {};
      const args: Row = {};
      for (const name of list.route.args.query) {
        const value = one(query[name]);
        if (typeof value !== 'string' || value === '') continue;
        shown[name] = value;
        args[name] = kinds.get(name) === 'datetime' ? (fromZoneLocal(`${value}T00:00`, clock.zone) ?? value) : value;
      }
      const { choices } = await choicesFor(deps, request, filters);
      const answer = await deps.call(request, list.name, args);
      if (answer.status !== 200) {
        const { message } = refusal(answer);
        return page(request, reply, {
          title: resource.label,
          current: resource.key,
          status: answer.status,
          body: html`<div class="error" role="alert"><p>${message}</p></div>`,
        });
      }
      const data = (answer.body.data ?? []) as Row[];
      const next = answer.body.next_cursor as string | null | undefined;
      const nextQuery = new URLSearchParams({ ...(shown as Record<string, string>), starting_after: next ?? '' });
      const filterBox = (f: FormField) => {
        const picked = f.prefix ? choices.get(f.prefix) : undefined;
        const options = f.options?.map((o, i) => ({ id: o, label: f.optionLabels?.[i] ?? o })) ?? picked;
        if (options)
          return html`<select id="q-${f.name}" name="${f.name}"><option value="">Any</option>${options.map(
            (o) => html`<option value="${o.id}"${shown[f.name] === o.id ? html` selected` : ''}>${o.label}</option>`,
          )}</select>`;
        if (f.kind === 'datetime')
          return html`<input type="date" id="q-${f.name}" name="${f.name}" value="${String(shown[f.name] ?? '')}">`;
        if (f.kind === 'boolean')
          return html`<select id="q-${f.name}" name="${f.name}"><option value="">Any</option>${['true', 'false'].map(
            (o) =>
              html`<option value="${o}"${shown[f.name] === o ? html` selected` : ''}>${o === 'true' ? 'Yes' : 'No'}</option>`,
          )}</select>`;
        return html`<input id="q-${f.name}" name="${f.name}" value="${String(shown[f.name] ?? '')}">`;
      };
      const filterForm = filters.length
        ? html`<form method="get" action="/admin/${resource.key}" class="search" role="search">${filters.map(
            (f) => html`<p><label for="q-${f.name}">${f.label}</label>${filterBox(f)}</p>`,
          )}<p class="submit"><button type="submit">Filter</button></p></form>`
        : '';
      const view = await valueViewFor(deps, request, data, link, resource.key);
      const body = html`${listHeader(resource, !!op(resource.create))}${filterForm}${rowsTable({
        rows: data,
        title: resource.title,
        columns: resource.columns,
        href: (row) =>
          resource.get && typeof row.id === 'string'
            ? `/admin/${resource.key}/${encodeURIComponent(row.id)}`
            : undefined,
        view,
      })}${next ? html`<p><a href="/admin/${resource.key}?${nextQuery.toString()}" rel="next">Next page</a></p>` : ''}`;
      return page(request, reply, { title: resource.label, current: resource.key, body, notice: noticeOf(request) });
    },
  );

  async function createScreen(
    request: FastifyRequest,
    reply: FastifyReply,
    resource: AdminResource,
    refused?: { posted: PostedForm; message: string; problems: { field: string; message: string }[]; status: number },
  ) {
    const create = op(resource.create);
    if (!create) return reply.callNotFound();
    const fields = genericFields(resource, bodyFields(create, resource.key));
    const words = operationWords(create.name);
    const form = schemaForm({
      action: `/admin/${resource.key}/new`,
      fields,
      state: {
        values: {},
        posted: refused?.posted,
        problems: refused?.problems ?? [],
        message: refused?.message,
        ...(await choicesFor(deps, request, fields)),
        clock: await deps.clock(request),
      },
      csrf: reply.generateCsrf(),
      submit: words.button,
    });
    return page(request, reply, {
      title: resource.createLabel ?? operationTitle(create.name),
      current: resource.key,
      status: refused?.status,
      body: html`${words.about ? html`<p class="meta">${words.about}</p>` : ''}${form}`,
    });
  }

  app.get(
    '/admin/:key/new',
    { schema: { params: KeyParams }, ...ADMIN_ROUTE, preHandler: adminGate() },
    async (request, reply) => {
      const resource = resourceOf(request);
      return resource ? createScreen(request, reply, resource) : reply.callNotFound();
    },
  );

  app.post(
    '/admin/:key/new',
    { schema: { params: KeyParams, body: DerivedFormBody }, ...ADMIN_ROUTE, preHandler: adminPostGate(app) },
    async (request, reply) => {
      const resource = resourceOf(request);
      const create = op(resource?.create);
      if (!resource || !create) return reply.callNotFound();
      const posted = request.body ?? {};
      const fields = genericFields(resource, bodyFields(create, resource.key));
      const named = await idsOfNames(deps, request, fields, posted);
      const { body, problems } = bodyFromForm(fields, named.posted, undefined, await deps.clock(request));
      problems.push(...named.problems);
      if (problems.length)
        return createScreen(request, reply, resource, { posted, message: undefined as never, problems, status: 400 });
      const answer = await deps.call(request, create.name, body);
      if (answer.status >= 300)
        return createScreen(request, reply, resource, { posted, ...refusal(answer), status: answer.status });
      const id = answer.body.id;
      const target =
        typeof id === 'string' && resource.get
          ? `/admin/${resource.key}/${encodeURIComponent(id)}`
          : `/admin/${resource.key}`;
      return reply.redirect(`${target}?notice=${create.name}`, 303);
    },
  );

  async function editScreen(
    request: FastifyRequest,
    reply: FastifyReply,
    resource: AdminResource,
    id: string | undefined,
    refused?: {
      posted: PostedForm;
      message: string | undefined;
      problems: { field: string; message: string }[];
      status: number;
    },
  ) {
    const update = op(resource.update);
    const get = op(resource.get);
    if (!get) return reply.callNotFound();
    const current = await deps.call(request, get.name, id ? { id } : {});
    if (current.status !== 200) return reply.callNotFound();
    const action = id ? `/admin/${resource.key}/${encodeURIComponent(id)}/edit` : `/admin/${resource.key}/edit`;
    const fields = update ? genericFields(resource, bodyFields(update, resource.key)) : [];
    const form = update
      ? schemaForm({
          action,
          fields,
          state: {
            values: current.body,
            posted: refused?.posted,
            problems: refused?.problems ?? [],
            message: refused?.message,
            ...(await choicesFor(deps, request, fields, { values: current.body })),
            clock: await deps.clock(request),
          },
          csrf: reply.generateCsrf(),
          submit: operationWords(update.name).button,
        })
      : objectFacts(current.body, await valueViewFor(deps, request, current.body, link, resource.key));
    const preview = resource.preview === 'theme' ? themePreview() : '';
    const title = id ? `Edit ${resource.singular}` : resource.label;
    return page(request, reply, {
      title,
      current: resource.key,
      status: refused?.status,
      notice: noticeOf(request),
      body: html`${id ? html`<p><a href="/admin/${resource.key}/${encodeURIComponent(id)}">Back to the ${resource.singular}</a></p>` : screenLinks(resource, current.body)}${preview}${form}`,
    });
  }

  const saveEdit = async (
    request: FastifyRequest & { params: Partial<Params>; body: PostedForm },
    reply: FastifyReply,
  ) => {
    const resource = resourceOf(request);
    const update = op(resource?.update);
    const get = op(resource?.get);
    if (!resource || !update || !get) return reply.callNotFound();
    const id = request.params.id;
    const args = id ? { id } : {};
    const current = await deps.call(request, get.name, args);
    if (current.status !== 200) return reply.callNotFound();
    const posted = request.body ?? {};
    const fields = genericFields(resource, bodyFields(update, resource.key));
    const named = await idsOfNames(deps, request, fields, posted);
    const { body, problems } = bodyFromForm(fields, named.posted, current.body, await deps.clock(request));
    problems.push(...named.problems);
    if (problems.length)
      return editScreen(request, reply, resource, id, { posted, message: undefined, problems, status: 400 });
    const back = id ? `/admin/${resource.key}/${encodeURIComponent(id)}` : `/admin/${resource.key}`;
    if (Object.keys(body).length === 0) return reply.redirect(`${back}?notice=${UNCHANGED}`, 303);
    const answer = await deps.call(request, update.name, { ...args, ...body });
    if (answer.status >= 300)
      return editScreen(request, reply, resource, id, { posted, ...refusal(answer), status: answer.status });
    return reply.redirect(`${back}?notice=${update.name}`, 303);
  };

  app.post(
    '/admin/:key/edit',
    { schema: { params: KeyParams, body: DerivedFormBody }, ...ADMIN_ROUTE, preHandler: adminPostGate(app) },
    saveEdit,
  );
  app.post(
    '/admin/:key/:id/edit',
    { schema: { params: Params, body: DerivedFormBody }, ...ADMIN_ROUTE, preHandler: adminPostGate(app) },
    saveEdit,
  );

  app.get(
    '/admin/:key/:id/edit',
    { schema: { params: Params }, ...ADMIN_ROUTE, preHandler: adminGate() },
    async (request, reply) => {
      const resource = resourceOf(request);
      return resource ? editScreen(request, reply, resource, request.params.id) : reply.callNotFound();
    },
  );

  app.get(
    '/admin/:key/:id',
    { schema: { params: Params }, ...ADMIN_ROUTE, preHandler: adminGate() },
    async (request, reply) => {
      const resource = resourceOf(request);
      const get = op(resource?.get);
      if (!resource || !get || get.route.args.params.length !== 1) return reply.callNotFound();
      const id = request.params.id;
      const answer = await deps.call(request, get.name, { id });
      if (answer.status !== 200) return reply.callNotFound();
      const object = answer.body;
      const here = `/admin/${resource.key}/${encodeURIComponent(id)}`;
      const { actions, children } = objectOperations(deps.operations, resource);
      const buttons: ActionButton[] = actions
        .filter((tool) => allowedInState(tool.name, object))
        .map((tool) => {
          const onlyId = tool.route.args.params.length === 1 && bodyFields(tool).every((f) => !f.required);
          const direct = onlyId && bodyFields(tool).length === 0;
          const query = new URLSearchParams({
            id,
            return_to:
              tool.route.method === 'DELETE' && tool.route.args.params.length === 1 ? `/admin/${resource.key}` : here,
          });
          // A new order is given in the course builder, by moving things (operation-pages.ts sends there too).
          const builder =
            tool.name === 'reorderSections' ? id : tool.name === 'reorderLessons' ? object.course_id : undefined;
          return {
            name: tool.name,
            label: operationWords(tool.name).button,
            direct,
            href:
              typeof builder === 'string'
                ? `/admin/courses/${encodeURIComponent(builder)}/curriculum`
                : `/admin/operations/${tool.name}${direct ? '' : `?${query}`}`,
            danger: needsConfirmation(tool),
          };
        });
      const lists: SafeHtml[] = [];
      const childRows: { child: OperationTool; data: Row[] }[] = [];
      for (const child of children) {
        const rows = await deps.call(request, child.name, { id });
        if (rows.status === 200 && Array.isArray(rows.body.data))
          childRows.push({ child, data: rows.body.data as Row[] });
      }
      const view = await valueViewFor(deps, request, [object, childRows.map((c) => c.data)], link, resource.key);
      for (const { child, data } of childRows) {
        const naming = ['title', 'name', 'course_title', 'email', 'number', 'user_id', 'code', 'kind'];
        const first = data[0] ?? {};
        const named = naming.find((n) => n in first);
        const shape = (k: string) =>
          typeof first[k] !== 'object' || first[k] === null || 'amount' in (first[k] as object);
        const columns = Object.keys(first)
          .filter((k) => k !== named && !['id', 'body', 'description'].includes(k) && !isHiddenField(k))
          .filter((k) => first[k] !== id && shape(k))
          .slice(0, 5);
        lists.push(
          html`<section><h2>${listHeading(child.name) ?? fieldLabel(child.name)}</h2>${rowsTable({
            rows: data,
            title: naming,
            columns,
            href: (row) => (typeof row.id === 'string' ? link(row.id) : undefined),
            view,
          })}</section>`,
        );
      }
      const edit = html`<ul class="actions">${op(resource.update) ? html`<li><a class="button" href="${here}/edit">Edit</a></li>` : ''}${screensOf(
        resource,
        object,
      ).map(
        (screen) => html`<li><a class="button secondary" href="${here}/${screen.path}">${screen.label}</a></li>`,
      )}</ul>`;
      const body = html`${edit}${actionBar(
        buttons.map((b) => (b.direct ? { ...b, href: `${b.href}?${new URLSearchParams({ id })}` } : b)),
        reply.generateCsrf(),
        here,
      )}${objectFacts(object, view)}${(resource.markdown ?? [])
        .filter((f) => typeof object[f] === 'string' && object[f] !== '')
        .map(
          (f) =>
            html`<section class="rendered"><h2>${fieldLabel(f, [resource.key])}, as the site shows it</h2>${markdownHtml(String(object[f]))}</section>`,
        )}${Object.entries(object)
        .filter(
          ([, v]) => Array.isArray(v) && v.length > 0 && v.every((item) => typeof item === 'object' && item !== null),
        )
        .map(
          ([key, v]) =>
            html`<section><h2>${fieldLabel(key, [resource.key])}</h2>${rowsTable({
              rows: v as Row[],
              title: ['title', 'name', 'label', 'email', 'user', 'filename', 'item_type'],
              columns: Object.keys((v as Row[])[0] ?? {}).slice(0, 6),
              href: () => undefined,
              view,
            })}</section>`,
        )}${lists}`;
      const named = rowName(object, resource.title) !== 'Unnamed';
      const kind = resource.singular.charAt(0).toUpperCase() + resource.singular.slice(1);
      return page(request, reply, {
        title: named ? `${kind}: ${rowName(object, resource.title)}` : kind,
        current: resource.key,
        notice: noticeOf(request),
        body,
      });
    },
  );
}
