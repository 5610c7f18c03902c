/**
 * What the metrics cost one place-batch request, in-process (not a test): per request, what
 * the server records when metrics are on (the HTTP count and latency, one journal append's
 * duration and size, the orders, fills and trades of its durable events), against the same
 * loop recording nothing, alternately, BENCH_REPS (7) rounds of BENCH_REQUESTS (200,000).
 *
 * The events are those of the entry body of bench:orders (20 orders making 10 trades): 20
 * OrderUpdated, 20 FillRecorded, 10 TradeRecorded and 40 BillPosted in one journal entry.
 *
 *   npx tsx bench/metrics.bench.ts
 */
import { createMetrics } from '../src/api/metrics.ts';
import type { EngineEvent } from '../src/domain/events.ts';
import type { JournalEntry } from '../src/ports/store.ts';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 200_000);
const REPS = Number(process.env.BENCH_REPS ?? 7);
const ORDERS_PER_REQUEST = 20;

const events: EngineEvent[] = [
  ...Array.from({ length: 20 }, () => ({ type: 'OrderUpdated', created: true, order: { category: 'SPOT' } })),
  ...Array.from({ length: 20 }, () => ({ type: 'FillRecorded', fill: { category: 'SPOT' } })),
  ...Array.from({ length: 10 }, () => ({ type: 'TradeRecorded', category: 'SPOT' })),
  ...Array.from({ length: 40 }, () => ({ type: 'BillPosted' })),
] as unknown as EngineEvent[];
const entries: JournalEntry[] = [{ seq: 1, command: {} as never, events }];
const route = { method: 'POST', path: '/api/v3/trade/place-batch' };

let listener: (entries: readonly JournalEntry[]) => void = () => undefined;
const metrics = createMetrics();
metrics.watch({
  sequencer: {
    pendingCommands: 0,
    appendsInFlight: 0,
    lastSeq: 0,
    unavailable: false,
    onDurable(added) {
      listener = added;
      return () => undefined;
    },
  },
});

/**
 * ns per request of `REQUESTS` requests: recording, with the clock reads the edge and the
 * sequencer make only when metrics are on; or not (metrics and the request log off: no clock read).
 */
function run(recording: boolean): number {
  const startedNs = process.hrtime.bigint();
  let sink = 0;
  for (let request = 0; request < REQUESTS; request += 1) {
    if (recording) {
      const requestStartedMs = performance.now();
      const appendStartedMs = performance.now();
      metrics.journalAppended(1, performance.now() - appendStartedMs, true);
      listener(entries);
      metrics.http.record(route, 'POST', 200, '00000', performance.now() - requestStartedMs);
    } else sink += request;
  }
  if (sink < 0) throw new Error('unreachable');
  return Number(process.hrtime.bigint() - startedNs) / REQUESTS;
}

const on: number[] = [];
const off: number[] = [];
run(true);
run(false);
for (let rep = 0; rep < REPS; rep += 1) {
  if (rep % 2 === 0) {
    on.push(run(true));
    off.push(run(false));
  } else {
    off.push(run(false));
    on.push(run(true));
  }
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const extra = median(on) - median(off);
await metrics.render();
process.stdout.write(
  `per request: recording ${median(on).toFixed(0)} ns, not recording ${median(off).toFixed(0)} ns: ` +
    `metrics cost ${extra.toFixed(0)} ns per request, ${(extra / ORDERS_PER_REQUEST).toFixed(1)} ns per order\n`,
);
