import type { Interval } from '../../areas/analytics/buckets.ts';
import type { Metric, Series } from '../../areas/analytics/schema.ts';
import { html, SafeHtml } from '../../text/html.ts';
import { formatMoney } from '../../text/money.ts';

export const DASHBOARD_RANGES = ['30d', '90d', '12m', '3y'] as const;
export type DashboardRange = (typeof DASHBOARD_RANGES)[number];

const RANGE_LABELS: Record<DashboardRange, string> = {
  '30d': '30 days',
  '90d': '90 days',
  '12m': '12 months',
  '3y': '3 years',
};
const INTERVAL_LABELS: Record<Interval, string> = { day: 'Day', week: 'Week', month: 'Month' };
const BUCKET_HEADINGS: Record<Interval, string> = { day: 'Day', week: 'Week of', month: 'Month' };

/** What each chart shows, in the order of the page; `latest`: the figure is a level (the last bucket's), not a sum. */
const CHARTS: { metric: Metric; title: string; about: string; latest?: boolean }[] = [
  { metric: 'revenue', title: 'Revenue', about: 'Charges minus refunds, per currency.' },
  { metric: 'enrollments', title: 'Enrollments', about: 'Enrollments made, however they came about.' },
  { metric: 'completions', title: 'Completions', about: 'Enrollments completed.' },
  {
    metric: 'active_students',
    title: 'Active students',
    about: 'People who completed at least one lesson.',
    latest: true,
  },
  { metric: 'new_members', title: 'New members', about: 'People whose subscription started (trials included).' },
  { metric: 'churned_members', title: 'Churned members', about: 'People whose subscription was canceled.' },
  {
    metric: 'mrr',
    title: 'Monthly recurring revenue',
    about: 'What paying subscriptions bring in per month, a yearly price as a twelfth; trials excluded.',
    latest: true,
  },
];

export const dashboardMetrics = (): Metric[] => CHARTS.map((c) => c.metric);

export type DashboardData = {
  interval: Interval;
  range: DashboardRange;
  /** The school's locale, for dates and amounts. */
  locale: string;
  /** One series per metric of dashboardMetrics(). */
  series: Map<Metric, Series>;
  /** Why the page shows another interval than the one asked for. */
  note?: string;
};

export const dashboardPath = (interval: Interval, range: DashboardRange) =>
  `/dashboard?interval=${interval}&range=${range}`;

function dateFormats(locale: string, interval: Interval, manyYears = false) {
  const at = (options: Intl.DateTimeFormatOptions) => {
    const format = new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' });
    return (date: string) => format.format(new Date(`${date}T00:00:00Z`));
  };
  return interval === 'month'
    ? { long: at({ month: 'long', year: 'numeric' }), short: at({ month: 'short', year: 'numeric' }) }
    : {
        long: at({ dateStyle: 'medium' }),
        short: at({ month: 'short', day: 'numeric', ...(manyYears ? { year: '2-digit' } : {}) }),
      };
}

/** The digits a currency's minor unit has (EUR 2, JPY 0). */
const digitsOf = (currency: string) =>
  new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;

/** JSON inside a <script type="application/json">: nothing in it may close the element or open a comment. */
const scriptJson = (value: unknown) =>
  new SafeHtml(
    JSON.stringify(value)
      .replace(/</g, '\\u003c')
      .replace(/>/g, '\\u003e')
      .replace(/&/g, '\\u0026')
      .replace(/\u2028/g, '\\u2028')
      .replace(/\u2029/g, '\\u2029'),
  );

function switches(data: DashboardData): SafeHtml {
  const link = (label: string, href: string, current: boolean) =>
    html`<li><a href="${href}"${current ? html` aria-current="page"` : ''}>${label}</a></li>`;
  return html`<nav class="switches" aria-label="Dashboard range">
<p>By</p><ul aria-label="Interval">${(['day', 'week', 'month'] as const).map((interval) =>
    link(INTERVAL_LABELS[interval], dashboardPath(interval, data.range), interval === data.interval),
  )}</ul>
<p>Last</p><ul aria-label="Range">${DASHBOARD_RANGES.map((range) =>
    link(RANGE_LABELS[range], dashboardPath(data.interval, range), range === data.range),
  )}</ul>
</nav>`;
}

/**
 * The owner's dashboard: a chart per figure, drawn in the browser by Chart.js from the JSON at the end of the page,
 * and under each chart the same figures as a table (what screen readers and browsers without JavaScript get).
 */
export function dashboardView(data: DashboardData): SafeHtml {
  const first = data.series.values().next().value;
  const dates = dateFormats(data.locale, data.interval, first?.from.slice(0, 4) !== first?.to.slice(0, 4));
  const days = dateFormats(data.locale, 'day');
  const charts: unknown[] = [];
  const sections = CHARTS.map((chart) => {
    const series = data.series.get(chart.metric);
    if (!series) return '';
    const labels = series.series.map((p) => dates.short(p.start));
    const id = `chart-${chart.metric}`;
    const head = series.series[0];
    const currencies = head && 'values' in head ? head.values.map((v) => v.currency) : [];
    const money = currencies.length > 0;
    const column = (i: number) =>
      series.series.map((p) => ('values' in p ? (p.values[i]?.amount ?? 0) : 'value' in p ? p.value : 0));
    charts.push({
      id,
      // Flows (what happened in each bucket) as bars; a level (recurring revenue) as a line.
      type: chart.metric === 'mrr' ? 'line' : 'bar',
      labels,
      datasets: money
        ? currencies.map((currency, i) => ({
            label: currency,
            currency,
            digits: digitsOf(currency),
            values: column(i),
          }))
        : [{ label: chart.title, values: column(0) }],
    });
    const headline = money
      ? currencies
          .map((currency, i) => {
            const values = column(i);
            const amount = chart.latest ? (values.at(-1) ?? 0) : values.reduce((sum, v) => sum + v, 0);
            return formatMoney({ amount, currency }, data.locale);
          })
          .join(' · ')
      : String(chart.latest ? (column(0).at(-1) ?? 0) : column(0).reduce((sum, v) => sum + v, 0));
    const headlineLabel = chart.latest ? `Latest ${data.interval}` : 'In this range';
    return html`<section class="chart" aria-labelledby="${id}-title">
<h2 id="${id}-title">${chart.title}</h2>
<p class="meta">${chart.about} ${headlineLabel}: <strong>${headline}</strong></p>
<div class="chart-box"><canvas id="${id}" role="img" aria-label="${chart.title} by ${data.interval}; the figures are in the table below"></canvas></div>
<details><summary>${chart.title} as a table</summary>
<table><thead><tr><th scope="col">${BUCKET_HEADINGS[data.interval]}</th>${
      money ? currencies.map((c) => html`<th scope="col">${c}</th>`) : html`<th scope="col">${chart.title}</th>`
    }</tr></thead><tbody>${series.series.map(
      (p) =>
        html`<tr><th scope="row">${dates.long(p.start)}</th>${
          'values' in p
            ? p.values.map((v) => html`<td>${formatMoney(v, data.locale)}</td>`)
            : html`<td>${'value' in p ? p.value : 0}</td>`
        }</tr>`,
    )}</tbody></table>
</details>
</section>`;
  });
  return html`${switches(data)}
${data.note ? html`<p class="notice">${data.note}</p>` : ''}
${first ? html`<p class="meta">From ${days.long(first.from)} to ${days.long(first.to)}, in the school's time zone (${first.timezone}).</p>` : ''}
<div class="charts">${sections}</div>
<script type="application/json" id="dashboard-data">${scriptJson({ locale: data.locale, charts })}</script>`;
}
