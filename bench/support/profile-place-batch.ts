/**
 * Profiling aid (not a benchmark): starts one bourse child with --cpu-prof and drives it
 * with the place-batch load for BENCH_DURATION_MS (a closed loop, or BENCH_RATE requests/s);
 * the profile lands in BENCH_PROFILE_DIR.
 */
import { orderBatch, type Workload } from './order-batch.ts';
import { benchDatabase, startBourseChild } from './bourse-child.ts';
import type { OrderLoadInput } from './order-load-process.ts';
import { runOrderLoad } from './order-load.ts';

const cleanups: (() => Promise<void>)[] = [];
const databaseUrl = process.env.BENCH_STORE === 'postgres' ? await benchDatabase(cleanups) : undefined;
const child = await startBourseChild({
  databaseUrl,
  nodeOptions: ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR ?? '/tmp/prof'}`],
});
const input: OrderLoadInput = {
  host: '127.0.0.1',
  port: child.port,
  path: '/api/v3/trade/place-batch',
  body: orderBatch((process.env.BENCH_WORKLOAD ?? 'entry') as Workload),
  connections: Number(process.env.BENCH_CONNECTIONS ?? 64),
  durationMs: Number(process.env.BENCH_DURATION_MS ?? 5000),
  signing: child.trader,
  // BENCH_RATE: requests per second (paced); unset, a closed loop.
  ...(process.env.BENCH_RATE ? { ratePerSecond: Number(process.env.BENCH_RATE) } : {}),
};
const result = await runOrderLoad(input);
process.stdout.write(`${JSON.stringify(result)}\n`);
await child.stop();
for (const cleanup of cleanups) await cleanup();
