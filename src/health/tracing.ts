import type { Config } from '../config.ts';
import type { Engine } from '../db/tables.ts';
import type { Tracing, TracingLog } from './traces.ts';

export type { Tracing } from './traces.ts';

/**
 * Where spans are sent, by OTLP/HTTP's rule: the traces endpoint as given, else the general endpoint with `/v1/traces`
 * added to its path; undefined when neither is set.
 */
export function tracesUrl(
  config: Pick<Config, 'OTEL_EXPORTER_OTLP_ENDPOINT' | 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'>,
): string | undefined {
  if (config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (config.OTEL_EXPORTER_OTLP_ENDPOINT) return `${config.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`;
  return undefined;
}

/** Traces when an endpoint is configured; otherwise undefined, and no part of OpenTelemetry is even loaded. */
export async function startTracing(
  config: Config,
  deps: { engine: Engine; version: string; log: TracingLog },
): Promise<Tracing | undefined> {
  const url = tracesUrl(config);
  if (!url) return undefined;
  const { otlpTracing } = await import('./traces.ts');
  return otlpTracing({ url, ...deps });
}
