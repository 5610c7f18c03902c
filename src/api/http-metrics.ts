/**
 * HTTP request metrics: a counter of answers by method, route, HTTP status and venue code
 * (`bourse_http_requests_total`) and a latency histogram by method and route
 * (`bourse_http_request_duration_seconds`), fed once per answered request by the edge
 * (src/api/app.ts), whichever HTTP/1.1 layer parsed it (node:http or the fast path).
 *
 * Invariants: a label value is never taken from the request as sent. The route label is the
 * route's template (`/admin/v1/accounts/:uid`, never the uid), every path no route serves is
 * `unmatched`, and an unmatched request's method is one of a fixed few or `OTHER`, so no
 * client can create series by sending random URLs or methods. Status and code come from the
 * answer, and the venue's codes are a fixed table (src/api/error-map.ts).
 *
 * Cost on the request path: two Map lookups keyed by the route object and the status, one by
 * the code, a number added to, and one histogram observation on a label child bound when the
 * route was first seen. The counts are plain numbers moved into the prom-client counter when
 * it is scraped (its `collect`), so counting allocates nothing.
 */
import { Counter, Histogram, type Registry } from 'prom-client';

/** What the edge answered: the route served (null: no route matched), status, code, duration. */
export interface HttpMetrics {
  record(route: RouteKey | null, method: string, status: number, code: string, durationMs: number): void;
}

/** A route as metrics see it: its method and path template (a `Route` is one). */
export interface RouteKey {
  readonly method: string;
  readonly path: string;
}

export const UNMATCHED_ROUTE = 'unmatched';

/** Seconds; order entry answers in about a millisecond, a history read in a few. */
export const HTTP_DURATION_BUCKETS_SECONDS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5,
];

/** Methods an unmatched request is labelled with; any other is OTHER. */
const KNOWN_METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);

interface Tally {
  readonly labels: { method: string; route: string; status: string; code: string };
  count: number;
  published: number;
}

interface RouteSeries {
  readonly method: string;
  readonly route: string;
  readonly duration: { observe(seconds: number): void };
  /** Status → code → tally. */
  readonly outcomes: Map<number, Map<string, Tally>>;
}

export function createHttpMetrics(registry: Registry): HttpMetrics {
  const byRoute = new Map<RouteKey, RouteSeries>();
  const unmatched = new Map<string, RouteSeries>();
  const tallies: Tally[] = [];
  new Counter({
    name: 'bourse_http_requests_total',
    help: 'HTTP requests answered, by method, route template, HTTP status and venue code.',
    labelNames: ['method', 'route', 'status', 'code'],
    registers: [registry],
    collect() {
      for (const tally of tallies) {
        if (tally.count === tally.published) continue;
        this.inc(tally.labels, tally.count - tally.published);
        tally.published = tally.count;
      }
    },
  });
  const duration = new Histogram({
    name: 'bourse_http_request_duration_seconds',
    help: 'Time from a request being parsed to its answer being handed to the socket, by method and route template.',
    labelNames: ['method', 'route'],
    buckets: HTTP_DURATION_BUCKETS_SECONDS,
    registers: [registry],
  });

  const seriesOf = (method: string, route: string): RouteSeries => ({
    method,
    route,
    duration: duration.labels(method, route),
    outcomes: new Map(),
  });

  const tallyOf = (series: RouteSeries, status: number, code: string): Tally => {
    let byCode = series.outcomes.get(status);
    if (!byCode) {
      byCode = new Map();
      series.outcomes.set(status, byCode);
    }
    let tally = byCode.get(code);
    if (!tally) {
      const labels = { method: series.method, route: series.route, status: String(status), code };
      tally = { labels, count: 0, published: 0 };
      byCode.set(code, tally);
      tallies.push(tally);
    }
    return tally;
  };

  return {
    record(route, method, status, code, durationMs) {
      let series: RouteSeries | undefined;
      if (route) {
        series = byRoute.get(route);
        if (!series) {
          series = seriesOf(route.method, route.path);
          byRoute.set(route, series);
        }
      } else {
        const known = KNOWN_METHODS.has(method) ? method : 'OTHER';
        series = unmatched.get(known);
        if (!series) {
          series = seriesOf(known, UNMATCHED_ROUTE);
          unmatched.set(known, series);
        }
      }
      series.duration.observe(durationMs / 1000);
      tallyOf(series, status, code).count += 1;
    },
  };
}
