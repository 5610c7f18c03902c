/**
 * The metrics registry's wiring: journal appends as the sequencer reports them, gauges read
 * at scrape time from what they watch, orders, fills and trades counted from durable events,
 * and the exposition (bourse's metrics and the process's, one registry per server).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { EngineEvent } from '../../src/domain/events.ts';
import { createMetrics, type MetricSources } from '../../src/api/metrics.ts';
import type { JournalEntry } from '../../src/ports/store.ts';

/** The value of one sample line of the exposition, or undefined when it is absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

function fakeSequencer() {
  const listeners: ((entries: readonly JournalEntry[]) => void)[] = [];
  return {
    pendingCommands: 0,
    appendsInFlight: 0,
    lastSeq: 0,
    unavailable: false,
    onDurable(listener: (entries: readonly JournalEntry[]) => void) {
      listeners.push(listener);
      return () => undefined;
    },
    makeDurable(events: EngineEvent[]) {
      this.lastSeq += 1;
      const entry = { seq: this.lastSeq, command: {} as never, events };
      for (const listener of listeners) listener([entry]);
    },
  };
}

const order = (category: string, created: boolean) =>
  ({ type: 'OrderUpdated', created, order: { category } }) as unknown as EngineEvent;
const fill = (category: string) => ({ type: 'FillRecorded', fill: { category } }) as unknown as EngineEvent;
const trade = (category: string) => ({ type: 'TradeRecorded', category }) as unknown as EngineEvent;

test('journalAppended when appends settle observes their duration, size and failures', async () => {
  const metrics = createMetrics();
  metrics.journalAppended(8, 1.2, true);
  metrics.journalAppended(3, 40, false);
  const { text } = await metrics.render();
  assert.equal(sample(text, 'bourse_journal_append_duration_seconds_count'), 2);
  assert.equal(sample(text, 'bourse_journal_append_duration_seconds_bucket{le="0.0025"}'), 1);
  assert.equal(sample(text, 'bourse_journal_append_duration_seconds_bucket{le="0.05"}'), 2);
  assert.equal(sample(text, 'bourse_journal_append_commands_sum'), 11);
  assert.equal(sample(text, 'bourse_journal_append_commands_bucket{le="4"}'), 1);
  assert.equal(sample(text, 'bourse_journal_append_failures_total'), 1);
});

test('watch when scraped reads the queue depths, sequence, rebuilding, WebSocket connections and store size then', async () => {
  const metrics = createMetrics();
  const sequencer = fakeSequencer();
  let bytes = 81_920;
  const store = { pendingWrites: 0, sizeBytes: () => Promise.resolve(bytes) };
  const websocket = { connectionCount: 0 };
  const projector = { lag: 0, seconds: 0, lagSeconds: () => projector.seconds };
  metrics.watch({ sequencer, store, websocket, projector } satisfies MetricSources);
  Object.assign(sequencer, { pendingCommands: 17, appendsInFlight: 3, lastSeq: 1234, unavailable: true });
  store.pendingWrites = 4;
  websocket.connectionCount = 2;
  Object.assign(projector, { lag: 300, seconds: 0.25 });
  const { text } = await metrics.render();
  assert.equal(sample(text, 'bourse_journal_pending_commands'), 17);
  assert.equal(sample(text, 'bourse_journal_appends_in_flight'), 3);
  assert.equal(sample(text, 'bourse_store_pending_writes'), 4);
  assert.equal(sample(text, 'bourse_journal_last_seq'), 1234);
  assert.equal(sample(text, 'bourse_engine_rebuilding'), 1);
  assert.equal(sample(text, 'bourse_websocket_connections'), 2);
  assert.equal(sample(text, 'bourse_store_bytes'), 81_920);
  assert.equal(sample(text, 'bourse_projector_lag_entries'), 300);
  assert.equal(sample(text, 'bourse_projector_lag_seconds'), 0.25);
  websocket.connectionCount = 0;
  Object.assign(projector, { lag: 0, seconds: 0 });
  bytes = 86_016;
  sequencer.unavailable = false;
  const later = (await metrics.render()).text;
  assert.equal(sample(later, 'bourse_websocket_connections'), 0);
  assert.equal(sample(later, 'bourse_engine_rebuilding'), 0);
  assert.equal(sample(later, 'bourse_store_bytes'), 86_016);
  assert.equal(sample(later, 'bourse_projector_lag_entries'), 0);
});

test('watch without a projector (projections inline) reads its lag as 0', async () => {
  const metrics = createMetrics();
  metrics.watch({ sequencer: fakeSequencer() });
  const { text } = await metrics.render();
  assert.equal(sample(text, 'bourse_projector_lag_entries'), 0);
  assert.equal(sample(text, 'bourse_projector_lag_seconds'), 0);
});

test('watch when events become durable counts orders, fills and trades by category', async () => {
  const metrics = createMetrics();
  const sequencer = fakeSequencer();
  metrics.watch({ sequencer });
  const before = (await metrics.render()).text;
  assert.equal(sample(before, 'bourse_orders_total{category="SPOT"}'), 0, 'every category from the start');
  assert.equal(sample(before, 'bourse_fills_total{category="USDT-FUTURES"}'), 0);
  sequencer.makeDurable([order('SPOT', true), order('SPOT', true)]);
  sequencer.makeDurable([
    order('SPOT', false),
    order('USDT-FUTURES', true),
    fill('SPOT'),
    fill('SPOT'),
    trade('SPOT'),
  ]);
  const { text } = await metrics.render();
  assert.equal(sample(text, 'bourse_orders_total{category="SPOT"}'), 2, 'an order counts once, when created');
  assert.equal(sample(text, 'bourse_orders_total{category="USDT-FUTURES"}'), 1);
  assert.equal(sample(text, 'bourse_fills_total{category="SPOT"}'), 2);
  assert.equal(sample(text, 'bourse_trades_total{category="SPOT"}'), 1);
  sequencer.makeDurable([order('SPOT', true)]);
  assert.equal(sample((await metrics.render()).text, 'bourse_orders_total{category="SPOT"}'), 3);
});

test('render when two servers share a process keeps their metrics apart and shares the process metrics', async () => {
  const first = createMetrics();
  const second = createMetrics();
  first.journalAppended(1, 1, false);
  const [one, two] = [await first.render(), await second.render()];
  assert.equal(sample(one.text, 'bourse_journal_append_failures_total'), 1);
  assert.equal(sample(two.text, 'bourse_journal_append_failures_total'), 0);
  for (const { text, contentType } of [one, two]) {
    assert.match(contentType, /^text\/plain; version=0\.0\.4/);
    assert.ok(sample(text, 'process_cpu_user_seconds_total') !== undefined, 'the process metrics');
    assert.equal(
      text.split('\n').filter((line) => line === '# TYPE process_cpu_user_seconds_total counter').length,
      1,
    );
  }
});
