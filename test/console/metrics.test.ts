/** The console's reading of GET /metrics (console/src/metrics.ts): samples and rates. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  byteText,
  parseMetrics,
  perMinute,
  ratePerSecond,
  total,
  within,
  type Reading,
} from '../../console/src/metrics.ts';

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

test('perMinute measures a gauge over the last minute of readings, and byteText prints it', () => {
  const reading = (atMs: number, bytes: number): Reading => ({
    atMs,
    samples: parseMetrics(`bourse_store_bytes ${bytes}\n`),
  });
  let history: Reading[] = [];
  // Readings every 2 s for 70 s, the store growing 4096 bytes each: the window keeps the
  // last 60 s (31 readings), so the growth is 30 × 4096 bytes over 60 s = 122880 bytes/min.
  for (let second = 0; second <= 70; second += 2)
    history = within(history, reading(second * 1000, second * 2048));
  assert.equal(history.length, 31);
  assert.equal(perMinute(history, 'bourse_store_bytes'), 122_880);
  assert.equal(byteText(122_880), '120.0 KiB');
  // Pruning shrinks it: 1 MiB less over 30 s is −2 MiB a minute.
  const shrinking = [reading(0, 3 * 2 ** 20), reading(30_000, 2 * 2 ** 20)];
  assert.equal(byteText(perMinute(shrinking, 'bourse_store_bytes')), '−2.0 MiB');
  assert.equal(perMinute([reading(0, 5)], 'bourse_store_bytes'), undefined);
  assert.equal(byteText(512), '512 B');
});
