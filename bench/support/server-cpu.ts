/**
 * What a run of the order load cost in CPU, per order served: the server (every thread of its
 * process, and the PostgreSQL backends serving it), its busiest thread, and the load generator.
 * The machine has a fixed number of cores shared by all of them, so these figures say what rate
 * a server can reach at most, whatever the machine's phase: docs/performance.md's CPU budget.
 *
 * The bare server runs inside the benchmark's own process, which does nothing else while the
 * load runs: its figure is that process's CPU time (its busiest thread is not told apart).
 */
import { ORDERS_PER_REQUEST } from './order-batch.ts';
import type { OrderLoadResult } from './order-load-process.ts';
import { postgresBackends, processCpuMs, spent, statCpuMs, threadCpuMs } from './thread-cpu.ts';

export interface CpuPerOrder {
  /** µs of CPU per order served: the server's threads and its PostgreSQL backends. */
  serverUs: number;
  /** µs per order of the server's busiest thread (NaN: not told apart). */
  busiestThreadUs: number;
  /** µs per order of the load generator's process. */
  loadUs: number;
}

interface Measured {
  pid?: number;
  databaseUrl?: string;
}

export class ServerCpu {
  private constructor(
    private readonly target: Measured,
    private readonly backends: number[],
    private readonly threadsBefore: Map<number, number>,
    private readonly processBeforeMs: number,
    private readonly backendsBefore: Map<number, number>,
    private readonly ownBefore: NodeJS.CpuUsage,
  ) {}

  /** Takes the readings before a run. */
  static async start(target: Measured): Promise<ServerCpu> {
    const backends = target.databaseUrl ? await postgresBackends(target.databaseUrl) : [];
    return new ServerCpu(
      target,
      backends,
      target.pid ? threadCpuMs(target.pid) : new Map(),
      target.pid ? statCpuMs(`/proc/${target.pid}/stat`) : 0,
      processCpuMs(backends),
      process.cpuUsage(),
    );
  }

  /** What the run since `start` cost per order of `result`. */
  perOrder(result: OrderLoadResult): CpuPerOrder {
    const orders = result.requests * ORDERS_PER_REQUEST;
    const perOrderUs = (ms: number): number => (orders > 0 ? (ms * 1000) / orders : Number.NaN);
    const loadUs = perOrderUs((result.clientCpuPercent / 100) * result.elapsedMs);
    const { pid } = this.target;
    if (!pid) {
      const own = process.cpuUsage(this.ownBefore);
      return { serverUs: perOrderUs((own.user + own.system) / 1000), busiestThreadUs: Number.NaN, loadUs };
    }
    const threads = [...spent(this.threadsBefore, threadCpuMs(pid)).values()];
    const backends = [...spent(this.backendsBefore, processCpuMs(this.backends)).values()];
    const sum = (values: number[]): number => values.reduce((total, value) => total + value, 0);
    // The process's figure counts every thread, those that ended during the run too.
    const processMs = statCpuMs(`/proc/${pid}/stat`) - this.processBeforeMs;
    return {
      serverUs: perOrderUs(processMs + sum(backends)),
      busiestThreadUs: perOrderUs(Math.max(0, ...threads)),
      loadUs,
    };
  }
}
