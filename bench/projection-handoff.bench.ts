/**
 * What handing a batch's projection to another thread costs the main thread (not a test),
 * per order, on the place-batch workloads of bench/store-append.bench.ts (20 BTCUSDT spot
 * orders per command, 50 commands per batch, from a live engine):
 * - rows-built: building the projection rows alone (projectionRowsOf, projectEvent per event);
 * - rows: building them and posting them to a thread (postMessage's serializing, on the
 *   sending side: the SQLite writer thread's hand-over): what writing
 *   behind costs today;
 * - rows-json: building them and handing them over as one JSON string (posting a string copies
 *   it; the other thread parses it);
 * - rows-text: the same with each table's rows as one text, fields joined by U+001F and rows
 *   by U+001E (the form the PostgreSQL store sends, postgres/batch-write.ts);
 * - events-clone: the events alone, posted so (the other thread would build the rows);
 * - events-json: the codec's JSON of the events (an encoded form another thread decodes);
 * - journal: the journal rows alone (the command's codec JSON and its checksum), which the
 *   main thread makes either way.
 * Then the rows per order and bytes per row of each table.
 * A thread that ran the engine again from the journal's commands would cost the main thread
 * nothing beyond `journal`.
 *
 *   npx tsx bench/projection-handoff.bench.ts
 */
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { encode } from '../src/persistence/codec.ts';
import { journalRowsOf, projectionRowsOf } from '../src/persistence/journal-record.ts';
import type { JournalEntry } from '../src/ports/store.ts';
import { median } from './support/bourse-child.ts';
import { placeBatchAppends, Recorder } from './support/journal-recorder.ts';
import { ORDERS_PER_REQUEST, type Workload } from './support/order-batch.ts';
import { fundedSpotAccounts } from './support/spot-setup.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const BATCHES = Number(process.env.BENCH_BATCHES ?? 40);
const PER_BATCH = 50;

function batchesOf(workload: Workload): JournalEntry[][] {
  const recorder = new Recorder();
  const uids = fundedSpotAccounts(recorder, 8);
  recorder.take();
  return placeBatchAppends(recorder, uids, workload, BATCHES, PER_BATCH);
}

/** A thread that takes messages and drops them: `post` costs what postMessage costs the sender. */
const sink = new Worker("require('node:worker_threads').parentPort.on('message', () => {})", { eval: true });
const post = (value: unknown): void => sink.postMessage(value);

const WAYS: Record<string, (entries: JournalEntry[]) => unknown> = {
  'rows-built': (entries) => projectionRowsOf(entries),
  rows: (entries) => {
    const batch = projectionRowsOf(entries);
    return post(batch.targets.map((target) => batch.rowsOf(target)));
  },
  'rows-json': (entries) => {
    const batch = projectionRowsOf(entries);
    return post(JSON.stringify(batch.targets.map((target) => batch.rowsOf(target))));
  },
  'rows-text': (entries) => {
    const batch = projectionRowsOf(entries);
    return post(
      batch.targets.map((target) =>
        batch
          .rowsOf(target)
          .map((row) => row.join('\u001f'))
          .join('\u001e'),
      ),
    );
  },
  'events-clone': (entries) => post(entries.map((entry) => entry.events)),
  'events-json': (entries) => post(encode(entries.map((entry) => entry.events))),
  journal: (entries) => journalRowsOf(entries),
};

/** Rows per order and bytes per row by table (text as its length, a number as 8 bytes). */
function rowSizes(workload: Workload, batches: JournalEntry[][], orders: number): string[] {
  const byTable = new Map<string, { rows: number; bytes: number }>();
  for (const entries of batches) {
    const batch = projectionRowsOf(entries);
    for (const target of batch.targets) {
      const sizes = byTable.get(target.table.name) ?? { rows: 0, bytes: 0 };
      for (const row of batch.rowsOf(target)) {
        sizes.rows += 1;
        for (const value of row) sizes.bytes += typeof value === 'string' ? value.length : 8;
      }
      byTable.set(target.table.name, sizes);
    }
  }
  return [...byTable].map(
    ([table, { rows, bytes }]) =>
      `| ${workload} | ${table} | ${(rows / orders).toFixed(2)} | ${(bytes / rows).toFixed(0)} |`,
  );
}

function main(): void {
  const lines = ['| workload | way | main µs/order |', '|---|---|---:|'];
  const sizes = ['| workload | table | rows/order | bytes/row |', '|---|---|---:|---:|'];
  for (const workload of ['entry', 'crossing'] as Workload[]) {
    const batches = batchesOf(workload);
    const orders = BATCHES * PER_BATCH * ORDERS_PER_REQUEST;
    for (const [way, handOff] of Object.entries(WAYS)) {
      const times: number[] = [];
      for (let run = 0; run < RUNS; run += 1) {
        const started = performance.now();
        for (const entries of batches) handOff(entries);
        times.push(((performance.now() - started) * 1000) / orders);
      }
      lines.push(`| ${workload} | ${way} | ${median(times).toFixed(2)} |`);
    }
    sizes.push(...rowSizes(workload, batches, orders));
  }
  process.stdout.write(`${lines.join('\n')}\n\n${sizes.join('\n')}\n`);
  void sink.terminate();
}

main();
