/**
 * HTTP order-entry benchmark (`npm run bench:orders`; not a test): signed POST
 * /api/v3/trade/place-batch with 20 orders per request, acknowledged only once durable, on
 * bourse with SQLite and with PostgreSQL, against a bare node:http server that verifies the
 * same signature over the same body and does no work (the ceiling of this machine).
 *
 * Each bourse runs as its own child process (`src/main.ts`, rate limits and logs off,
 * automatic snapshots off: snapshot cost is measured by bench/recovery.bench.ts); the load
 * generator is another child process (bench/support/order-load-process.ts). Targets are
 * measured back to back within each run, alternating order; reported: medians over runs,
 * and each server's throughput as a fraction of the bare server's (median of per-run ratios).
 *
 * The body: 10 buy/sell pairs of BTCUSDT at one price, each sell filling the buy before it,
 * so every request makes 10 trades (20 fills, bills on both sides) and leaves the book as it
 * was: the run can last as long as wanted without hitting the 400-open-orders limit.
 *
 * Then the paced run: a fixed request rate at half of the goal (goal 100,000 orders/s on
 * SQLite, 50,000 on PostgreSQL: 2,500 and 1,250 requests/s), reporting p99 from the scheduled
 * send time; and at half of each server's own rate, with the bare server paced at that same
 * rate right after (p99 × bare).
 *
 * Each store runs at the server's default (projections written behind the journal on SQLite,
 * with it on PostgreSQL: docs/configuration.md); a store named with `-projection-inline` or
 * `-projection-behind` (sqlite-projection-inline, postgres-projection-behind, …) sets
 * BOURSE_PROJECTION so, for the other path in the same run. After each measurement of a bourse the bench waits until its projector has caught up
 * (bench/support/settle-projection.ts), so it never runs beside the next measurement.
 *
 * Settings: BENCH_RUNS (5), BENCH_DURATION_MS (4000), BENCH_WARMUP_MS (1500),
 * BENCH_CONNECTIONS (64), BENCH_STORES (sqlite,postgres; also sqlite-thread and sqlite-inline:
 * BOURSE_SQLITE_WRITER set; sqlite is the default, the writer thread), BENCH_POSTGRES_URL (admin URL,
 * postgres://postgres@127.0.0.1:5432/postgres; a database is made and dropped),
 * BENCH_POSTGRES_SETTINGS (wal_init_zero=off: given to that database, as docs/configuration.md
 * recommends; empty for the server's own settings), BENCH_CONSOLE (on: the first store is also
 * measured with the console open on the traded market in headless chromium, alternating with
 * it closed in the same run; bench/support/console-viewer.ts).
 */
import { cpus, loadavg } from 'node:os';
import { startBareServer } from './support/bare-server.ts';
import {
  benchDatabase,
  median,
  postgresSettingsLine,
  startBourseChild,
  TOKEN,
  type BourseChild,
} from './support/bourse-child.ts';
import type { OrderLoadInput, OrderLoadResult } from './support/order-load-process.ts';
import { orderBatch, ORDERS_PER_REQUEST, type Workload } from './support/order-batch.ts';
import { runOrderLoad as load } from './support/order-load.ts';
import { openConsoleViewer, type ConsoleViewer } from './support/console-viewer.ts';
import { ServerCpu, type CpuPerOrder } from './support/server-cpu.ts';
import { settleProjection } from './support/settle-projection.ts';

const PATH = '/api/v3/trade/place-batch';
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 4000);
const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 1500);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 64);
const STORES = (
  process.env.BENCH_STORES ?? 'sqlite,postgres,sqlite-projection-inline,postgres-projection-behind'
)
  .split(',')
  .filter(Boolean);
const GOAL_ORDERS_PER_SECOND: Record<string, number> = {
  sqlite: 100_000,
  'sqlite-thread': 100_000,
  'sqlite-inline': 100_000,
  'sqlite-projection-inline': 100_000,
  postgres: 50_000,
  'postgres-projection-inline': 50_000,
  'sqlite-projection-behind': 100_000,
  'postgres-projection-behind': 50_000,
};

interface Target {
  name: string;
  port: number;
  store: string | null;
  /** The server's process (absent: the bare server, in this process). */
  pid?: number;
  /** Its PostgreSQL database, whose backends' CPU counts as the server's. */
  databaseUrl?: string;
  /** Measured with the console open on the traded market. */
  console?: boolean;
}

/** A run's result with what it cost the server and the load generator. */
type Measured = OrderLoadResult & { cpu: CpuPerOrder };

interface Row {
  target: Target;
  workload: Workload;
  runs: Measured[];
  ratios: number[];
  pacedGoal?: OrderLoadResult[];
  pacedHalf?: OrderLoadResult[];
  /** The bare server paced at the same rate as each of `pacedHalf`, right after it. */
  bareAtHalf?: OrderLoadResult[];
}

const WITH_CONSOLE = process.env.BENCH_CONSOLE === 'on';

const WORKLOADS = (process.env.BENCH_WORKLOADS ?? 'entry,crossing').split(',').filter(Boolean) as Workload[];

async function main(): Promise<void> {
  const children: BourseChild[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  try {
    const targets: Target[] = [];
    for (const store of STORES) {
      const databaseUrl = store.startsWith('postgres') ? await benchDatabase(cleanups) : undefined;
      const writer = /^sqlite-(thread|inline)$/.exec(store)?.[1];
      const env: Record<string, string> = writer ? { BOURSE_SQLITE_WRITER: writer } : {};
      const projection = /-projection-(inline|behind)$/.exec(store)?.[1];
      if (projection) env.BOURSE_PROJECTION = projection;
      const child = await startBourseChild({ databaseUrl, env });
      children.push(child);
      targets.push({
        name: `bourse, ${store}`,
        port: child.port,
        store,
        ...(child.process.pid ? { pid: child.process.pid } : {}),
        ...(databaseUrl ? { databaseUrl } : {}),
      });
    }
    const first = children[0];
    if (!first) throw new Error('BENCH_STORES names no store');
    const bare = await startBareServer({ ...first.trader, uid: '1' });
    cleanups.push(() => bare.close());
    targets.unshift({ name: 'bare node:http + HMAC', port: bare.port, store: null });
    let viewer: ConsoleViewer | null = null;
    const firstTarget = targets[1];
    if (WITH_CONSOLE && firstTarget) {
      viewer = await openConsoleViewer(first.url, TOKEN);
      const opened = viewer;
      cleanups.push(() => opened.close());
      targets.push({ ...firstTarget, name: `${firstTarget.name}, console open`, console: true });
    }
    const measure = async (input: OrderLoadInput, target: Target): Promise<Measured> => {
      await (target.console ? viewer?.show() : viewer?.hide());
      const cpu = await ServerCpu.start(target);
      const result = await load(input);
      const child = target.store ? children[STORES.indexOf(target.store)] : undefined;
      // The projector's catching up is part of what the orders cost: inside the CPU window.
      if (child) await settleProjection(child.url, child.trader);
      return { ...result, cpu: cpu.perOrder(result) };
    };

    const inputFor = (
      target: Target,
      body: string,
      durationMs: number,
      ratePerSecond?: number,
    ): OrderLoadInput => {
      const child = children[STORES.indexOf(target.store ?? '')] ?? first;
      return {
        host: '127.0.0.1',
        port: target.port,
        path: PATH,
        body,
        connections: CONNECTIONS,
        durationMs,
        signing: child.trader,
        // The bare server answers a fixed envelope, not per-order results.
        checkEvery: target.store ? 50 : Number.MAX_SAFE_INTEGER,
        ...(ratePerSecond ? { ratePerSecond } : {}),
      };
    };
    const rows: Row[] = [];
    for (const workload of WORKLOADS) {
      const body = orderBatch(workload);
      const byTarget = new Map<Target, Measured[]>(targets.map((target) => [target, []]));
      for (const target of targets) await measure(inputFor(target, body, WARMUP_MS), target);
      for (let run = 0; run < RUNS; run += 1) {
        for (const target of run % 2 === 0 ? targets : [...targets].reverse()) {
          const result = await measure(inputFor(target, body, DURATION_MS), target);
          if (result.errors > 0 || result.non200 > 0 || result.refusedItems > 0) {
            throw new Error(
              `${target.name}: ${result.errors} errors, ${result.non200} non-200, ` +
                `${result.refusedItems} refused items: ${result.firstFailure}`,
            );
          }
          byTarget.get(target)?.push(result);
          process.stderr.write(
            `${workload} run ${run + 1}/${RUNS} ${target.name}: ` +
              `${(result.requestsPerSecond * ORDERS_PER_REQUEST).toFixed(0)} orders/s, ` +
              `p50 ${result.p50Ms.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms, ` +
              `client CPU ${result.clientCpuPercent.toFixed(0)}%\n`,
          );
        }
      }
      const bareRuns = byTarget.get(targets[0] as Target) ?? [];
      for (const target of targets) {
        const runs = byTarget.get(target) ?? [];
        const row: Row = {
          target,
          workload,
          runs,
          ratios: runs.map(
            (result, run) => result.requestsPerSecond / (bareRuns[run]?.requestsPerSecond ?? 1),
          ),
        };
        if (target.store && !target.console) {
          // Paced: at half the goal (entry), and at half of what this server sustained, with
          // the bare server at that same rate right after.
          const goal = (GOAL_ORDERS_PER_SECOND[target.store] ?? 50_000) / 2 / ORDERS_PER_REQUEST;
          const half = median(runs.map((result) => result.requestsPerSecond)) / 2;
          const bareTarget = targets[0] as Target;
          if (workload === 'entry') row.pacedGoal = [];
          row.pacedHalf = [];
          row.bareAtHalf = [];
          for (let run = 0; run < Math.max(1, Math.ceil(RUNS / 2)); run += 1) {
            if (row.pacedGoal)
              row.pacedGoal.push(await measure(inputFor(target, body, DURATION_MS, goal), target));
            row.pacedHalf.push(await measure(inputFor(target, body, DURATION_MS, half), target));
            row.bareAtHalf.push(await measure(inputFor(bareTarget, body, DURATION_MS, half), bareTarget));
          }
        }
        rows.push(row);
      }
    }
    report(rows);
  } finally {
    for (const child of children) await child.stop();
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}

function paced(runs: OrderLoadResult[] | undefined): string {
  if (!runs || runs.length === 0) return '–';
  const rate = median(runs.map((result) => result.requestsPerSecond)) * ORDERS_PER_REQUEST;
  return `${median(runs.map((result) => result.p99Ms)).toFixed(1)} ms (${Math.round(rate).toLocaleString('en-US')}/s served)`;
}

/** The bare server's p99 at each server's half rate, and that server's p99 over it (median of per-run ratios). */
function bareAt(row: Row): string {
  const bare = row.bareAtHalf;
  const own = row.pacedHalf;
  if (!bare || bare.length === 0 || !own) return '–';
  const ratios = own.map((result, run) => result.p99Ms / (bare[run]?.p99Ms ?? Number.NaN));
  return `${median(bare.map((result) => result.p99Ms)).toFixed(1)} ms (${median(ratios).toFixed(1)}×)`;
}

/** Median CPU µs per order of a row's closed-loop runs. */
function cpuMedians(row: Row): CpuPerOrder {
  return {
    serverUs: median(row.runs.map((result) => result.cpu.serverUs)),
    busiestThreadUs: median(row.runs.map((result) => result.cpu.busiestThreadUs)),
    loadUs: median(row.runs.map((result) => result.cpu.loadUs)),
  };
}

function cpuOf(row: Row): string {
  const cpu = cpuMedians(row);
  const busiest = Number.isNaN(cpu.busiestThreadUs) ? '–' : cpu.busiestThreadUs.toFixed(2);
  return `${cpu.serverUs.toFixed(2)}, ${busiest}, ${cpu.loadUs.toFixed(2)}`;
}

/** The throughput goal of each workload, as a fraction of the bare server (issue 25). */
const GOAL_RATIO: Record<Workload, number> = { entry: 0.5, crossing: 0.3 };

/**
 * What the goal's rate leaves each order on this machine's cores: at `ratio` × the bare
 * server's rate, the load generator takes its CPU per order at that rate, the server may use
 * the rest of the cores (all its threads and PostgreSQL's) and at most one core per thread.
 */
function budgetLines(rows: Row[]): string[] {
  const cores = cpus().length;
  const lines: string[] = [];
  for (const workload of WORKLOADS) {
    const bare = rows.find((row) => row.workload === workload && !row.target.store);
    if (!bare) continue;
    const ratio = GOAL_RATIO[workload];
    const goalRate = ratio * median(bare.runs.map((result) => result.requestsPerSecond)) * ORDERS_PER_REQUEST;
    for (const row of rows.filter(
      (each) => each.workload === workload && each.target.store && !each.target.console,
    )) {
      const cpu = cpuMedians(row);
      const serverBudgetUs = (cores * 1e6) / goalRate - cpu.loadUs;
      const threadBudgetUs = 1e6 / goalRate;
      lines.push(
        `${workload}, ${row.target.name}: at ${ratio} × bare (${Math.round(goalRate).toLocaleString('en-US')} orders/s) ` +
          `${cores} cores leave ${serverBudgetUs.toFixed(2)} µs/order for the server (it spends ${cpu.serverUs.toFixed(2)}, ` +
          `${(cpu.serverUs / serverBudgetUs).toFixed(2)}×) and ${threadBudgetUs.toFixed(2)} for one thread ` +
          `(its busiest spends ${cpu.busiestThreadUs.toFixed(2)}, ${(cpu.busiestThreadUs / threadBudgetUs).toFixed(2)}×)`,
      );
    }
  }
  return lines;
}

function report(rows: Row[]): void {
  const lines = [
    `Signed POST ${PATH}, ${ORDERS_PER_REQUEST} orders per request, durable before the answer, ` +
      `${CONNECTIONS} keep-alive connections, median of ${RUNS} runs of ${DURATION_MS / 1000} s`,
    `(Node ${process.version}, ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}; each server and the load ` +
      'generator in their own processes, loopback)',
    ...(STORES.includes('postgres') ? [postgresSettingsLine()] : []),
    '',
    '| workload | server | orders/s | p50 ms | p99 ms | × bare | goal orders/s | p99 at half the goal rate | p99 at half its own rate | bare p99 at that rate (×) | CPU µs/order: server, busiest thread, load generator |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  for (const row of rows) {
    const rps = median(row.runs.map((result) => result.requestsPerSecond));
    const goal = row.target.store ? GOAL_ORDERS_PER_SECOND[row.target.store] : undefined;
    lines.push(
      `| ${row.workload} | ${row.target.name} | ${Math.round(rps * ORDERS_PER_REQUEST).toLocaleString('en-US')} | ` +
        `${median(row.runs.map((result) => result.p50Ms)).toFixed(1)} | ` +
        `${median(row.runs.map((result) => result.p99Ms)).toFixed(1)} | ` +
        `${row.target.store ? median(row.ratios).toFixed(3) : '1'} | ${goal ? goal.toLocaleString('en-US') : '–'} | ` +
        `${paced(row.pacedGoal)} | ${paced(row.pacedHalf)} | ${bareAt(row)} | ${cpuOf(row)} |`,
    );
  }
  lines.push('', ...budgetLines(rows));
  for (const open of rows.filter((row) => row.target.console)) {
    const closed = rows.find(
      (row) => row.workload === open.workload && row.target.port === open.target.port && !row.target.console,
    );
    const ratios = open.runs.map(
      (result, run) => result.requestsPerSecond / (closed?.runs[run]?.requestsPerSecond ?? Number.NaN),
    );
    lines.push(
      '',
      `${open.workload}: console open / closed, same server, same run: ${median(ratios).toFixed(3)} ` +
        `(per run ${ratios.map((ratio) => ratio.toFixed(3)).join(', ')})`,
    );
  }
  lines.push(
    '',
    `load average after the run: ${loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')}`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
}

await main();
