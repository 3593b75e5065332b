import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isStaff } from '../../http/principal.ts';
import type { OperationAnswer } from '../../operations/operation-calls.ts';
import { html, type SafeHtml } from '../../text/html.ts';
import type { FieldProblem } from '../shared/layout.ts';
import type { OwnAsset } from '../shared/own-assets.ts';
import type { PageWriter } from '../shared/page-context.ts';
import { signInGate } from '../shared/sign-in-gate.ts';
import { viewerPrincipal } from '../shared/viewer.ts';
import { availableResources, type OperationIndex, resourceOfId } from './catalog.ts';
import type { AdminCall } from './form-kit/calls.ts';
import type { SchoolClock } from './form-kit/school-time.ts';
import { adminShell } from './shell-view.ts';
import { operationWords } from './vocabulary/words.ts';

export type AdminDeps = {
  operations: OperationIndex;
  call: AdminCall;
  write: PageWriter;
  /** The admin's stylesheet and script, served by the school itself. */
  assets: { style: OwnAsset; script: OwnAsset };
  /** The school's time zone and language, in which times are shown and typed. */
  clock: (request: FastifyRequest) => Promise<SchoolClock>;
};

/** Page routes of the admin: never cached, and (like every page) told apart from API routes by `page`. */
export const ADMIN_ROUTE = { config: { page: true } } as const;

/**
 * Who may see the admin: staff and the owner. A signed-out visitor is sent to sign in and back; a student gets the
 * 404 page, as for every object they may not see.
 */
export const adminGate =
  (pageOf?: (request: FastifyRequest) => string) => async (request: FastifyRequest, reply: FastifyReply) => {
    await signInGate(pageOf)(request, reply);
    if (reply.sent) return reply;
    if (!isStaff(viewerPrincipal(request.viewer))) return reply.callNotFound();
  };

/** The gate of a form post: the page to come back to after signing in is the form's own page. */
export const adminPostGate = (app: FastifyInstance) => [
  adminGate((request) => (request.url.split('?')[0] ?? '/admin').replace(/\/(new|edit)$/, '') || '/admin'),
  app.csrfProtection,
];

export function adminPage(deps: AdminDeps) {
  const head = html`<link rel="stylesheet" href="${deps.assets.style.href}"><script src="${deps.assets.script.href}" defer></script>`;
  return async (
    request: FastifyRequest,
    reply: FastifyReply,
    opts: {
      title: string;
      body: SafeHtml;
      current?: string;
      notice?: string;
      status?: number;
      /** Reload the page after this many seconds (a job's progress, followed without a script). */
      refresh?: number;
      /** More for <head> (a screen's own stylesheet). */
      head?: SafeHtml;
    },
  ) =>
    reply
      .code(opts.status ?? 200)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(
        await deps.write(
          request,
          opts.title,
          adminShell({ resources: availableResources(deps.operations), current: opts.current }, opts.body, opts.notice),
          {
            head: html`${head}${opts.head ?? ''}${
              opts.refresh ? html`<meta http-equiv="refresh" content="${String(opts.refresh)}">` : ''
            }`,
            path: request.url,
          },
        ),
      );
}

/** Where an id is shown in the admin (a course id links to the course), by the id's prefix. */
export const adminLink = (operations: OperationIndex) => (id: string) => {
  const resource = resourceOfId(operations, id);
  return resource?.get ? `/admin/${resource.key}/${encodeURIComponent(id)}` : undefined;
};

const API_HINT = / ?\((GET|POST|PATCH|PUT|DELETE) \/api\/[^)]*\)/g;

/** A refusal of the API as the admin shows it: its sentence above the form and its field errors beside the fields. */
export function refusal(answer: OperationAnswer): { message: string; problems: FieldProblem[] } {
  const body = answer.body as { error_description?: string; errors?: { field: string; message: string }[] };
  if (answer.status >= 500) return { message: 'Something went wrong on our side; try again.', problems: [] };
  return {
    // The API's sentences point an integrator at the call that mends them ("(PATCH /api/v1/lessons/les_…)"); a
    // person is pointed at the form instead.
    message: (body.error_description ?? 'The request was refused.').replace(API_HINT, ''),
    problems: (body.errors ?? []).map((e) => ({ field: e.field, message: e.message })),
  };
}

/** A return address inside the admin only, so a posted `return_to` cannot send anyone elsewhere. */
export const adminReturn = (value: unknown, fallback: string) =>
  typeof value === 'string' && /^\/admin(\/[\w\-/.%?=&]*)?$/.test(value) && !value.includes('//') ? value : fallback;

export const one = (value: unknown) => (Array.isArray(value) ? value[0] : value);

/** The notice of a form saved as it was: no call is made, as an update must change something. */
export const UNCHANGED = 'unchanged';

/** The line a screen shows after an operation succeeded (`?notice=<operationId>`; only known operations are named). */
export function doneNotice(deps: Pick<AdminDeps, 'operations'>, request: FastifyRequest): string | undefined {
  const { query } = request;
  const name = typeof query === 'object' && query !== null && 'notice' in query ? one(query.notice) : undefined;
  if (name === UNCHANGED) return 'Nothing was changed.';
  const tool = typeof name === 'string' ? deps.operations.get(name) : undefined;
  return tool ? operationWords(tool.name).done : undefined;
}
