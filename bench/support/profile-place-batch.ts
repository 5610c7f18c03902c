/**
 * Profiling aid (not a benchmark): starts one bourse child with --cpu-prof and drives it
 * with the place-batch load for BENCH_DURATION_MS (a closed loop, or BENCH_RATE requests/s);
 * the profile lands in BENCH_PROFILE_DIR. BENCH_CHILD_ENV (JSON) adds environment to the child,
 * e.g. '{"BOURSE_PROJECTION":"inline"}' to profile the other write path.
 */
import type { Workload } from './order-batch.ts';
import { benchDatabase, startBourseChild } from './bourse-child.ts';
import { entryLoad } from './order-load.ts';

const cleanups: (() => Promise<void>)[] = [];
const databaseUrl = process.env.BENCH_STORE === 'postgres' ? await benchDatabase(cleanups) : undefined;
const child = await startBourseChild({
  databaseUrl,
  env: JSON.parse(process.env.BENCH_CHILD_ENV ?? '{}') as Record<string, string>,
  nodeOptions: ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR ?? '/tmp/prof'}`],
});
// BENCH_RATE: requests per second (paced); unset, a closed loop.
const result = await entryLoad(
  child,
  Number(process.env.BENCH_RATE ?? 0),
  Number(process.env.BENCH_DURATION_MS ?? 5000),
  Number(process.env.BENCH_CONNECTIONS ?? 64),
  undefined,
  (process.env.BENCH_WORKLOAD ?? 'entry') as Workload,
);
process.stdout.write(`${JSON.stringify(result)}\n`);
await child.stop();
for (const cleanup of cleanups) await cleanup();
