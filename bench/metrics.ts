/**
 * npm run bench:metrics — `/metrics` scraped every half second while 16 connections load the catalog (the API list
 * and the public page) for BENCH_DURATION_S × 5 seconds, on SQLite (and PostgreSQL when configured): how long a scrape
 * takes under load, and whether its figures agree with what the load generator counted.
 */
import autocannon from 'autocannon';
import { DURATION_S, withSchool } from './load.ts';
import { benchEngines } from './support.ts';

const TOKEN = 'bench-metrics-token-0123456789abcdef';
const CONNECTIONS = 16;
const SECONDS = DURATION_S * 5;

/** The value of one series, summed over the series whose labels contain `having`. */
const sum = (text: string, name: string, having = '') =>
  text
    .split('\n')
    .filter((l) => l.startsWith(`${name}{`) || l.startsWith(`${name} `))
    .filter((l) => l.includes(having))
    .reduce((total, l) => total + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);

/** A quantile from a Prometheus histogram's cumulative buckets (the upper bound of the bucket it falls in). */
function quantile(text: string, name: string, having: string, q: number) {
  const buckets = text
    .split('\n')
    .filter((l) => l.startsWith(`${name}_bucket{`) && l.includes(having))
    .map((l) => ({ le: /le="([^"]+)"/.exec(l)?.[1] ?? '+Inf', count: Number(l.slice(l.lastIndexOf(' ') + 1)) }));
  const total = buckets.at(-1)?.count ?? 0;
  return buckets.find((b) => b.count >= q * total)?.le ?? '+Inf';
}

const rows: string[] = [];
for (const engine of benchEngines()) {
  await withSchool(engine, [{ METRICS_TOKEN: TOKEN }], { courses: 1_000, enrollments: 0 }, async ([server]) => {
    if (!server) return;
    const scrape = () => fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    const before = await (await scrape()).text();
    const scrapes: number[] = [];
    let loading = true;
    const scraping = (async () => {
      while (loading) {
        const started = performance.now();
        await (await scrape()).text();
        scrapes.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 500));
      }
    })();
    const load = (path: string) =>
      autocannon({ url: `${server.url}${path}`, connections: CONNECTIONS / 2, duration: SECONDS });
    const [api, page] = await Promise.all([load('/api/v1/courses'), load('/courses')]);
    loading = false;
    await scraping;
    const after = await (await scrape()).text();
    const counted = (route: string) =>
      sum(after, 'lyceum_http_requests_total', `route="${route}"`) -
      sum(before, 'lyceum_http_requests_total', `route="${route}"`);
    const sorted = [...scrapes].sort((a, b) => a - b);
    const hits = sum(after, 'lyceum_cache_lookups_total', 'result="hit"');
    const lookups = sum(after, 'lyceum_cache_lookups_total');
    rows.push(
      `| ${engine} | ${api.requests.total} / ${counted('/api/v1/courses')} | ${page.requests.total} / ${counted('/courses')} | ` +
        `${quantile(after, 'lyceum_http_request_duration_seconds', 'route="/api/v1/courses"', 0.99)} s | ` +
        `${((100 * hits) / Math.max(1, lookups)).toFixed(1)} % | ${scrapes.length} | ` +
        `${sorted[Math.floor(sorted.length / 2)]?.toFixed(1)} ms | ${sorted.at(-1)?.toFixed(1)} ms |`,
    );
  });
}
console.log(`node ${process.version}, ${new Date().toISOString()}, ${CONNECTIONS} connections for ${SECONDS} s\n`);
console.log(
  '| engine | API list: sent / counted | page: sent / counted | API list p99 (histogram bucket) | cache hits | scrapes | scrape p50 | scrape max |',
);
console.log('|---|---|---|---|---|---|---|---|');
console.log(rows.join('\n'));
