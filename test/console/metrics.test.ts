/** The console's reading of GET /metrics (console/src/metrics.ts): samples and rates. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseMetrics, ratePerSecond, total } from '../../console/src/metrics.ts';

const TEXT = `# HELP bourse_orders_total Orders
# TYPE bourse_orders_total counter
bourse_orders_total{category="SPOT"} 10
bourse_orders_total{category="USDT-FUTURES"} 5
bourse_websocket_connections 3
`;

test('parseMetrics sums every label set of a metric when asked for its total', () => {
  const samples = parseMetrics(TEXT);
  assert.equal(total(samples, 'bourse_orders_total'), 15);
  assert.equal(total(samples, 'bourse_websocket_connections'), 3);
  assert.equal(total(samples, 'bourse_fills_total'), undefined);
});

test('ratePerSecond divides the increase by the time between readings and reads a reset as 0', () => {
  const before = { atMs: 1_000, samples: parseMetrics(TEXT) };
  const after = { atMs: 3_000, samples: parseMetrics(TEXT.replace('} 10', '} 30')) };
  assert.equal(ratePerSecond(before, after, 'bourse_orders_total'), 10);
  assert.equal(ratePerSecond(after, { atMs: 4_000, samples: parseMetrics(TEXT) }, 'bourse_orders_total'), 0);
  assert.equal(ratePerSecond(undefined, after, 'bourse_orders_total'), undefined);
});
