import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { parse } from 'csv-parse/sync';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { csvLine } from '../../areas/csv.ts';
import { html } from '../../text/html.ts';
import { csrfField } from '../shared/layout.ts';
import { DerivedFormBody, IdParams } from '../shared/page-schemas.ts';
import { ADMIN_ROUTE, type AdminDeps, adminGate, adminPage, adminPostGate, one, refusal } from './admin-context.ts';
import { fieldLabel } from './vocabulary/words.ts';

/** The most rows one import takes (the API's bulk enrollment limit). */
const MOST_ROWS = 1000;
const COURSE_ID = /^crs_[0-9a-z]{26}$/;

type Job = {
  id: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed';
  progress: { done: number; total: number };
  results: { row: number; status: string; student_id?: string; error?: string }[];
};

/**
 * Students from a CSV file: a header row naming `email` and, optionally, `name` and `course` (an id, a slug or the
 * exact title; else the course chosen on the form). The rows go to the API's bulkEnrollStudents as one job; its page
 * follows the progress (reloading itself every two seconds while the job runs — no script needed) and ends with a
 * report per row, also as CSV. With a script, choosing a file fills the text box; without one, paste the file's text.
 */
/** A row's refusal as the API words it ("email: not an e-mail address."), its field named as the admin names it. */
const reasonWords = (error: string | undefined) => {
  const said = error ? /^([a-z_]+): (.*)$/s.exec(error) : null;
  return said ? `${fieldLabel(said[1] ?? '')}: ${said[2]}` : (error ?? '');
};

export function registerStudentsImport(fastify: FastifyInstance, deps: AdminDeps) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const page = adminPage(deps);

  async function courses(request: FastifyRequest) {
    const all: { id: string; slug: string; title: string }[] = [];
    let after: string | undefined;
    do {
      const answer = await deps.call(request, 'listCourses', {
        limit: 100,
        ...(after ? { starting_after: after } : {}),
      });
      if (answer.status !== 200) break;
      all.push(...(answer.body.data as typeof all));
      after = answer.body.has_more ? String(answer.body.next_cursor) : undefined;
    } while (after && all.length < 1000);
    return all;
  }

  async function form(
    request: FastifyRequest,
    reply: FastifyReply,
    refused?: { message: string; csv: string; course: string },
  ) {
    const list = await courses(request);
    const body = html`${refused ? html`<div class="error" role="alert"><p>${refused.message}</p></div>` : ''}
<p>The first row names the columns: <code>email</code>, and if you like <code>name</code> and <code>course</code> (its
address name or title). Up to ${MOST_ROWS} rows. New people are invited to choose a password.</p>
<form method="post" action="/admin/students/import" class="admin-form" data-csv-import>${csrfField(reply.generateCsrf())}
<div class="field"><label for="csv-file">A CSV file</label><small class="hint" id="csv-file-hint">Choosing a file puts its text in the box below.</small>
<input type="file" id="csv-file" accept=".csv,text/csv" aria-describedby="csv-file-hint"></div>
<div class="field"><label for="f-csv">The rows</label><small class="hint" id="f-csv-hint">Or paste the file's text here.</small>
<textarea id="f-csv" name="csv" rows="10" required aria-describedby="f-csv-hint">${refused?.csv ?? 'email,name\n'}</textarea></div>
<div class="field"><label for="f-course">Course, for rows that name none</label><select id="f-course" name="course"><option value="">—</option>${list.map(
      (c) => html`<option value="${c.id}"${refused?.course === c.id ? html` selected` : ''}>${c.title}</option>`,
    )}</select></div>
<p><button type="submit">Import</button></p></form>`;
    return page(request, reply, { title: 'Import students', current: 'students', body, status: refused ? 400 : 200 });
  }

  app.get('/admin/students/import', { ...ADMIN_ROUTE, preHandler: adminGate() }, (request, reply) =>
    form(request, reply),
  );

  app.post(
    '/admin/students/import',
    { schema: { body: DerivedFormBody }, ...ADMIN_ROUTE, preHandler: adminPostGate(app) },
    async (request, reply) => {
      const csv = String(one(request.body?.csv) ?? '');
      const course = String(one(request.body?.course) ?? '');
      const refuse = (message: string) => form(request, reply, { message, csv, course });
      let records: Record<string, string>[];
      try {
        records = parse(csv, {
          columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()),
          skip_empty_lines: true,
          trim: true,
          bom: true,
        });
      } catch (error) {
        return refuse(`The text is not CSV that can be read: ${(error as Error).message}`);
      }
      if (records.length === 0) return refuse('There are no rows under the header.');
      if (!('email' in (records[0] ?? {}))) return refuse('The first row must name an "email" column.');
      if (records.length > MOST_ROWS) return refuse(`At most ${MOST_ROWS} rows at a time; this has ${records.length}.`);
      const known = await courses(request);
      const courseOf = (value: string | undefined) => {
        const v = (value ?? '').trim();
        if (!v) return course;
        if (COURSE_ID.test(v)) return v;
        return known.find((c) => c.slug === v || c.title.toLowerCase() === v.toLowerCase())?.id ?? v;
      };
      const rows = records.map((r) => ({
        email: r.email ?? '',
        ...(r.name ? { name: r.name } : {}),
        course_id: courseOf(r.course),
      }));
      if (rows.some((r) => !r.course_id)) return refuse('Some rows name no course: add a course column or choose one.');
      const answer = await deps.call(request, 'bulkEnrollStudents', { rows });
      if (answer.status >= 300) return refuse(refusal(answer).message);
      return reply.redirect(`/admin/students/import/${encodeURIComponent(String(answer.body.id))}`, 303);
    },
  );

  async function job(request: FastifyRequest & { params: { id: string } }) {
    const answer = await deps.call(request, 'getBulkEnrollment', { id: request.params.id });
    return answer.status === 200 ? (answer.body as unknown as Job) : undefined;
  }

  app.get(
    '/admin/students/import/:id',
    { schema: { params: IdParams }, ...ADMIN_ROUTE, preHandler: adminGate() },
    async (request, reply) => {
      const found = await job(request);
      if (!found) return reply.callNotFound();
      const running = found.status === 'queued' || found.status === 'running';
      const { done, total } = found.progress;
      const counts = new Map<string, number>();
      for (const r of found.results) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
      const body = html`<p><progress id="import-progress" max="${String(total)}" value="${String(done)}" aria-label="Import progress"></progress>
<span role="status">${running ? `${done} of ${total} rows done…` : `Finished: ${done} of ${total} rows.`}</span></p>
${
  running
    ? html`<p class="meta">This page follows the import by itself.</p>`
    : html`<p>${[...counts].map(([status, n]) => `${n} ${status.replaceAll('_', ' ')}`).join(' · ')}</p>
<p><a class="button" href="/admin/students/import/${found.id}/report.csv" download>Download the report (CSV)</a> <a href="/admin/students">Back to the students</a></p>
<div class="table-wrap"><table><thead><tr><th scope="col">Row</th><th scope="col">Outcome</th><th scope="col">Reason</th></tr></thead><tbody>${found.results.map(
        (r) =>
          html`<tr><td>${String(r.row + 2)}</td><td>${r.status.replaceAll('_', ' ')}</td><td>${reasonWords(r.error)}</td></tr>`,
      )}</tbody></table></div>`
}`;
      return page(request, reply, {
        title: 'Importing students',
        current: 'students',
        body,
        ...(running ? { refresh: 2 } : {}),
      });
    },
  );

  app.get(
    '/admin/students/import/:id/report.csv',
    { schema: { params: IdParams }, ...ADMIN_ROUTE, preHandler: adminGate() },
    async (request, reply) => {
      const found = await job(request);
      if (!found) return reply.callNotFound();
      const lines = [
        csvLine(['row', 'outcome', 'student_id', 'reason']),
        ...found.results.map((r) => csvLine([r.row + 2, r.status, r.student_id ?? null, r.error ?? null])),
      ];
      return reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="import-${found.id}.csv"`)
        .header('cache-control', 'no-store')
        .send(lines.join(''));
    },
  );
}
