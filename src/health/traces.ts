import { AsyncLocalStorage } from 'node:async_hooks';
import {
  type Context,
  defaultTextMapGetter,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';
import { ExportResultCode, getNumberFromEnv, getStringFromEnv, W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  ParentBasedSampler,
  type Sampler,
  type SpanExporter,
  TraceIdRatioBasedSampler,
  TracerProvider,
} from '@opentelemetry/sdk-trace';
import {
  ATTR_CLIENT_ADDRESS,
  ATTR_DB_COLLECTION_NAME,
  ATTR_DB_OPERATION_NAME,
  ATTR_DB_QUERY_TEXT,
  ATTR_DB_SYSTEM_NAME,
  ATTR_ERROR_TYPE,
  ATTR_HTTP_REQUEST_METHOD,
  ATTR_HTTP_REQUEST_METHOD_ORIGINAL,
  ATTR_HTTP_RESPONSE_STATUS_CODE,
  ATTR_HTTP_ROUTE,
  ATTR_NETWORK_PEER_ADDRESS,
  ATTR_NETWORK_PROTOCOL_VERSION,
  ATTR_SERVER_ADDRESS,
  ATTR_SERVER_PORT,
  ATTR_SERVICE_NAME,
  ATTR_SERVICE_VERSION,
  ATTR_URL_PATH,
  ATTR_URL_SCHEME,
  ATTR_USER_AGENT_ORIGINAL,
  DB_SYSTEM_NAME_VALUE_POSTGRESQL,
} from '@opentelemetry/semantic-conventions';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Engine } from '../db/tables.ts';
import { redactUrl } from '../http/logging.ts';

/** What the database tells of one query: its statement as sent (placeholders, never the values) and whether it failed. */
export type TracedQuery = { sql: string; failed: boolean };

/** How the traces report to the school's log: a collector that stops taking spans, and that it takes them again. */
export type TracingLog = (level: 'warn' | 'info', message: string, fields: Record<string, unknown>) => void;

/** OpenTelemetry traces of this instance, when an OTLP endpoint is configured. */
export type Tracing = {
  /** A server span per request, continued from an incoming `traceparent`, and its ids on the request's log lines. */
  install(app: FastifyInstance): void;
  /** A child span of the request under way for a query that took `seconds`; nothing outside a request. */
  query(seconds: number, query: TracedQuery): void;
  /** Sends the spans still waiting, within a bound: a collector that is away does not hold up a stop. */
  close(): Promise<void>;
};

/** The span attribute that holds the request id: the log lines' `reqId` and the response's `X-Request-Id`. */
const REQUEST_ID_ATTRIBUTE = 'lyceum.request_id';

/** How long a stop waits for the last spans to be sent. */
const CLOSE_FLUSH_MS = 3_000;

/** The longest attribute value sent: a statement listing a thousand placeholders is cut, not shipped whole. */
const ATTRIBUTE_LENGTH_LIMIT = 4_096;

const HTTP_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH']);

/**
 * Traces over OTLP/HTTP (JSON) with the OpenTelemetry SDK. Nothing is registered globally: the provider, the
 * propagator and the request context belong to this instance, so several schools in one process (the tests) keep
 * their spans apart, and no other library's calls are traced by surprise. Spans wait in a bounded queue and leave
 * in batches in the background, so a slow or absent collector costs a request nothing; when it stops taking them the
 * log says so once, and once more when it takes them again. The SDK's own variables keep working: the exporter reads
 * OTEL_EXPORTER_OTLP_HEADERS, _TIMEOUT, _COMPRESSION and the certificate ones, the resource OTEL_SERVICE_NAME and
 * OTEL_RESOURCE_ATTRIBUTES; OTEL_TRACES_SAMPLER(_ARG) and OTEL_BSP_* are read here.
 */
export function otlpTracing(deps: { url: string; engine: Engine; version: string; log: TracingLog }): Tracing {
  const endpoint = shownUrl(deps.url);
  const exporter = reportingExporter(new OTLPTraceExporter({ url: deps.url }), deps.log, endpoint);
  const provider = new TracerProvider({
    resource: defaultResource()
      .merge(resourceFromAttributes({ [ATTR_SERVICE_NAME]: 'lyceum', [ATTR_SERVICE_VERSION]: deps.version }))
      .merge(detectResources({ detectors: [envDetector] })),
    sampler: samplerFromEnv(),
    spanLimits: { attributeValueLengthLimit: ATTRIBUTE_LENGTH_LIMIT },
    spanProcessors: [
      new BatchSpanProcessor({
        exporter,
        scheduledDelayMillis: getNumberFromEnv('OTEL_BSP_SCHEDULE_DELAY'),
        exportTimeoutMillis: getNumberFromEnv('OTEL_BSP_EXPORT_TIMEOUT'),
        maxQueueSize: getNumberFromEnv('OTEL_BSP_MAX_QUEUE_SIZE'),
        maxExportBatchSize: getNumberFromEnv('OTEL_BSP_MAX_EXPORT_BATCH_SIZE'),
      }),
    ],
  });
  const tracer = provider.getTracer('lyceum', deps.version);
  const propagator = new W3CTraceContextPropagator();
  /** The context of the request under way: a query's span is its child. */
  const current = new AsyncLocalStorage<Context>();
  const system = deps.engine === 'postgres' ? DB_SYSTEM_NAME_VALUE_POSTGRESQL : 'sqlite';

  return {
    install(app: FastifyInstance) {
      const spans = new WeakMap<FastifyRequest, { span: Span; context: Context }>();
      app.addHook('onRequest', (request, reply, done) => {
        const parent = propagator.extract(ROOT_CONTEXT, request.headers, defaultTextMapGetter);
        const span = tracer.startSpan(
          spanName(request.method, request.routeOptions.url),
          { kind: SpanKind.SERVER, attributes: requestAttributes(request) },
          parent,
        );
        const context = trace.setSpan(parent, span);
        spans.set(request, { span, context });
        const { traceId, spanId } = span.spanContext();
        request.log = request.log.child({ trace_id: traceId, span_id: spanId });
        reply.log = request.log;
        // Fastify runs the body's parsing in the request's async context, so the handler's queries find it too.
        current.run(context, done);
      });
      const end = (request: FastifyRequest, status: number | undefined) => {
        const traced = spans.get(request);
        if (!traced) return;
        spans.delete(request);
        if (status !== undefined) traced.span.setAttribute(ATTR_HTTP_RESPONSE_STATUS_CODE, status);
        // A server span fails on a 5xx only: a 4xx is the client's error, not the server's (the HTTP conventions).
        if (status === undefined || status >= 500) {
          traced.span.setAttribute(ATTR_ERROR_TYPE, status === undefined ? 'aborted' : String(status));
          traced.span.setStatus({ code: SpanStatusCode.ERROR });
        }
        traced.span.end();
      };
      app.addHook('onResponse', async (request, reply) => end(request, reply.statusCode));
      app.addHook('onRequestAbort', async (request) => end(request, undefined));
    },

    query(seconds: number, query: TracedQuery) {
      const parent = current.getStore();
      if (!parent) return;
      const endTime = performance.timeOrigin + performance.now();
      const { operation, collection } = statementOf(query.sql);
      const span = tracer.startSpan(
        collection ? `${operation} ${collection}` : operation,
        {
          kind: SpanKind.CLIENT,
          startTime: endTime - seconds * 1000,
          attributes: {
            [ATTR_DB_SYSTEM_NAME]: system,
            [ATTR_DB_QUERY_TEXT]: query.sql,
            [ATTR_DB_OPERATION_NAME]: operation,
            ...(collection ? { [ATTR_DB_COLLECTION_NAME]: collection } : {}),
          },
        },
        parent,
      );
      if (query.failed) {
        span.setAttribute(ATTR_ERROR_TYPE, 'query_failed');
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end(endTime);
    },

    async close() {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        provider.shutdown().catch(() => undefined),
        new Promise((resolve) => {
          timer = setTimeout(resolve, CLOSE_FLUSH_MS);
        }),
      ]);
      clearTimeout(timer);
    },
  };
}

/** `GET /api/v1/courses/:id`: the route's pattern, never the path asked for; the method alone when no route matched. */
function spanName(method: string, route: string | undefined) {
  const known = HTTP_METHODS.has(method) ? method : 'HTTP';
  return route ? `${known} ${route}` : known;
}

/**
 * The HTTP server conventions' attributes known when a request arrives. The path is redacted as the log's is, and
 * the query string is left out: it may carry a token, a code or a password reset's secret.
 */
function requestAttributes(request: FastifyRequest) {
  const known = HTTP_METHODS.has(request.method);
  const userAgent = request.headers['user-agent'];
  return {
    [ATTR_HTTP_REQUEST_METHOD]: known ? request.method : '_OTHER',
    ...(known ? {} : { [ATTR_HTTP_REQUEST_METHOD_ORIGINAL]: request.method }),
    ...(request.routeOptions.url ? { [ATTR_HTTP_ROUTE]: request.routeOptions.url } : {}),
    [ATTR_URL_PATH]: redactUrl(request.url.split('?')[0] ?? '/'),
    [ATTR_URL_SCHEME]: request.protocol,
    [ATTR_SERVER_ADDRESS]: request.hostname,
    ...(request.port ? { [ATTR_SERVER_PORT]: request.port } : {}),
    [ATTR_CLIENT_ADDRESS]: request.ip,
    ...(request.socket.remoteAddress ? { [ATTR_NETWORK_PEER_ADDRESS]: request.socket.remoteAddress } : {}),
    [ATTR_NETWORK_PROTOCOL_VERSION]: request.raw.httpVersion,
    ...(userAgent ? { [ATTR_USER_AGENT_ORIGINAL]: userAgent } : {}),
    [REQUEST_ID_ATTRIBUTE]: request.id,
  };
}

/** The statement's verb and, when it names one, its table: `SELECT courses` (Kysely quotes its identifiers). */
function statementOf(sql: string) {
  const verb = /^\s*([a-z]+)/i.exec(sql)?.[1]?.toUpperCase() ?? 'QUERY';
  const table =
    verb === 'WITH' ? undefined : (/\b(?:from|into|update)\s+(?:"?\w+"?\.)?"?(\w+)"?/i.exec(sql)?.[1] ?? undefined);
  return { operation: verb, collection: table };
}

/** The standard sampler variables; unset or unknown: every request, unless an incoming traceparent says otherwise. */
function samplerFromEnv(): Sampler | undefined {
  const ratio = getNumberFromEnv('OTEL_TRACES_SAMPLER_ARG') ?? 1;
  switch (getStringFromEnv('OTEL_TRACES_SAMPLER')) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio);
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
    default:
      return undefined;
  }
}

/** An endpoint as the log may show it: no credentials, no query string. */
function shownUrl(url: string) {
  const parsed = new URL(url);
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
}

/**
 * The exporter, telling the log when the collector stops taking spans (once, whatever the number of batches lost
 * meanwhile) and when it takes them again. Only the failure's message is shown: never the request's headers, which
 * may hold the collector's credentials.
 */
function reportingExporter(exporter: SpanExporter, log: TracingLog, endpoint: string): SpanExporter {
  let failing = false;
  return {
    export(spans, done) {
      exporter.export(spans, (result) => {
        if (result.code === ExportResultCode.SUCCESS) {
          if (failing) log('info', 'Traces reach the collector again', { endpoint });
          failing = false;
        } else if (!failing) {
          failing = true;
          const error = result.error as (Error & { code?: unknown }) | undefined;
          log(
            'warn',
            'Traces cannot be sent to the collector: spans are dropped until it takes them again (requests are not affected)',
            {
              endpoint,
              err: {
                message: error?.message?.replace(/\/\/[^/@\s]*@/g, '//***@'),
                ...(typeof error?.code === 'number' ? { status: error.code } : {}),
              },
            },
          );
        }
        done(result);
      });
    },
    shutdown: () => exporter.shutdown(),
    forceFlush: () => exporter.forceFlush?.() ?? Promise.resolve(),
  };
}
