import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A span as an OTLP/HTTP JSON export carries it, its attributes and its resource's made plain values. */
export type ReceivedSpan = {
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  kind: number;
  status: { code?: number };
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
};

type AnyValue = {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: number | string;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
};
type KeyValue = { key: string; value: AnyValue };
type ExportRequest = {
  resourceSpans?: {
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: { spans?: (Omit<ReceivedSpan, 'attributes' | 'resource'> & { attributes?: KeyValue[] })[] }[];
  }[];
};

const plain = (value: AnyValue): unknown =>
  value.stringValue ??
  value.boolValue ??
  (value.intValue !== undefined ? Number(value.intValue) : undefined) ??
  value.doubleValue ??
  value.arrayValue?.values?.map(plain);

const record = (attributes: KeyValue[] = []) => Object.fromEntries(attributes.map((kv) => [kv.key, plain(kv.value)]));

/**
 * An OpenTelemetry collector's OTLP/HTTP receiver for traces, as far as a test needs one: it takes JSON exports at
 * `/v1/traces` (as the collector does, 200 and an empty partial-success answer) and keeps every span and the headers
 * each export came with. Listens on `port` when given (to come up where a school was already sending).
 */
export async function startOtlpCollector(port = 0) {
  const spans: ReceivedSpan[] = [];
  const exports: IncomingHttpHeaders[] = [];
  let arrived = () => {};
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v1/traces') {
        response.writeHead(404).end();
        return;
      }
      if (!/^application\/json/.test(request.headers['content-type'] ?? '')) {
        response.writeHead(415).end();
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as ExportRequest;
      exports.push(request.headers);
      for (const resourceSpans of body.resourceSpans ?? [])
        for (const scope of resourceSpans.scopeSpans ?? [])
          for (const span of scope.spans ?? [])
            spans.push({
              ...span,
              parentSpanId: span.parentSpanId || undefined,
              attributes: record(span.attributes),
              resource: record(resourceSpans.resource?.attributes),
            });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      arrived();
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    spans,
    /** The headers of every export received. */
    exports,
    /** Resolves once a span `matches` has arrived; rejects after `timeoutMs`. */
    async spanWhere(matches: (span: ReceivedSpan) => boolean, timeoutMs = 5_000): Promise<ReceivedSpan> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = spans.find(matches);
        if (found) return found;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no such span arrived within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          arrived = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
