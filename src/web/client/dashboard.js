// Draws the dashboard's charts with Chart.js (served by the school at /assets/vendor/chart.umd.js) from the JSON the
// page carries in <script type="application/json" id="dashboard-data">. No inline script: the CSP allows only
// scripts of the school's own origin. Each table under a chart holds the same figures for those who cannot see it.
/* global Chart */
(() => {
  const source = document.getElementById('dashboard-data');
  if (!source || typeof Chart === 'undefined') return;
  const data = JSON.parse(source.textContent || '{}');
  const root = getComputedStyle(document.documentElement);
  const colour = (name, fallback) => root.getPropertyValue(name).trim() || fallback;
  const palette = [colour('--primary', '#1d4ed8'), colour('--accent', '#c2410c'), '#2e7d32', '#6d28d9', '#0f766e'];
  const text = colour('--text', '#1f2937');
  Chart.defaults.color = text;

  const money = (currency, digits) => {
    const format = new Intl.NumberFormat(data.locale, { style: 'currency', currency, maximumFractionDigits: digits });
    return (value) => format.format(value);
  };

  for (const chart of data.charts || []) {
    const canvas = document.getElementById(chart.id);
    if (!canvas) continue;
    const currencies = chart.datasets.filter((d) => d.currency);
    // One axis format for every line: the first currency's (amounts of several currencies share the scale).
    const formatTick = currencies.length ? money(currencies[0].currency, 0) : (value) => value;
    new Chart(canvas, {
      type: chart.type,
      data: {
        labels: chart.labels,
        datasets: chart.datasets.map((d, i) => ({
          label: d.label,
          data: d.values.map((v) => (d.currency ? v / 10 ** d.digits : v)),
          borderColor: palette[i % palette.length],
          backgroundColor: palette[i % palette.length],
          pointRadius: chart.labels.length > 60 ? 0 : 2,
          cubicInterpolationMode: 'monotone',
        })),
      },
      options: {
        animation: false,
        responsive: true,
        maintainAspectRatio: false,
        interaction: { mode: 'index', intersect: false },
        scales: {
          y: { beginAtZero: true, ticks: { precision: 0, callback: formatTick } },
          x: { ticks: { autoSkip: true, maxRotation: 0 } },
        },
        plugins: {
          legend: { display: currencies.length > 1 },
          tooltip: {
            callbacks: {
              label: (item) => {
                const d = chart.datasets[item.datasetIndex];
                return d.currency ? `${d.label}: ${money(d.currency, d.digits)(item.parsed.y)}` : `${item.parsed.y}`;
              },
            },
          },
        },
      },
    });
    canvas.dataset.drawn = 'true';
  }
})();
