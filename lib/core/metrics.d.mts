import type { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The pattern of `pathname` for the `route` label. */
export function routeLabel(pathname: string): string;

export interface Metrics {
  registry: Registry;
  requests: Counter<'route' | 'status'>;
  latency: Histogram<'route'>;
  upstreamAttempts: Counter<'upstream'>;
  upstreamFailures: Counter<'upstream' | 'kind'>;
  responseCache: Counter<'result'>;
  openStreams: Gauge;
  kvErrors: Counter<'kind'>;
  recordWrites: Counter<'what' | 'result'>;
}

/** The process's one set of metrics. */
export function metrics(): Metrics;
