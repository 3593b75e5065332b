import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { html } from '../../text/html.ts';
import { DerivedFormBody, IdParams } from '../shared/page-schemas.ts';
import { ADMIN_ROUTE, adminGate, adminPostGate, refusal } from './admin-context.ts';
import { type DripRow, dripEditorView } from './drip-editor-view.ts';
import { type EditorDeps, editorPage } from './editor-page.ts';
import { type PostedForm, postedText } from './form-kit/form-values.ts';
import { zoneInstant, zoneWall } from './form-kit/school-time.ts';

type Section = {
  id: string;
  course_id: string;
  title: string;
  drip: { type: string; days: number | null; date: string | null };
};
type Problem = { box: 'days' | 'date' | 'type'; message: string };
type Scope = { sections: Section[]; action: string; backPath: string; backLabel: string; title: string };

/** A section's release as the API takes it (DripInput), from its boxes; undefined boxes are left for the API to ask. */
function dripInput(row: DripRow, zone: string): Record<string, unknown> {
  if (row.type === 'days_after_enrollment')
    return {
      type: row.type,
      ...(row.days.trim() ? { days: /^\d+$/.test(row.days.trim()) ? Number(row.days) : row.days } : {}),
    };
  if (row.type === 'on_date')
    return {
      type: row.type,
      ...(row.date ? { date: zoneInstant(row.date, row.time || '00:00', zone) ?? row.date } : {}),
    };
  return { type: row.type };
}

const sameDrip = (a: Record<string, unknown>, b: Section['drip']) =>
  a.type === b.type &&
  (a.type !== 'days_after_enrollment' || a.days === b.days) &&
  (a.type !== 'on_date' || (typeof a.date === 'string' && Date.parse(a.date) === Date.parse(b.date ?? '')));

/** The API's refusal of one section's release, in words, beside the box it is about. */
function problemOf(errors: { field: string; message: string }[], message: string): Problem {
  const field = errors[0]?.field ?? '';
  if (field === 'drip.days') return { box: 'days', message: 'Give a whole number of days, from 1 to 3650.' };
  if (field === 'drip.date') return { box: 'date', message: 'Choose the day it opens.' };
  return { box: 'type', message };
}

/**
 * When sections open to a student (drip), for a whole course at /admin/courses/:id/drip or one section at
 * /admin/sections/:id/drip. Each changed section is saved with updateSection, so the rules are the API's; dates are
 * typed and shown on the school's clock (getSchool's time zone) and sent as the UTC instant they mean.
 */
export function registerDripEditor(fastify: FastifyInstance, deps: EditorDeps) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const page = editorPage(deps);

  async function courseScope(request: FastifyRequest, id: string): Promise<Scope | undefined> {
    const course = await deps.call(request, 'getCourse', { id });
    const sections = course.status === 200 ? await deps.call(request, 'listSections', { id }) : undefined;
    if (sections?.status !== 200) return undefined;
    const path = `/admin/courses/${encodeURIComponent(id)}`;
    return {
      sections: sections.body.data as Section[],
      action: `${path}/drip`,
      backPath: path,
      backLabel: 'Back to the course',
      title: `When sections open: ${String(course.body.title || 'Untitled course')}`,
    };
  }

  async function sectionScope(request: FastifyRequest, id: string): Promise<Scope | undefined> {
    const section = await deps.call(request, 'getSection', { id });
    if (section.status !== 200) return undefined;
    const path = `/admin/sections/${encodeURIComponent(id)}`;
    return {
      sections: [section.body as Section],
      action: `${path}/drip`,
      backPath: path,
      backLabel: 'Back to the section',
      title: `When it opens: ${String(section.body.title || 'Untitled section')}`,
    };
  }

  const rowOf = (s: Section, zone: string): DripRow => ({
    id: s.id,
    title: s.title,
    type: s.drip.type,
    days: s.drip.days === null ? '' : String(s.drip.days),
    ...(s.drip.date ? zoneWall(s.drip.date, zone) : { date: '', time: '09:00' }),
  });
  const postedRow = (s: Section, form: PostedForm): DripRow => ({
    id: s.id,
    title: s.title,
    type: postedText(form, `${s.id}.type`) || s.drip.type,
    days: postedText(form, `${s.id}.days`),
    date: postedText(form, `${s.id}.date`),
    time: postedText(form, `${s.id}.time`),
  });

  async function screen(
    request: FastifyRequest,
    reply: FastifyReply,
    scope: Scope,
    refused?: { rows: DripRow[]; problems: Map<string, Problem>; saved: number },
  ) {
    const { zone } = await deps.clock(request);
    const query = request.query as Record<string, unknown> | undefined;
    return page(request, reply, {
      title: scope.title,
      current: 'courses',
      status: refused ? 400 : undefined,
      notice: query && 'saved' in query ? 'Saved when the sections open.' : undefined,
      body: html`${
        refused
          ? html`<div class="error" role="alert"><p>${
              refused.saved ? `${refused.saved} saved; ` : ''
            }${refused.problems.size === 1 ? 'one section was' : `${refused.problems.size} sections were`} not saved: see below.</p></div>`
          : ''
      }${dripEditorView({
        action: scope.action,
        backPath: scope.backPath,
        backLabel: scope.backLabel,
        zone,
        rows: refused?.rows ?? scope.sections.map((s) => rowOf(s, zone)),
        problems: refused?.problems ?? new Map(),
        csrf: reply.generateCsrf(),
      })}`,
    });
  }

  async function save(request: FastifyRequest & { body: PostedForm }, reply: FastifyReply, scope: Scope) {
    const { zone } = await deps.clock(request);
    const form = request.body ?? {};
    const rows = scope.sections.map((s) => postedRow(s, form));
    const problems = new Map<string, Problem>();
    let saved = 0;
    for (const [i, row] of rows.entries()) {
      const drip = dripInput(row, zone);
      const section = scope.sections[i] as Section;
      if (sameDrip(drip, section.drip)) continue;
      const answer = await deps.call(request, 'updateSection', { id: row.id, drip });
      if (answer.status < 300) saved++;
      else {
        const { message, problems: fields } = refusal(answer);
        problems.set(row.id, problemOf(fields, message));
      }
    }
    if (problems.size) return screen(request, reply, scope, { rows, problems, saved });
    return reply.redirect(`${scope.action}?saved=1`, 303);
  }

  const get = { schema: { params: IdParams }, ...ADMIN_ROUTE, preHandler: adminGate() };
  const post = { schema: { params: IdParams, body: DerivedFormBody }, ...ADMIN_ROUTE, preHandler: adminPostGate(app) };
  for (const [kind, scopeOf] of [
    ['courses', courseScope],
    ['sections', sectionScope],
  ] as const) {
    app.get(`/admin/${kind}/:id/drip`, get, async (request, reply) => {
      const scope = await scopeOf(request, request.params.id);
      return scope ? screen(request, reply, scope) : reply.callNotFound();
    });
    app.post(`/admin/${kind}/:id/drip`, post, async (request, reply) => {
      const scope = await scopeOf(request, request.params.id);
      return scope ? save(request, reply, scope) : reply.callNotFound();
    });
  }
}
