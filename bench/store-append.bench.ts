/**
 * Store append cost (not a test): the main-thread (event-loop) time and the wall time of one
 * `Store.append` of realistic entries, on each store, in-process.
 *
 * Entries come from the engine: `PlaceOrders` commands of 20 BTCUSDT spot orders as
 * bench/support/order-batch.ts describes them (`entry`: 20 immediate-or-cancel orders away from
 * an empty book; `crossing`: 10 buy/sell pairs, each sell filling the buy before it), spread
 * over a few funded accounts, BENCH_COMMANDS_PER_APPEND (50) per append, as a group commit
 * under load gathers them. Each run writes BENCH_APPENDS (30) appends to a fresh store, one
 * after another; figures are medians over BENCH_RUNS (5) runs:
 * - main µs/order: the event loop's busy time over the run (performance.eventLoopUtilization),
 *   per order: what the store takes from the thread that serves HTTP and runs the engine (on a
 *   busy machine this includes time the thread waited for a core);
 * - CPU µs/order: the main thread's CPU time (user + system, from /proc on Linux, 10 ms
 *   resolution over the run), which leaves out waiting for a core or for fsync;
 * - sync µs/order: the time inside the `append` call itself, before it returns its promise;
 * - wall ms/append: from the call to the promise's resolution (committed);
 * - backend µs/order (PostgreSQL): the CPU time of the PostgreSQL backends serving the store
 *   (`/proc`), per order: what the database's side of the append costs the machine.
 *
 *   npx tsx bench/store-append.bench.ts
 *   BENCH_STORES=sqlite,sqlite-thread,postgres BENCH_WORKLOADS=entry,crossing BENCH_RUNS=5 npx tsx bench/store-append.bench.ts
 */
import { fundedSpotAccounts } from './support/spot-setup.ts';
import { postgresBackends, processCpuMs, statCpuMs } from './support/thread-cpu.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import type { AnyStore } from '../src/persistence/open-store.ts';
import { openPostgresStore } from '../src/persistence/postgres/postgres-store.ts';
import { openSqliteStore } from '../src/persistence/sqlite/sqlite-store.ts';
import type { JournalEntry } from '../src/ports/store.ts';
import { benchDatabase, median } from './support/bourse-child.ts';
import { placeBatchAppends, Recorder } from './support/journal-recorder.ts';
import { ORDERS_PER_REQUEST, type Workload } from './support/order-batch.ts';

const STORES = (process.env.BENCH_STORES ?? 'sqlite,sqlite-thread,postgres').split(',').filter(Boolean);
const WORKLOADS = (process.env.BENCH_WORKLOADS ?? 'entry,crossing').split(',').filter(Boolean) as Workload[];
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const APPENDS = Number(process.env.BENCH_APPENDS ?? 30);
const PER_APPEND = Number(process.env.BENCH_COMMANDS_PER_APPEND ?? 50);
const ACCOUNTS = 8;

/** Appends of PER_APPEND place-batch commands each, from a live engine. */
const appendsOf = (recorder: Recorder, uids: string[], workload: Workload, count: number): JournalEntry[][] =>
  placeBatchAppends(recorder, uids, workload, count, PER_APPEND);

/** The CPU ms of the PostgreSQL backends of `url`'s database so far (0 without one). */
async function backendCpuMs(url: string | undefined): Promise<number> {
  if (!url) return 0;
  return [...processCpuMs(await postgresBackends(url)).values()].reduce((sum, ms) => sum + ms, 0);
}

let databaseUrl: string | undefined;

async function openBenchStore(kind: string, cleanups: (() => Promise<void>)[]): Promise<AnyStore> {
  databaseUrl = undefined;
  if (kind === 'postgres') return openPostgresStore((databaseUrl = await benchDatabase(cleanups)));
  const dir = mkdtempSync(join(tmpdir(), 'bourse-append-'));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  return openSqliteStore(join(dir, 'bourse.db'), { writer: kind === 'sqlite-thread' ? 'thread' : 'inline' });
}

/** The main thread's CPU time in ms (Linux /proc; NaN elsewhere). */
function mainThreadCpuMs(): number {
  return statCpuMs(`/proc/self/task/${process.pid}/stat`, Number.NaN);
}

interface RunFigures {
  mainUsPerOrder: number;
  cpuUsPerOrder: number;
  syncUsPerOrder: number;
  wallMsPerAppend: number;
  backendUsPerOrder: number;
}

async function run(kind: string, workload: Workload): Promise<RunFigures> {
  const cleanups: (() => Promise<void>)[] = [];
  const store = await openBenchStore(kind, cleanups);
  try {
    const recorder = new Recorder();
    const uids = fundedSpotAccounts(recorder, ACCOUNTS);
    await store.append(recorder.take());
    // Warm-up (statements prepared, JIT), then the measured appends.
    for (const entries of appendsOf(recorder, uids, workload, 3)) await store.append(entries);
    const appends = appendsOf(recorder, uids, workload, APPENDS);
    const orders = APPENDS * PER_APPEND * ORDERS_PER_REQUEST;
    let sync = 0;
    let wall = 0;
    const backendBefore = await backendCpuMs(databaseUrl);
    const before = performance.eventLoopUtilization();
    const cpuBefore = mainThreadCpuMs();
    for (const entries of appends) {
      const started = performance.now();
      const pending = store.append(entries);
      sync += performance.now() - started;
      await pending;
      wall += performance.now() - started;
    }
    const busy = performance.eventLoopUtilization(before);
    const cpu = mainThreadCpuMs() - cpuBefore;
    const backend = (await backendCpuMs(databaseUrl)) - backendBefore;
    return {
      mainUsPerOrder: (busy.active * 1000) / orders,
      cpuUsPerOrder: (cpu * 1000) / orders,
      syncUsPerOrder: (sync * 1000) / orders,
      wallMsPerAppend: wall / APPENDS,
      backendUsPerOrder: (backend * 1000) / orders,
    };
  } finally {
    await store.close();
    for (const cleanup of cleanups) await cleanup();
  }
}

async function main(): Promise<void> {
  const lines = [
    `Store.append, ${PER_APPEND} place-batch commands of ${ORDERS_PER_REQUEST} orders per append, ` +
      `${APPENDS} appends per run, median of ${RUNS} runs (Node ${process.version})`,
    '',
    '| workload | store | main µs/order | CPU µs/order | sync µs/order | wall ms/append | backend µs/order |',
    '|---|---|---:|---:|---:|---:|---:|',
  ];
  for (const workload of WORKLOADS) {
    for (const kind of STORES) {
      const figures: RunFigures[] = [];
      for (let index = 0; index < RUNS; index += 1) figures.push(await run(kind, workload));
      const pick = (key: keyof RunFigures) => median(figures.map((item) => item[key]));
      const line =
        `| ${workload} | ${kind} | ${pick('mainUsPerOrder').toFixed(2)} | ${pick('cpuUsPerOrder').toFixed(2)} | ` +
        `${pick('syncUsPerOrder').toFixed(2)} | ${pick('wallMsPerAppend').toFixed(1)} | ` +
        `${kind === 'postgres' ? pick('backendUsPerOrder').toFixed(2) : '–'} |`;
      process.stderr.write(`${line}\n`);
      lines.push(line);
    }
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

/** `count` appends of `workload` after the set-up append (for profiling the parts alone). */
export function sampleAppends(
  workload: Workload,
  count: number,
): { setUp: JournalEntry[]; appends: JournalEntry[][] } {
  const recorder = new Recorder();
  const uids = fundedSpotAccounts(recorder, ACCOUNTS);
  const first = recorder.take();
  return { setUp: first, appends: appendsOf(recorder, uids, workload, count) };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
