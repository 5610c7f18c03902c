/**
 * The server's metrics registry (prom-client), rendered by `GET /metrics` in the Prometheus
 * text format (src/api/health-routes.ts). docs/operations.md lists every metric.
 *
 * Sources, and what each costs where it is fed:
 * - HTTP requests: the edge records each answer (http-metrics.ts).
 * - Journal appends: the sequencer calls `journalAppended` as each append settles (one
 *   histogram observation per group of commands, not per command).
 * - Orders, fills and trades: counted from the engine's events as the sequencer makes them
 *   durable (`Sequencer.onDurable`), into plain numbers moved into the counters on a scrape.
 *   The engine itself knows nothing of metrics.
 * - Queue depths, WebSocket connections, the journal sequence, the store's size, the
 *   projector's lag: read when scraped.
 * - The Node process (CPU, memory, event-loop delay, GC): prom-client's default collectors,
 *   one set per process (they describe the process, not one server in it), shared by every
 *   registry made here.
 *
 * Invariant: every label value comes from a fixed set (route templates, status codes, the
 * venue's codes, the product categories), never from a request as sent.
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { CATEGORIES } from '../domain/category.ts';
import type { EngineEvent } from '../domain/events.ts';
import type { JournalEntry } from '../ports/store.ts';
import { createHttpMetrics, type HttpMetrics } from './http-metrics.ts';

/** What the scrape-time gauges read; any part may be missing (then its gauge reads 0). */
export interface MetricSources {
  sequencer?: {
    readonly pendingCommands: number;
    readonly appendsInFlight: number;
    readonly lastSeq: number;
    readonly unavailable: boolean;
    onDurable(listener: (entries: readonly JournalEntry[]) => void): () => void;
  };
  store?: { readonly pendingWrites?: number; sizeBytes?(): Promise<number> };
  websocket?: { readonly connectionCount: number };
  http?: { readonly connectionCount: number };
  /** The projector writing the read models behind the journal (absent when written inline). */
  projector?: { readonly lag: number; lagSeconds(): number };
}

export interface Metrics {
  readonly registry: Registry;
  readonly http: HttpMetrics;
  /** The sequencer's `onAppended`. */
  journalAppended(commands: number, durationMs: number, ok: boolean): void;
  /** Starts reading `sources`: gauges at each scrape, the sequencer's durable events as they come. */
  watch(sources: MetricSources): void;
  /** The exposition: content type and text. */
  render(): Promise<{ contentType: string; text: string }>;
}

/** Seconds; a SQLite commit takes about a millisecond, a PostgreSQL one a few. */
const APPEND_DURATION_BUCKETS_SECONDS = [
  0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5,
];
const APPEND_COMMAND_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024];

let processRegistry: Registry | null = null;

/** The Node process's metrics, collected once per process whatever number of servers it runs. */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  const http = createHttpMetrics(registry);
  let sources: MetricSources = {};
  const appendDuration = new Histogram({
    name: 'bourse_journal_append_duration_seconds',
    help: 'Time from a group of commands being handed to the store until it is durable (or failed).',
    buckets: APPEND_DURATION_BUCKETS_SECONDS,
    registers: [registry],
  });
  const appendCommands = new Histogram({
    name: 'bourse_journal_append_commands',
    help: 'Commands per journal append (group commit size).',
    buckets: APPEND_COMMAND_BUCKETS,
    registers: [registry],
  });
  const appendFailures = new Counter({
    name: 'bourse_journal_append_failures_total',
    help: 'Journal appends that failed (their commands were answered STORE_UNAVAILABLE).',
    registers: [registry],
  });
  scrapeGauges(registry, () => sources);
  new Gauge({
    name: 'bourse_store_bytes',
    help: 'Bytes the store holds: journal, snapshots and projections (SQLite: pages in use, WAL included; PostgreSQL: tables and indexes).',
    registers: [registry],
    async collect() {
      this.set((await sources.store?.sizeBytes?.().catch(() => 0)) ?? 0);
    },
  });
  const events = eventCounters(registry);

  return {
    registry,
    http,
    journalAppended(commands, durationMs, ok) {
      appendDuration.observe(durationMs / 1000);
      appendCommands.observe(commands);
      if (!ok) appendFailures.inc();
    },
    watch(watched) {
      sources = watched;
      watched.sequencer?.onDurable(events.count);
    },
    async render() {
      const text = (await registry.metrics()) + (await processMetrics().metrics());
      return { contentType: registry.contentType, text };
    },
  };
}

/** Gauges read at each scrape from what the server is doing right then. */
function scrapeGauges(registry: Registry, sourcesNow: () => MetricSources): void {
  const gauges: [name: string, help: string, read: (sources: MetricSources) => number][] = [
    [
      'bourse_journal_pending_commands',
      'Commands run by the engine and not yet durable: queued for the next append or in an append in flight.',
      (sources) => sources.sequencer?.pendingCommands ?? 0,
    ],
    [
      'bourse_journal_appends_in_flight',
      'Journal appends handed to the store and not yet settled.',
      (sources) => sources.sequencer?.appendsInFlight ?? 0,
    ],
    [
      'bourse_store_pending_writes',
      'Writes (appends, snapshots) queued in the SQLite writer thread or sent to PostgreSQL and not yet answered.',
      (sources) => sources.store?.pendingWrites ?? 0,
    ],
    [
      'bourse_journal_last_seq',
      'Sequence number of the last command run by the engine.',
      (sources) => sources.sequencer?.lastSeq ?? 0,
    ],
    [
      'bourse_engine_rebuilding',
      '1 while the engine is rebuilt from the store after a failed append (commands are refused), else 0.',
      (sources) => (sources.sequencer?.unavailable ? 1 : 0),
    ],
    [
      'bourse_projector_lag_entries',
      'Journal entries durable and acknowledged whose read-model rows (orders, fills, bills, …) the projector has not written yet; 0 when they are written with the journal (BOURSE_PROJECTION=inline).',
      (sources) => sources.projector?.lag ?? 0,
    ],
    [
      'bourse_projector_lag_seconds',
      'Seconds since the oldest journal entry the projector has not written yet was handed to it; 0 when it has written everything.',
      (sources) => sources.projector?.lagSeconds() ?? 0,
    ],
    [
      'bourse_websocket_connections',
      'Open WebSocket connections.',
      (sources) => sources.websocket?.connectionCount ?? 0,
    ],
    [
      'bourse_http_connections',
      'Open TCP connections to the HTTP server: kept-alive REST connections and WebSocket ones.',
      (sources) => sources.http?.connectionCount ?? 0,
    ],
  ];
  for (const [name, help, read] of gauges) {
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        this.set(read(sourcesNow()));
      },
    });
  }
}

interface CategoryTally {
  orders: number;
  fills: number;
  trades: number;
}

/**
 * Orders, fills and trades by product category, counted from durable events: an order when
 * its first OrderUpdated comes (`created`), a fill per FillRecorded (each side of a trade is
 * one), a trade per TradeRecorded. Every category's series exists from the start (at 0), so
 * a rate over it is defined before the first order.
 */
function eventCounters(registry: Registry): { count(entries: readonly JournalEntry[]): void } {
  const tallies = new Map<string, CategoryTally>();
  const published = new Map<string, CategoryTally>();
  const tallyOf = (category: string): CategoryTally => {
    let tally = tallies.get(category);
    if (!tally) {
      tally = { orders: 0, fills: 0, trades: 0 };
      tallies.set(category, tally);
      published.set(category, { orders: 0, fills: 0, trades: 0 });
    }
    return tally;
  };
  for (const category of CATEGORIES) tallyOf(category);
  const counter = (name: string, help: string, field: keyof CategoryTally) => {
    const metric = new Counter({
      name,
      help,
      labelNames: ['category'],
      registers: [registry],
      collect() {
        for (const [category, tally] of tallies) {
          const done = published.get(category) as CategoryTally;
          if (tally[field] === done[field]) continue;
          this.inc({ category }, tally[field] - done[field]);
          done[field] = tally[field];
        }
      },
    });
    for (const category of CATEGORIES) metric.inc({ category }, 0);
  };
  counter('bourse_orders_total', 'Orders accepted by the engine (placed, durable), by category.', 'orders');
  counter(
    'bourse_fills_total',
    'Fills made durable, by category: each side of a trade is one fill.',
    'fills',
  );
  counter('bourse_trades_total', 'Trades made durable, by category.', 'trades');

  // The events of one batch are mostly of one category: the last tally is kept at hand.
  let lastCategory: string = CATEGORIES[0];
  let lastTally = tallyOf(lastCategory);
  const tallyAt = (category: string): CategoryTally => {
    if (category !== lastCategory) {
      lastTally = tallyOf(category);
      lastCategory = category;
    }
    return lastTally;
  };
  const countEvent = (event: EngineEvent): void => {
    if (event.type === 'OrderUpdated') {
      if (event.created) tallyAt(event.order.category).orders += 1;
    } else if (event.type === 'FillRecorded') tallyAt(event.fill.category).fills += 1;
    else if (event.type === 'TradeRecorded') tallyAt(event.category).trades += 1;
  };
  return {
    count(entries) {
      for (const entry of entries) for (const event of entry.events) countEvent(event);
    },
  };
}
