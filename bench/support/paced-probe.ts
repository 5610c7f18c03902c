/**
 * Latency probe (not a benchmark table): one bourse child alone, driven by the place-batch
 * load (entry body, or BENCH_WORKLOAD=crossing's, whose every order fills) at each rate of BENCH_RATES (requests/s; 0 is a closed loop),
 * BENCH_REPS times; prints orders/s served and p50/p99/p999 per run, and the CPU time per
 * order (Linux) of the server's main thread, of its busiest other thread (the SQLite writer
 * thread) and of the rest (GC helpers, …), and on PostgreSQL of the backends serving it.
 *
 *   BENCH_RATES=0,1250,2500 BENCH_REPS=3 npx tsx bench/support/paced-probe.ts
 *
 * Also: BENCH_THREAD_NAMES=1 (every thread's CPU per order, summed by the thread's name),
 * BENCH_STORE=postgres, BENCH_CONNECTIONS (64), BENCH_CHILD_ENV (JSON of extra
 * environment for the child), BENCH_NODE_OPTIONS (space-separated Node flags for the child,
 * e.g. `--trace-gc-nvp` with BENCH_CHILD_LOG=file to keep its output), BENCH_WINDOW_MS (also
 * print p99 and the largest latency of each window of that many ms: a long steady run,
 * BENCH_DURATION_MS=40000 BENCH_WINDOW_MS=4000, shows what a 4 s run can miss, such as the
 * kernel's writeback every 30 s under PostgreSQL, docs/configuration.md).
 */
import { benchDatabase, postgresSettingsLine, startBourseChild } from './bourse-child.ts';
import { ORDERS_PER_REQUEST, type Workload } from './order-batch.ts';
import { entryLoad } from './order-load.ts';
import { postgresBackends, processCpuMs, spent, threadCpuMs, threadsByName } from './thread-cpu.ts';

const cleanups: (() => Promise<void>)[] = [];
const databaseUrl = process.env.BENCH_STORE === 'postgres' ? await benchDatabase(cleanups) : undefined;
const child = await startBourseChild({
  databaseUrl,
  env: JSON.parse(process.env.BENCH_CHILD_ENV ?? '{}') as Record<string, string>,
  nodeOptions: (process.env.BENCH_NODE_OPTIONS ?? '').split(' ').filter(Boolean),
});

const load = (ratePerSecond: number, durationMs: number) =>
  entryLoad(
    child,
    ratePerSecond,
    durationMs,
    Number(process.env.BENCH_CONNECTIONS ?? 64),
    Number(process.env.BENCH_WINDOW_MS ?? 0),
    (process.env.BENCH_WORKLOAD ?? 'entry') as Workload,
  );
const pid = child.process.pid ?? 0;

/** µs of CPU per order of each part, over one run that served `orders`. */
function cpuText(threads: Map<number, number>, backends: Map<number, number>, orders: number): string {
  const perOrder = (ms: number) => ((ms * 1000) / Math.max(1, orders)).toFixed(1);
  const main = threads.get(pid) ?? 0;
  const others = [...threads].filter(([tid]) => tid !== pid).map(([, ms]) => ms);
  const busiest = Math.max(0, ...others);
  const rest = others.reduce((sum, ms) => sum + ms, 0) - busiest;
  const database = [...backends.values()].reduce((sum, ms) => sum + ms, 0);
  const named =
    process.env.BENCH_THREAD_NAMES === '1'
      ? `\n  by thread: ${[...threadsByName(pid, threads)]
          .filter(([, ms]) => ms > 0)
          .map(([name, ms]) => `${name} ${perOrder(ms)}`)
          .join(', ')}`
      : '';
  return (
    `CPU µs/order: main ${perOrder(main)}, busiest other thread ${perOrder(busiest)}, rest ${perOrder(rest)}` +
    (databaseUrl ? `, PostgreSQL backends ${perOrder(database)}` : '') +
    named
  );
}

try {
  if (databaseUrl) process.stdout.write(`${postgresSettingsLine()}\n`);
  await load(0, 1_500);
  const rates = (process.env.BENCH_RATES ?? '0,2500').split(',').map(Number);
  for (let rep = 0; rep < Number(process.env.BENCH_REPS ?? 3); rep += 1) {
    for (const rate of rates) {
      const backendPids = databaseUrl ? await postgresBackends(databaseUrl) : [];
      const [threadsBefore, backendsBefore] = [threadCpuMs(pid), processCpuMs(backendPids)];
      const result = await load(rate, Number(process.env.BENCH_DURATION_MS ?? 4_000));
      const threads = spent(threadsBefore, threadCpuMs(pid));
      const backends = spent(backendsBefore, processCpuMs(backendPids));
      const served = Math.round(result.requestsPerSecond * ORDERS_PER_REQUEST);
      process.stdout.write(
        `${rate > 0 ? `${rate * ORDERS_PER_REQUEST} orders/s asked` : 'closed loop'}: ${served} served, ` +
          `p50 ${result.p50Ms.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms, p999 ${result.p999Ms.toFixed(2)} ms` +
          `${result.non200 + result.errors + result.refusedItems > 0 ? `, FAILURES: ${result.firstFailure}` : ''}\n` +
          `  ${cpuText(threads, backends, result.requests * ORDERS_PER_REQUEST)}\n` +
          (result.windows
            ? `  p99 / max per window: ${result.windows.map((w) => `${w.p99Ms.toFixed(1)}/${w.maxMs.toFixed(1)}`).join(' ')} ms\n`
            : ''),
      );
    }
  }
} finally {
  await child.stop();
  for (const cleanup of cleanups) await cleanup();
}
