/**
 * Latency probe (not a benchmark table): one bourse child alone, driven by the place-batch
 * load (entry body) at each rate of BENCH_RATES (requests/s; 0 is a closed loop),
 * BENCH_REPS times; prints orders/s served and p50/p99/p999 per run.
 *
 *   BENCH_RATES=0,1250,2500 BENCH_REPS=3 npx tsx bench/support/paced-probe.ts
 *
 * Also: BENCH_STORE=postgres, BENCH_CONNECTIONS (64), BENCH_CHILD_ENV (JSON of extra
 * environment for the child), BENCH_NODE_OPTIONS (space-separated Node flags for the child,
 * e.g. `--trace-gc-nvp` with BENCH_CHILD_LOG=file to keep its output).
 */
import { benchDatabase, startBourseChild } from './bourse-child.ts';
import { ORDERS_PER_REQUEST } from './order-batch.ts';
import { entryLoad } from './order-load.ts';

const cleanups: (() => Promise<void>)[] = [];
const databaseUrl = process.env.BENCH_STORE === 'postgres' ? await benchDatabase(cleanups) : undefined;
const child = await startBourseChild({
  databaseUrl,
  env: JSON.parse(process.env.BENCH_CHILD_ENV ?? '{}') as Record<string, string>,
  nodeOptions: (process.env.BENCH_NODE_OPTIONS ?? '').split(' ').filter(Boolean),
});

const load = (ratePerSecond: number, durationMs: number) =>
  entryLoad(child, ratePerSecond, durationMs, Number(process.env.BENCH_CONNECTIONS ?? 64));

try {
  await load(0, 1_500);
  const rates = (process.env.BENCH_RATES ?? '0,2500').split(',').map(Number);
  for (let rep = 0; rep < Number(process.env.BENCH_REPS ?? 3); rep += 1) {
    for (const rate of rates) {
      const result = await load(rate, Number(process.env.BENCH_DURATION_MS ?? 4_000));
      const served = Math.round(result.requestsPerSecond * ORDERS_PER_REQUEST);
      process.stdout.write(
        `${rate > 0 ? `${rate * ORDERS_PER_REQUEST} orders/s asked` : 'closed loop'}: ${served} served, ` +
          `p50 ${result.p50Ms.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms, p999 ${result.p999Ms.toFixed(2)} ms` +
          `${result.non200 + result.errors + result.refusedItems > 0 ? `, FAILURES: ${result.firstFailure}` : ''}\n`,
      );
    }
  }
} finally {
  await child.stop();
  for (const cleanup of cleanups) await cleanup();
}
