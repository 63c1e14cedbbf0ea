// Requests per second, error counts and latency percentiles per service, polled from
// /console/api/metrics every second and plotted over the last five minutes. Rates and
// percentiles come from the difference between two polls.

import { useEffect, useState } from 'preact/hooks';
import type uPlot from 'uplot';
import type { ConsoleMetrics } from '../wire';
import { adminGet, errorText } from './api';
import { Chart } from './chart';
import { FieldError } from './field-error';
import { quantile } from './percentiles';

const POLL_MS = 1000;
/** Points kept: five minutes at one a second. */
const KEEP = 300;

/** A service's figures between two polls; latencies in seconds, null without requests. */
interface Figures {
  readonly rps: number;
  readonly errors: number;
  readonly p50: number | null;
  readonly p95: number | null;
  readonly p99: number | null;
}

/** One poll's figures per service, derived from it and the poll before. */
interface Point {
  /** Seconds since the epoch (uPlot's time scale). */
  readonly t: number;
  readonly byService: ReadonlyMap<string, Figures>;
}

function derive(prev: ConsoleMetrics, next: ConsoleMetrics): Point {
  const dt = Math.max(0.001, (next.at - prev.at) / 1000);
  const byService = new Map<string, Figures>();
  for (const s of next.services) {
    // A service nobody has called yet only adds a flat line.
    if (s.requests === 0) continue;
    const before = prev.services.find((p) => p.service === s.service);
    const counts = s.buckets.map((n, i) => n - (before?.buckets[i] ?? 0));
    byService.set(s.service, {
      rps: (s.requests - (before?.requests ?? 0)) / dt,
      errors: s.errors - (before?.errors ?? 0),
      p50: quantile(0.5, s.bounds, counts),
      p95: quantile(0.95, s.bounds, counts),
      p99: quantile(0.99, s.bounds, counts),
    });
  }
  return { t: next.at / 1000, byService };
}

function series(points: readonly Point[], services: readonly string[], figure: keyof Figures, scale = 1): uPlot.AlignedData {
  return [points.map((p) => p.t), ...services.map((s) => points.map((p) => {
    const v = p.byService.get(s)?.[figure];
    return v === undefined || v === null ? null : v * scale;
  }))];
}

export function MetricsPage() {
  const [points, setPoints] = useState<Point[]>([]);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let last: ConsoleMetrics | null = null;
    let stopped = false;
    async function poll() {
      try {
        const next = await adminGet<ConsoleMetrics>('metrics');
        if (last !== null) {
          const point = derive(last, next);
          setPoints((prev) => [...prev, point].slice(-KEEP));
        }
        last = next;
        setError(null);
      } catch (e) {
        setError(errorText(e));
      }
      if (!stopped) timer = setTimeout(poll, POLL_MS);
    }
    let timer = setTimeout(poll, 0);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, []);

  const latest = points[points.length - 1];
  const services = latest === undefined ? [] : [...latest.byService.keys()].sort();
  const ms = (v: number | null | undefined) => (v === null || v === undefined ? '–' : `${(v * 1000).toFixed(2)} ms`);
  return (
    <div class="metrics-page">
      <FieldError error={error} />
      {latest === undefined ? (
        <p class="empty">Collecting the first figures…</p>
      ) : (
        <>
          <table class="entries" aria-label="Current figures">
            <thead>
              <tr>
                <th>service</th>
                <th>requests/s</th>
                <th>errors</th>
                <th>p50</th>
                <th>p95</th>
                <th>p99</th>
              </tr>
            </thead>
            <tbody>
              {services.map((s) => {
                const f = latest.byService.get(s)!;
                return (
                  <tr>
                    <td>{s}</td>
                    <td>{f.rps.toFixed(1)}</td>
                    <td>{f.errors}</td>
                    <td>{ms(f.p50)}</td>
                    <td>{ms(f.p95)}</td>
                    <td>{ms(f.p99)}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <div class="charts">
            <Chart title="Requests per second" unit="req/s" series={services} data={series(points, services, 'rps')} />
            <Chart title="Errors (status ≥ 400) per poll" unit="errors" series={services} data={series(points, services, 'errors')} />
            <Chart title="Latency p50 (ms)" unit="ms" series={services} data={series(points, services, 'p50', 1000)} />
            <Chart title="Latency p99 (ms)" unit="ms" series={services} data={series(points, services, 'p99', 1000)} />
          </div>
        </>
      )}
    </div>
  );
}
