/**
 * Same-time comparison of two versions of bourse (not a benchmark table): the server of
 * another checkout (BENCH_OLD_TREE) and this one, both up at once, loaded alternately with
 * the place-batch entry body: per round a closed loop and a paced run at BENCH_RATE
 * requests/s (2,500: 50,000 orders/s), BENCH_REPS rounds of BENCH_DURATION_MS (4,000) each;
 * prints the medians, with the CPU time per order of each server's process and of its main
 * thread (Linux), which move far less than throughput when other work shares the machine. On a machine whose
 * speed drifts, this is the figure that says what a change did. The two places ("other", "this")
 * can favour one server for a whole run: run a comparison twice, the checkouts swapped, and
 * count it only when both runs agree (docs/performance.md, 2026-11-26d).
 *
 *   git worktree add /tmp/old <rev> && ln -s "$PWD/node_modules" /tmp/old/node_modules
 *   BENCH_OLD_TREE=/tmp/old BENCH_REPS=5 npx tsx bench/support/ab-probe.ts
 *
 * BENCH_WORKLOAD=crossing loads both with the body whose every order fills instead.
 * BENCH_STORE=postgres runs both on PostgreSQL, each on a database of its own made for the run,
 * and adds the CPU time per order of the PostgreSQL backends serving each (closed loop).
 * BENCH_OTHER_ENV and BENCH_THIS_ENV (JSON) add environment to either server: with
 * BENCH_OLD_TREE=. the same code is compared under two settings (e.g. the metrics:
 * BENCH_OTHER_ENV='{"BOURSE_METRICS":"off"}', docs/performance.md).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  benchDatabase,
  median,
  postgresSettingsLine,
  startBourseChild,
  type BourseChild,
} from './bourse-child.ts';
import { ORDERS_PER_REQUEST, type Workload } from './order-batch.ts';
import { entryLoad } from './order-load.ts';
import { postgresBackends, processCpuMs, threadCpuMs } from './thread-cpu.ts';

const oldTree = process.env.BENCH_OLD_TREE;
if (!oldTree) throw new Error('BENCH_OLD_TREE names the other checkout');
// The other checkout's own child starter runs its own src/main.ts.
const other = (await import(pathToFileURL(join(oldTree, 'bench/support/bourse-child.ts')).href)) as {
  startBourseChild: typeof startBourseChild;
};
const rate = Number(process.env.BENCH_RATE ?? 2_500);
const workload = (process.env.BENCH_WORKLOAD ?? 'entry') as Workload;
const durationMs = Number(process.env.BENCH_DURATION_MS ?? 4_000);

const cleanups: (() => Promise<void>)[] = [];
const database = async () =>
  process.env.BENCH_STORE === 'postgres' ? await benchDatabase(cleanups) : undefined;
const envOf = (name: string) => JSON.parse(process.env[name] ?? '{}') as Record<string, string>;
const otherDatabase = await database();
const thisDatabase = await database();
const servers: [string, BourseChild][] = [
  ['other', await other.startBourseChild({ databaseUrl: otherDatabase, env: envOf('BENCH_OTHER_ENV') })],
  ['this', await startBourseChild({ databaseUrl: thisDatabase, env: envOf('BENCH_THIS_ENV') })],
];
/** Each server's database (PostgreSQL), whose backends' CPU is counted with the server's. */
const databaseOf = new Map([
  ['other', otherDatabase],
  ['this', thisDatabase],
]);
const figures = new Map(
  servers.map(([name]) => [
    name,
    {
      closed: [] as number[],
      p50: [] as number[],
      p99: [] as number[],
      cpu: [] as number[],
      mainCpu: [] as number[],
      pacedCpu: [] as number[],
      backendCpu: [] as number[],
    },
  ]),
);

/**
 * A run against `child`, with the CPU its process, its main thread and (PostgreSQL) the
 * backends of its database spent per order served (µs).
 */
async function measured(child: BourseChild, ratePerSecond: number, databaseUrl: string | undefined) {
  const pid = child.process.pid ?? 0;
  const backends = databaseUrl ? await postgresBackends(databaseUrl) : [];
  const backendMs = () => [...processCpuMs(backends).values()].reduce((sum, ms) => sum + ms, 0);
  const before = processCpuMs([pid]).get(pid) ?? 0;
  const mainBefore = threadCpuMs(pid).get(pid) ?? 0;
  const backendBefore = backendMs();
  const result = await entryLoad(child, ratePerSecond, durationMs, 64, undefined, workload);
  const cpuMs = (processCpuMs([pid]).get(pid) ?? 0) - before;
  const mainMs = (threadCpuMs(pid).get(pid) ?? 0) - mainBefore;
  const perOrder = (ms: number) => (ms * 1000) / Math.max(1, result.requests * ORDERS_PER_REQUEST);
  return {
    ...result,
    cpuMicrosPerOrder: perOrder(cpuMs),
    mainCpuMicrosPerOrder: perOrder(mainMs),
    backendCpuMicrosPerOrder: perOrder(backendMs() - backendBefore),
  };
}

/** The backends' figure, on PostgreSQL only. */
const backendText = (micros: number) =>
  process.env.BENCH_STORE === 'postgres' ? `, PostgreSQL backends ${micros.toFixed(1)}` : '';

try {
  if (process.env.BENCH_STORE === 'postgres') process.stdout.write(`${postgresSettingsLine()}\n`);
  for (const [, child] of servers) await entryLoad(child, 0, 1_500, 64, undefined, workload);
  for (let round = 0; round < Number(process.env.BENCH_REPS ?? 5); round += 1) {
    for (const [name, child] of round % 2 === 0 ? servers : [...servers].reverse()) {
      const closed = await measured(child, 0, databaseOf.get(name));
      const paced = await measured(child, rate, databaseOf.get(name));
      const figure = figures.get(name);
      figure?.closed.push(closed.requestsPerSecond * ORDERS_PER_REQUEST);
      figure?.cpu.push(closed.cpuMicrosPerOrder);
      figure?.mainCpu.push(closed.mainCpuMicrosPerOrder);
      figure?.backendCpu.push(closed.backendCpuMicrosPerOrder);
      figure?.pacedCpu.push(paced.cpuMicrosPerOrder);
      figure?.p50.push(paced.p50Ms);
      figure?.p99.push(paced.p99Ms);
      process.stderr.write(
        `${name}: closed ${Math.round(closed.requestsPerSecond * ORDERS_PER_REQUEST)} orders/s ` +
          `(${closed.cpuMicrosPerOrder.toFixed(1)} µs CPU/order, main thread ${closed.mainCpuMicrosPerOrder.toFixed(1)}` +
          `${backendText(closed.backendCpuMicrosPerOrder)}), at ${rate * ORDERS_PER_REQUEST} orders/s ` +
          `p50 ${paced.p50Ms.toFixed(1)} ms, p99 ${paced.p99Ms.toFixed(1)} ms ` +
          `(${paced.cpuMicrosPerOrder.toFixed(1)} µs CPU/order)\n`,
      );
    }
  }
  for (const [name, figure] of figures) {
    process.stdout.write(
      `${name}: closed loop median ${Math.round(median(figure.closed))} orders/s ` +
        `(${median(figure.cpu).toFixed(1)} µs CPU/order, main thread ${median(figure.mainCpu).toFixed(1)}` +
        `${backendText(median(figure.backendCpu))}), ` +
        `at ${rate * ORDERS_PER_REQUEST} orders/s median p50 ${median(figure.p50).toFixed(1)} ms, ` +
        `p99 ${median(figure.p99).toFixed(1)} ms (${median(figure.pacedCpu).toFixed(1)} µs CPU/order)\n`,
    );
  }
} finally {
  for (const [, child] of servers) await child.stop();
  for (const cleanup of cleanups) await cleanup();
}
