/**
 * npm run bench:traces — what OpenTelemetry traces cost a request: two server processes on the same school (1,000
 * courses), one without an OTLP endpoint and one sending every span to a receiver in this process, measured
 * interleaved with the floors (see load.ts) on the catalog list's first page (mostly the micro-cache) and on a
 * different cursor each request (a query, so a query span, every time). The receiver counts what it took.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { benchEachEngine, CONNECTIONS, floorRows, loadRow, measureTable, withSchool } from './load.ts';

/** An OTLP/HTTP receiver that takes every export and counts its spans without keeping them. */
async function countingReceiver() {
  let spans = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      spans += Buffer.concat(chunks).toString('utf8').split('"spanId"').length - 1;
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    spans: () => spans,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const receiver = await countingReceiver();
const pick = <T>(values: T[]) => values[Math.floor(Math.random() * values.length)];
try {
  await benchEachEngine(async (engine, bare) =>
    withSchool(
      engine,
      [{}, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url }],
      { courses: 1_000, enrollments: 0 },
      async (servers, people) => {
        const cursors = people.courseIds.slice(1, -20);
        const rows = servers.flatMap((server, n) => {
          const suffix = n === 0 ? ', no traces' : ', traced';
          const list = `${server.url}/api/v1/courses`;
          return [
            loadRow(`courses, first page${suffix}`, server.pid, list),
            loadRow(
              `courses, a different cursor each request${suffix}`,
              server.pid,
              list,
              {},
              () => `/api/v1/courses?starting_after=${pick(cursors)}`,
            ),
          ];
        });
        const table = await measureTable(
          `${engine} — 1,000 courses, ${CONNECTIONS} connections`,
          floorRows(servers[0] as (typeof servers)[0], bare),
          rows,
        );
        return `${table}\nspans received so far: ${receiver.spans().toLocaleString('en')}\n`;
      },
    ),
  );
} finally {
  await receiver.close();
}
