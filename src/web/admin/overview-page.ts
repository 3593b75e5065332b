import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Metric, Series } from '../../areas/analytics/schema.ts';
import { html, type SafeHtml } from '../../text/html.ts';
import { ADMIN_ROUTE, type AdminDeps, adminGate, adminLink, adminPage, doneNotice } from './admin-context.ts';
import { type DashboardData, dashboardMetrics } from './dashboard-view.ts';
import { moneyWords } from './form-kit/money.ts';
import { valueViewFor } from './id-names.ts';
import { rowsTable } from './screens-view.ts';

type Row = Record<string, unknown>;
type Point = { value?: number; values?: { amount: number; currency: string }[] };

const RECENT = 5;

/**
 * The admin's first screen: the last 30 days in figures, then what just happened — orders, students, form
 * submissions — and the events coming up, each block read through the API's own operations and linked to its list.
 * The charts are drawn as on /dashboard (its range and interval links lead there).
 */
export type DashboardCharts = { style: string; charts: (data: DashboardData) => SafeHtml };

export function registerOverviewPage(app: FastifyInstance, deps: AdminDeps & { dashboard: DashboardCharts }) {
  const page = adminPage(deps);
  const link = adminLink(deps.operations);

  const rows = async (request: FastifyRequest, name: string, args: Row) => {
    if (!deps.operations.has(name)) return [];
    const answer = await deps.call(request, name, args);
    return answer.status === 200 ? ((answer.body.data ?? []) as Row[]) : [];
  };

  async function figure(request: FastifyRequest, metric: string): Promise<string> {
    const answer = await deps.call(request, 'getAnalyticsSeries', { metric });
    if (answer.status !== 200) return '—';
    const points = (answer.body.series ?? []) as Point[];
    if (points.every((p) => p.value !== undefined)) return String(points.reduce((sum, p) => sum + (p.value ?? 0), 0));
    const totals = new Map<string, number>();
    for (const p of points)
      for (const v of p.values ?? []) totals.set(v.currency, (totals.get(v.currency) ?? 0) + v.amount);
    const { locale } = await deps.clock(request);
    return totals.size ? [...totals].map(([c, a]) => moneyWords(a, c, locale)).join(' + ') : '0';
  }

  /** The newest submissions across the school's forms. */
  async function submissions(request: FastifyRequest) {
    const forms = await rows(request, 'listForms', { limit: 20 });
    const all: Row[] = [];
    for (const form of forms)
      for (const s of await rows(request, 'listFormSubmissions', { id: form.id, limit: RECENT }))
        all.push({ ...s, form: form.title, form_id: form.id });
    return all.sort((a, b) => String(b.id).localeCompare(String(a.id))).slice(0, RECENT);
  }

  const block = (title: string, more: string, body: SafeHtml) =>
    html`<section class="overview-block"><h2>${title}</h2>${body}<p><a href="${more}">All ${title.toLowerCase()}</a></p></section>`;

  app.get('/admin', { ...ADMIN_ROUTE, preHandler: adminGate() }, async (request, reply) => {
    const [enrollments, completions, revenue, newMembers] = await Promise.all(
      ['enrollments', 'completions', 'revenue', 'new_members'].map((m) => figure(request, m)),
    );
    const [school, ...series] = await Promise.all([
      deps.call(request, 'getSchool', {}),
      ...dashboardMetrics().map((metric) => deps.call(request, 'getAnalyticsSeries', { metric })),
    ]);
    const charts = series.every((s) => s.status === 200)
      ? deps.dashboard.charts({
          interval: 'day',
          range: '30d',
          locale: String(school.body.locale ?? 'en'),
          series: new Map(series.map((s) => [s.body.metric as Metric, s.body as unknown as Series])),
        })
      : html``;
    const [orders, students, events, forms] = await Promise.all([
      rows(request, 'listOrders', { limit: RECENT }),
      rows(request, 'listStudents', { limit: RECENT }),
      rows(request, 'listEvents', { when: 'upcoming', limit: RECENT }),
      submissions(request),
    ]);
    const view = await valueViewFor(deps, request, [orders, events], link);
    const body = html`<section aria-labelledby="figures"><h2 id="figures">The last 30 days</h2>
<dl class="figures">
<div><dt>Enrollments</dt><dd>${enrollments}</dd></div>
<div><dt>Completions</dt><dd>${completions}</dd></div>
<div><dt>Revenue</dt><dd>${revenue}</dd></div>
<div><dt>New members</dt><dd>${newMembers}</dd></div>
</dl></section>
${charts}
<div class="overview">
${block(
  'Orders',
  '/admin/orders',
  rowsTable({
    rows: orders,
    title: ['number'],
    columns: ['customer', 'total', 'status', 'created_at'],
    href: (row) => link(String(row.id)),
    view: { ...view, resource: 'orders' },
  }),
)}
${block(
  'Students',
  '/admin/students',
  rowsTable({
    rows: students,
    title: ['name', 'email'],
    columns: ['email', 'created_at'],
    href: (row) => link(String(row.id)),
    view: { ...view, resource: 'students' },
  }),
)}
${block(
  'Form submissions',
  '/admin/forms',
  rowsTable({
    rows: forms,
    title: ['email', 'id'],
    columns: ['form', 'created_at'],
    href: (row) => `/admin/forms/${encodeURIComponent(String(row.form_id))}`,
    view: { ...view, resource: 'forms' },
  }),
)}
${block(
  'Upcoming events',
  '/admin/events',
  rowsTable({
    rows: events,
    title: ['title'],
    columns: ['starts_at', 'capacity', 'status'],
    href: (row) => link(String(row.id)),
    view: { ...view, resource: 'events' },
  }),
)}
</div>`;
    return page(request, reply, {
      title: 'Overview',
      body,
      notice: doneNotice(deps, request),
      head: html`<link rel="stylesheet" href="${deps.dashboard.style}">`,
    });
  });
}
