import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import Type from 'typebox';
import {
  addDays,
  addMonths,
  bucketStartOf,
  type Interval,
  MAX_BUCKETS,
  nextBucket,
} from '../../areas/analytics/buckets.ts';
import type { Metric, Series } from '../../areas/analytics/schema.ts';
import type { AnalyticsService } from '../../areas/analytics/service.ts';
import type { Areas } from '../../areas/index.ts';
import { isStaff } from '../../http/principal.ts';
import { html, type SafeHtml } from '../../text/html.ts';
import { type OwnAsset, ownAsset, serveAssets } from '../shared/own-assets.ts';
import type { PageWriter } from '../shared/page-context.ts';
import { PageQuery } from '../shared/page-schemas.ts';
import { schoolFacts } from '../shared/site-deps.ts';
import { viewerPrincipal } from '../shared/viewer.ts';
import {
  DASHBOARD_RANGES,
  type DashboardData,
  type DashboardRange,
  dashboardMetrics,
  dashboardPath,
  dashboardView,
} from './dashboard-view.ts';

/** Chart.js's browser build, straight from the installed package (no copy in the repository, no CDN). */
function chartJs(): OwnAsset {
  const dist = dirname(createRequire(import.meta.url).resolve('chart.js'));
  const { version } = JSON.parse(readFileSync(join(dist, '..', 'package.json'), 'utf8')) as { version: string };
  const body = readFileSync(join(dist, 'chart.umd.min.js'));
  return { body, type: 'text/javascript; charset=utf-8', href: `/assets/vendor/chart.umd.js?v=${version}` };
}

/** The first day of each range, counted back from today so that the range ends with today's bucket. */
function rangeStart(range: DashboardRange, today: string, interval: Interval): string {
  const back =
    range === '30d'
      ? addDays(today, -29)
      : range === '90d'
        ? addDays(today, -89)
        : addDays(addMonths(today, range === '12m' ? -12 : -36), 1);
  // Whole buckets only: a range starting mid-week or mid-month starts with the next one.
  const start = bucketStartOf(back, interval);
  return start === back ? start : nextBucket(start, interval);
}

/** The intervals a range can be drawn by (a series by day covers at most MAX_BUCKETS.day days). */
function intervalFor(range: DashboardRange, asked: Interval, today: string): Interval {
  if (asked !== 'day') return asked;
  const days = (Date.parse(today) - Date.parse(rangeStart(range, today, 'day'))) / 86_400_000 + 1;
  return days > MAX_BUCKETS.day ? 'week' : 'day';
}

/**
 * The owner's dashboard at /dashboard: charts of revenue, enrollments, completions, active students, new and churned
 * members and recurring revenue, by day, week or month over a range chosen with plain links. Staff and the owner see
 * it; a signed-out visitor is sent to sign in, a student gets the 404 page. The figures are the analytics area's,
 * read as the signed-in person.
 */
export function registerDashboardPage(
  fastify: FastifyInstance,
  deps: { analytics: AnalyticsService; school: Areas['school']; write: PageWriter },
) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const script = ownAsset('dashboard.js', 'text/javascript; charset=utf-8');
  const style = ownAsset('dashboard.css', 'text/css; charset=utf-8');
  const chart = chartJs();
  serveAssets(app, [script, style, chart]);
  /** The charts' markup followed by the scripts that draw them (served by the school). */
  const withCharts = (body: SafeHtml) => html`${body}
<script src="${chart.href}"></script>
<script src="${script.href}"></script>`;

  // A range or interval the page never links to is a 400 page, like any malformed query.
  const querystring = PageQuery({
    range: Type.Optional(Type.Enum([...DASHBOARD_RANGES])),
    interval: Type.Optional(Type.Enum(['day', 'week', 'month'])),
  });
  app.get('/dashboard', { config: { page: true }, schema: { querystring } }, async (request, reply) => {
    if (!request.viewer) return reply.redirect(`/signin?return_to=${encodeURIComponent('/dashboard')}`, 303);
    const principal = viewerPrincipal(request.viewer);
    if (!isStaff(principal)) return reply.callNotFound();
    const range = request.query.range ?? '30d';
    const asked = request.query.interval ?? 'day';

    const calendar = await deps.analytics.calendar(principal);
    const { today } = calendar;
    const interval = intervalFor(range, asked, today);
    const from = rangeStart(range, today, interval);
    const [school, ...all] = await Promise.all([
      schoolFacts(deps.school),
      ...dashboardMetrics().map((metric) =>
        deps.analytics.series(principal, { metric, interval, from, to: today }, calendar),
      ),
    ]);
    const series = new Map<Metric, Series>(all.map((s) => [s.metric, s]));
    const body = dashboardView({
      interval,
      range,
      locale: school.locale,
      series,
      note:
        interval === asked
          ? undefined
          : `A series by day covers at most ${MAX_BUCKETS.day} days, so this range is shown by week.`,
    });
    const head = html`<link rel="stylesheet" href="${style.href}">`;
    const page = withCharts(body);
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(await deps.write(request, 'Dashboard', page, { head, path: dashboardPath(interval, range) }));
  });

  return {
    /** The stylesheet the charts need in <head>. */
    style: style.href,
    /** The charts of `data`, drawn by the dashboard's own script: for other pages (the admin's overview). */
    charts: (data: DashboardData) => withCharts(dashboardView(data)),
  };
}
