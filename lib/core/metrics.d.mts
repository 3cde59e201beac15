/** The pattern of `pathname` for the `route` label. */
export function routeLabel(pathname: string): string;

type Labels = Record<string, string>;

/** A family as prom-client's registry reads it (`registerMetric`): name, help, type and `get()`. */
export interface MetricFamily {
  readonly name: string;
  readonly help: string;
  readonly type: 'counter' | 'gauge' | 'histogram';
  readonly aggregator: 'sum';
  get(): Promise<{ name: string; help: string; type: string; aggregator: string; values: { metricName?: string; labels: Labels; value: number }[] }>;
  reset(): void;
}

export interface Counter extends MetricFamily {
  inc(labels?: Labels, n?: number): void;
}
export interface Gauge extends MetricFamily {
  set(value: number, labels?: Labels): void;
}
export interface Histogram extends MetricFamily {
  observe(labels: Labels, value: number): void;
}

export interface Metrics {
  requests: Counter;
  latency: Histogram;
  upstreamAttempts: Counter;
  upstreamFailures: Counter;
  responseCache: Counter;
  openStreams: Gauge;
  seriesCache: Gauge;
  alerts: Gauge;
  alertEvents: Gauge;
  kvErrors: Counter;
  recordWrites: Counter;
}

/** The process's one set of metrics. */
export function metrics(): Metrics;
