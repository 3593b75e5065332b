import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html } from '../../text/html.ts';
import { DerivedFormBody, IdParams } from '../shared/page-schemas.ts';
import { ADMIN_ROUTE, type AdminDeps, adminGate, adminPage, adminPostGate, refusal } from './admin-context.ts';
import { type AttendanceRow, attendanceView } from './event-attendance-view.ts';

const MOST = 1000;

/**
 * An event's attendance as a checklist of its seat holders: staff tick who came and save once; the list and the save
 * are the API's listEventRegistrations and recordEventAttendance.
 */
export function registerEventAttendance(fastify: FastifyInstance, deps: AdminDeps) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const page = adminPage(deps);

  async function seatHolders(request: FastifyRequest, id: string) {
    const rows: AttendanceRow[] = [];
    let after: string | undefined;
    do {
      const answer = await deps.call(request, 'listEventRegistrations', {
        id,
        status: 'registered',
        limit: 100,
        ...(after ? { starting_after: after } : {}),
      });
      if (answer.status !== 200) return undefined;
      rows.push(...(answer.body.data as AttendanceRow[]));
      after = answer.body.has_more ? (answer.body.next_cursor as string) : undefined;
    } while (after && rows.length < MOST);
    return rows;
  }

  async function screen(
    request: FastifyRequest & { params: { id: string } },
    reply: FastifyReply,
    refused?: { message: string; status: number },
  ) {
    const id = request.params.id;
    const event = await deps.call(request, 'getEvent', { id });
    const rows = event.status === 200 ? await seatHolders(request, id) : undefined;
    if (!rows) return reply.callNotFound();
    return page(request, reply, {
      title: `Attendance: ${String(event.body.title)}`,
      current: 'events',
      status: refused?.status,
      notice:
        typeof request.query === 'object' && request.query !== null && 'saved' in request.query
          ? 'Attendance saved.'
          : undefined,
      body: html`${refused ? html`<div class="error" role="alert"><p>${refused.message}</p></div>` : ''}${attendanceView(
        {
          eventPath: `/admin/events/${encodeURIComponent(id)}`,
          rows,
          csrf: reply.generateCsrf(),
        },
      )}`,
    });
  }

  app.get(
    '/admin/events/:id/attendance',
    { schema: { params: IdParams }, ...ADMIN_ROUTE, preHandler: adminGate() },
    screen,
  );

  app.post(
    '/admin/events/:id/attendance',
    { schema: { params: IdParams, body: DerivedFormBody }, ...ADMIN_ROUTE, preHandler: adminPostGate(app) },
    async (request, reply) => {
      const shown = [request.body?.shown ?? []].flat().filter((v): v is string => typeof v === 'string');
      const came = new Set([request.body?.attended ?? []].flat());
      if (shown.length === 0)
        return reply.redirect(`/admin/events/${encodeURIComponent(request.params.id)}/attendance`, 303);
      const answer = await deps.call(request, 'recordEventAttendance', {
        id: request.params.id,
        records: shown.map((registration_id) => ({ registration_id, attended: came.has(registration_id) })),
      });
      if (answer.status >= 300)
        return screen(request, reply, { message: refusal(answer).message, status: answer.status });
      return reply.redirect(`/admin/events/${encodeURIComponent(request.params.id)}/attendance?saved=1`, 303);
    },
  );
}
