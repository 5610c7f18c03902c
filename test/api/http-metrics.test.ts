/**
 * HTTP request metrics on a registry of their own: counts by route template, status and code,
 * latency by route, and label values that never come from the request as sent.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Registry } from 'prom-client';
import { createHttpMetrics, UNMATCHED_ROUTE, type RouteKey } from '../../src/api/http-metrics.ts';

const PLACE_ORDER: RouteKey = { method: 'POST', path: '/api/v3/trade/place-order' };
const ACCOUNT: RouteKey = { method: 'GET', path: '/admin/v1/accounts/:uid' };

async function metricValues(registry: Registry, name: string) {
  const metric = (await registry.getMetricsAsJSON()).find((found) => found.name === name);
  assert.ok(metric, `${name} is registered`);
  return (
    metric as unknown as {
      values: { labels: Record<string, string | number>; value: number; metricName?: string }[];
    }
  ).values;
}

test('record when requests are answered counts them by method, route template, status and code', async () => {
  const registry = new Registry();
  const http = createHttpMetrics(registry);
  http.record(PLACE_ORDER, 'POST', 200, '00000', 1.5);
  http.record(PLACE_ORDER, 'POST', 200, '00000', 0.5);
  http.record(PLACE_ORDER, 'POST', 400, '43012', 0.7);
  http.record(ACCOUNT, 'GET', 200, '00000', 3);
  const counts = await metricValues(registry, 'bourse_http_requests_total');
  const count = (route: string, status: string, code: string) =>
    counts.find(
      (value) => value.labels.route === route && value.labels.status === status && value.labels.code === code,
    )?.value;
  assert.equal(count(PLACE_ORDER.path, '200', '00000'), 2);
  assert.equal(count(PLACE_ORDER.path, '400', '43012'), 1);
  assert.equal(count(ACCOUNT.path, '200', '00000'), 1, 'the template, not the uid');
  assert.equal(counts.length, 3);

  http.record(PLACE_ORDER, 'POST', 200, '00000', 1);
  assert.equal(
    (await metricValues(registry, 'bourse_http_requests_total')).find(
      (value) => value.labels.route === PLACE_ORDER.path && value.labels.code === '00000',
    )?.value,
    3,
    'counts made between scrapes are added at the next one',
  );
});

test('record when requests are answered observes their latency in seconds per route', async () => {
  const registry = new Registry();
  const http = createHttpMetrics(registry);
  http.record(PLACE_ORDER, 'POST', 200, '00000', 1.5);
  http.record(PLACE_ORDER, 'POST', 400, '43012', 0.25);
  const values = await metricValues(registry, 'bourse_http_request_duration_seconds');
  const of = (metricName: string, le?: number) =>
    values.find(
      (value) =>
        value.metricName === metricName &&
        value.labels.route === PLACE_ORDER.path &&
        (le === undefined || value.labels.le === le),
    )?.value;
  assert.equal(of('bourse_http_request_duration_seconds_count'), 2);
  assert.equal(of('bourse_http_request_duration_seconds_sum'), 0.00175);
  assert.equal(of('bourse_http_request_duration_seconds_bucket', 0.0005), 1);
  assert.equal(of('bourse_http_request_duration_seconds_bucket', 0.001), 1);
  assert.equal(of('bourse_http_request_duration_seconds_bucket', 0.0025), 2);
});

test('record when no route matched labels every path unmatched and unknown methods OTHER', async () => {
  const registry = new Registry();
  const http = createHttpMetrics(registry);
  for (let index = 0; index < 50; index += 1) http.record(null, 'GET', 404, '40404', 0.1);
  http.record(null, 'PROPFIND', 404, '40404', 0.1);
  http.record(null, 'BREW', 404, '40404', 0.1);
  const counts = await metricValues(registry, 'bourse_http_requests_total');
  assert.deepEqual(
    counts.map((value) => [value.labels.method, value.labels.route, value.value]),
    [
      ['GET', UNMATCHED_ROUTE, 50],
      ['OTHER', UNMATCHED_ROUTE, 2],
    ],
  );
});
