/**
 * Garbage collection of one bourse child under the place-batch load (a diagnostic, not a
 * benchmark): the child runs with --trace-gc for BENCH_DURATION_MS (6,000) of closed-loop load
 * (BENCH_WORKLOAD, BENCH_STORE as profile-place-batch.ts; BENCH_CHILD_ENV, JSON, adds
 * environment to the child), and the pauses of each isolate are summed per order served,
 * start-up and funding included. The first isolate listed is the main thread's; the others are
 * worker threads (the SQLite writer, the checkpointer, the journal reader).
 *
 *   BENCH_WORKLOAD=crossing npx tsx bench/support/gc-trace.ts
 */
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchDatabase, startBourseChild } from './bourse-child.ts';
import { ORDERS_PER_REQUEST, type Workload } from './order-batch.ts';
import { entryLoad } from './order-load.ts';

const log = join(tmpdir(), `bourse-gc-${process.pid}.log`);
process.env.BENCH_CHILD_LOG = log;
const cleanups: (() => Promise<void>)[] = [];
const databaseUrl = process.env.BENCH_STORE === 'postgres' ? await benchDatabase(cleanups) : undefined;
const child = await startBourseChild({
  databaseUrl,
  env: JSON.parse(process.env.BENCH_CHILD_ENV ?? '{}') as Record<string, string>,
  nodeOptions: ['--trace-gc'],
});
const result = await entryLoad(
  child,
  0,
  Number(process.env.BENCH_DURATION_MS ?? 6000),
  Number(process.env.BENCH_CONNECTIONS ?? 64),
  undefined,
  (process.env.BENCH_WORKLOAD ?? 'entry') as Workload,
);
await child.stop();
for (const cleanup of cleanups) await cleanup();

const orders = result.requests * ORDERS_PER_REQUEST;
const pauses = new Map<string, { scavenges: number[]; fullMs: number; full: number }>();
for (const line of readFileSync(log, 'utf8').split('\n')) {
  const match = /^\[\d+:(0x[0-9a-f]+)\]\s+\d+ ms: (Scavenge|Mark-Compact)[^,]*, ([\d.]+) \//.exec(line);
  if (!match) continue;
  const [, isolate = '', kind, ms = '0'] = match;
  const entry = pauses.get(isolate) ?? { scavenges: [], fullMs: 0, full: 0 };
  pauses.set(isolate, entry);
  if (kind === 'Scavenge') entry.scavenges.push(Number(ms));
  else {
    entry.full += 1;
    entry.fullMs += Number(ms);
  }
}
rmSync(log, { force: true });
process.stdout.write(`${orders} orders in ${result.elapsedMs.toFixed(0)} ms\n`);
let first = true;
for (const [isolate, { scavenges, full, fullMs }] of pauses) {
  const scavengeMs = scavenges.reduce((sum, ms) => sum + ms, 0);
  const sorted = [...scavenges].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
  process.stdout.write(
    `${first ? 'main thread' : `worker ${isolate}`}: ${scavenges.length} scavenges ${scavengeMs.toFixed(0)} ms ` +
      `(median ${median.toFixed(1)} ms), ${full} full collections ${fullMs.toFixed(0)} ms: ` +
      `${((1000 * (scavengeMs + fullMs)) / orders).toFixed(2)} µs of pause per order\n`,
  );
  first = false;
}
