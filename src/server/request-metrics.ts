// Request figures for /metrics, recorded once per request by the app (app.ts) for whichever
// service answered. The hot path only bumps numbers a service's recorder holds in typed
// arrays: no label object, string or closure per request. prom-client's own inc/observe build
// a label hash string and an object on every call (about 1 µs a request for a counter and a
// histogram, against about 10 ns here), so prom-client only reads these numbers when /metrics
// is scraped and writes the text format: it is loaded then, as serving needs none of it (its
// import was about 70 ms of a start of 400 on Bun). Touched only from the event loop.

import type { Metric, Registry } from 'prom-client';
import type { ServiceCounter } from './service.js';

type PromClient = typeof import('prom-client');

/** Latency bucket upper bounds in seconds: 100 µs to 10 s, 1-2.5-5 per decade. */
const BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** The `method` label: the HTTP methods the services take, anything else as `other`. */
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'other'];
/** The `code` label: the status class. */
const CODES = ['1xx', '2xx', '3xx', '4xx', '5xx'];

/** The requests one service answered. */
export class ServiceRecorder {
  /** Request counts by [method][status class], flattened. */
  readonly requests = new Float64Array(METHODS.length * CODES.length);
  /** Answers with a status of 400 or more. */
  errors = 0;
  /** Latency counts per bucket, not cumulative; the last one is +Inf. */
  readonly buckets = new Float64Array(BUCKETS.length + 1);
  seconds = 0;

  constructor(readonly service: string) {}

  record(method: string, status: number, seconds: number): void {
    const code = status < 200 ? 0 : status >= 500 ? 4 : ((status / 100) | 0) - 1;
    this.requests[methodIndex(method) * CODES.length + code]++;
    if (status >= 400) this.errors++;
    let b = 0;
    while (b < BUCKETS.length && seconds > BUCKETS[b]) b++;
    this.buckets[b]++;
    this.seconds += seconds;
  }
}

function methodIndex(method: string): number {
  switch (method) {
    case 'GET': return 0;
    case 'HEAD': return 1;
    case 'POST': return 2;
    case 'PUT': return 3;
    case 'PATCH': return 4;
    case 'DELETE': return 5;
    case 'OPTIONS': return 6;
    default: return 7;
  }
}

/** One service's totals; `buckets` are latency counts per bucket (not cumulative), the last +Inf. */
export interface ServiceFigures {
  readonly service: string;
  readonly requests: number;
  readonly errors: number;
  /** Bucket upper bounds in seconds. */
  readonly bounds: readonly number[];
  readonly buckets: readonly number[];
  readonly seconds: number;
}

/** Every service's recorder, and the counters and gauges services add, exposed at a scrape. */
export class RequestMetrics {
  private readonly recorders = new Map<string, ServiceRecorder>();
  private readonly counters: { readonly service: string; readonly counter: ServiceCounter }[] = [];
  private readonly gauges: { readonly name: string; readonly help: string; readonly read: () => number }[] = [];

  /** The recorder of the service named `service`; made on first use. */
  recorder(service: string): ServiceRecorder {
    let r = this.recorders.get(service);
    if (r === undefined) this.recorders.set(service, (r = new ServiceRecorder(service)));
    return r;
  }

  /** Every service's figures so far, as plain numbers (the web console's live charts). */
  figures(): ServiceFigures[] {
    return [...this.recorders.values()].map((r) => ({
      service: r.service,
      requests: r.requests.reduce((a, b) => a + b, 0),
      errors: r.errors,
      bounds: BUCKETS,
      buckets: [...r.buckets],
      seconds: r.seconds,
    }));
  }

  /** A counter the service keeps itself (see ServiceCounter). */
  addCounter(service: string, counter: ServiceCounter): void {
    this.counters.push({ service, counter });
  }

  /** A gauge without labels, read when /metrics is scraped. */
  addGauge(name: string, help: string, read: () => number): void {
    this.gauges.push({ name, help, read });
  }

  /** The text exposition and its content type: process figures first, then Larder's. */
  async exposition(): Promise<{ contentType: string; text: string }> {
    const prom = await import('prom-client');
    const registry = this.registry(prom);
    return { contentType: registry.contentType, text: (await processRegistry(prom).metrics()) + (await registry.metrics()) };
  }

  /** A registry reading the figures as they are now (one per scrape: each metric reads them when collected). */
  private registry({ Counter, Gauge, Registry }: PromClient): Registry {
    const registry = new Registry();
    const recorders = this.recorders;
    new Counter({
      name: 'larder_http_requests_total',
      help: 'HTTP requests answered, by service, method and status class.',
      labelNames: ['service', 'method', 'code'],
      registers: [registry],
      collect() {
        for (const r of recorders.values()) {
          r.requests.forEach((n, i) => {
            if (n > 0) this.inc({ service: r.service, method: METHODS[(i / CODES.length) | 0], code: CODES[i % CODES.length] }, n);
          });
        }
      },
    });
    new Counter({
      name: 'larder_http_request_errors_total',
      help: 'HTTP requests answered with a status of 400 or more, by service.',
      labelNames: ['service'],
      registers: [registry],
      collect() {
        for (const r of recorders.values()) this.inc({ service: r.service }, r.errors);
      },
    });
    // prom-client's Histogram cannot be filled from counts, so this one is a metric of the
    // shape its registry reads (what `Metric.get()` returns): one series per service.
    registry.registerMetric({
      name: 'larder_http_request_duration_seconds',
      help: 'Time from the request to its response headers (a stream is timed to its start), by service.',
      type: 'histogram',
      aggregator: 'sum',
      get: async () => ({
        name: 'larder_http_request_duration_seconds',
        help: 'Time from the request to its response headers (a stream is timed to its start), by service.',
        type: 'histogram',
        aggregator: 'sum',
        values: [...recorders.values()].flatMap(histogramValues),
      }),
      reset() {},
    } as unknown as Metric);
    for (const { service, counter: c } of this.counters) {
      new Counter({
        name: `larder_${service}_${c.name}_total`,
        help: c.help,
        labelNames: [c.label],
        registers: [registry],
        collect() {
          for (const [value, n] of c.read()) this.inc({ [c.label]: value }, n);
        },
      });
    }
    for (const { name, help, read } of this.gauges) {
      new Gauge({
        name,
        help,
        registers: [registry],
        collect() {
          this.set(read());
        },
      });
    }
    return registry;
  }
}

function histogramValues(r: ServiceRecorder) {
  const name = 'larder_http_request_duration_seconds';
  const values: { labels: Record<string, string | number>; value: number; metricName: string }[] = [];
  let cumulative = 0;
  for (let b = 0; b <= BUCKETS.length; b++) {
    cumulative += r.buckets[b];
    values.push({ labels: { service: r.service, le: b < BUCKETS.length ? BUCKETS[b] : '+Inf' }, value: cumulative, metricName: `${name}_bucket` });
  }
  values.push({ labels: { service: r.service }, value: r.seconds, metricName: `${name}_sum` });
  values.push({ labels: { service: r.service }, value: cumulative, metricName: `${name}_count` });
  return values;
}

let processFigures: Registry | undefined;

/**
 * prom-client's default metrics (CPU, memory, open files, event loop lag, heap) describe the
 * process, not one Larder, so one registry holds them for every Larder the process starts.
 */
function processRegistry({ Registry, collectDefaultMetrics }: PromClient): Registry {
  if (processFigures === undefined) {
    processFigures = new Registry();
    collectDefaultMetrics({ register: processFigures });
  }
  return processFigures;
}
