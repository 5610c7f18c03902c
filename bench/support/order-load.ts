/** Runs the place-batch load generator (order-load-process.ts) as its own process. */
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { BourseChild } from './bourse-child.ts';
import { orderBatch, type Workload } from './order-batch.ts';
import type { OrderLoadInput, OrderLoadResult } from './order-load-process.ts';

const LOAD_PROCESS = fileURLToPath(new URL('./order-load-process.ts', import.meta.url));

export function runOrderLoad(input: OrderLoadInput): Promise<OrderLoadResult> {
  return new Promise((resolve, reject) =>
    execFile(process.execPath, ['--import', 'tsx', LOAD_PROCESS, JSON.stringify(input)], (error, stdout) =>
      error ? reject(error) : resolve(JSON.parse(stdout) as OrderLoadResult),
    ),
  );
}

/**
 * The entry body (or `workload`'s) against `child`: a closed loop when `ratePerSecond` is 0,
 * else paced.
 */
export function entryLoad(
  child: BourseChild,
  ratePerSecond: number,
  durationMs: number,
  connections = 64,
  windowMs?: number,
  workload: Workload = 'entry',
): Promise<OrderLoadResult> {
  return runOrderLoad({
    host: '127.0.0.1',
    port: child.port,
    path: '/api/v3/trade/place-batch',
    body: orderBatch(workload),
    connections,
    durationMs,
    signing: child.trader,
    checkEvery: 50,
    ...(ratePerSecond > 0 ? { ratePerSecond } : {}),
    ...(windowMs ? { windowMs } : {}),
  });
}
