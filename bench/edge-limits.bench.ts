/**
 * What the shared rate limits cost an edge (`npx tsx bench/edge-limits.bench.ts`; not a test;
 * docs/cluster.md quotes it): orders/s (place-batch, 20 orders per request, closed loop)
 * through two edges of one cluster, one with BOURSE_RATE_LIMITS=off and one counting every
 * request against limits scaled so that none is met (x100000: the cost of counting and of the
 * edge's statements in PostgreSQL, not of refusals), measured alternately, BENCH_RUNS times.
 * Everything (the engine, the edges, the load generators, PostgreSQL) shares this machine.
 * Then reads: signed GETs of the trader's spot assets (answered by the edge from its follower)
 * through the edge, against the same on the leader, from 30 loops in this process.
 * First, in this process, the decision alone: `allow` calls per second of the shared limiter
 * (syncing every 25 ms meanwhile) against the single process's in-memory one, 1,000 callers.
 *
 * Settings: BENCH_DURATION_MS (3000), BENCH_CONNECTIONS (30), BENCH_RUNS (5).
 */
import { randomBytes } from 'node:crypto';
import { createHmac } from 'node:crypto';
import { Agent, request as httpRequest } from 'node:http';
import pg from 'pg';
import { RateLimiter } from '../src/api/rate-limit.ts';
import { SharedRateLimiter } from '../src/cluster/shared-rate-limit.ts';
import { benchDatabase, median, startBourseChild, type Trader } from './support/bourse-child.ts';
import { orderBatch, ORDERS_PER_REQUEST } from './support/order-batch.ts';
import { spawnNode } from './support/cluster-node.ts';
import { runOrderLoad } from './support/order-load.ts';

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 3000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 30);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);

/** `allow` calls per second over `callers` subjects for about `durationMs`. */
async function decisionsPerSecond(
  limiter: Pick<RateLimiter, 'allow'>,
  callers: number,
  durationMs: number,
): Promise<number> {
  const rule = { perSecond: 1_000_000, by: 'uid' as const };
  let calls = 0;
  const startedMs = performance.now();
  while (performance.now() - startedMs < durationMs) {
    for (let n = 0; n < 10_000; n += 1)
      limiter.allow('/api/v3/trade/place-batch', rule, String(n % callers), Date.now());
    calls += 10_000;
    // Let the shared limiter's sync run, as it does between requests.
    await new Promise((resolve) => setImmediate(resolve));
  }
  return (calls * 1000) / (performance.now() - startedMs);
}

/** Signed GETs per second from `loops` closed loops on kept-alive connections to `port`. */
async function readsPerSecond(
  port: number,
  trader: Trader,
  loops: number,
  durationMs: number,
): Promise<number> {
  const agent = new Agent({ keepAlive: true, maxSockets: loops });
  const path = '/api/v2/spot/account/assets';
  const get = () =>
    new Promise<void>((resolve, reject) => {
      const timestamp = String(Date.now());
      const sign = createHmac('sha256', trader.secretKey).update(`${timestamp}GET${path}`).digest('base64');
      const request = httpRequest(
        {
          host: '127.0.0.1',
          port,
          path,
          agent,
          headers: {
            'access-key': trader.apiKey,
            'access-sign': sign,
            'access-timestamp': timestamp,
            'access-passphrase': trader.passphrase,
          },
        },
        (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
          response.on('end', () =>
            text.includes('"code":"00000"') ? resolve() : reject(new Error(`read failed: ${text}`)),
          );
        },
      );
      request.on('error', reject);
      request.end();
    });
  let reads = 0;
  const startedMs = performance.now();
  await Promise.all(
    Array.from({ length: loops }, async () => {
      while (performance.now() - startedMs < durationMs) {
        await get();
        reads += 1;
      }
    }),
  );
  agent.destroy();
  return (reads * 1000) / (performance.now() - startedMs);
}

async function decisionCost(databaseUrl: string): Promise<string[]> {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const config = { enabled: true, scale: 1, overrides: {} };
  const shared = await SharedRateLimiter.start({
    pool,
    cluster: 'bench',
    config,
    syncMs: 25,
    onError: (error) => process.stderr.write(`${String(error)}\n`),
  });
  const local = new RateLimiter(config);
  const figures: [number[], number[]] = [[], []];
  for (let run = 0; run < RUNS; run += 1) {
    figures[0].push(await decisionsPerSecond(local, 1_000, 500));
    figures[1].push(await decisionsPerSecond(shared, 1_000, 500));
  }
  shared.stop();
  await pool.end();
  const perSecond = figures.map((values) => median(values));
  return [
    `  decisions/s, in memory (one process)      ${(perSecond[0] ?? 0).toFixed(0).padStart(10)}`,
    `  decisions/s, shared (25 ms sync)          ${(perSecond[1] ?? 0).toFixed(0).padStart(10)}`,
  ];
}

async function main(): Promise<void> {
  const cleanups: (() => Promise<void>)[] = [];
  try {
    const databaseUrl = await benchDatabase(cleanups);
    const decisions = await decisionCost(databaseUrl);
    process.stderr.write(`${decisions.join('\n')}\n`);
    const clusterEnv = {
      BOURSE_ROLE: 'engine',
      BOURSE_CLUSTER_NAME: `bench_${randomBytes(3).toString('hex')}`,
      BOURSE_DATABASE_URL: databaseUrl,
      BOURSE_SERVER_KEY: randomBytes(32).toString('hex'),
      BOURSE_TRUST_PROXY: 'true',
    };
    const leader = await startBourseChild({ databaseUrl, env: clusterEnv });
    cleanups.push(() => leader.stop());
    const edgeEnv = { ...clusterEnv, BOURSE_ROLE: 'edge', BOURSE_FOLLOW_EVERY_MS: '50', BOURSE_LOG: 'off' };
    const edges = [
      {
        label: 'through an edge, limits off',
        edge: await spawnNode({ ...edgeEnv, BOURSE_RATE_LIMITS: 'off' }, 'edge is listening'),
      },
      {
        label: 'through an edge, shared limits counted',
        edge: await spawnNode({ ...edgeEnv, BOURSE_RATE_LIMITS: 'x100000' }, 'edge is listening'),
      },
    ];
    for (const { edge } of edges) cleanups.push(() => edge.stop('SIGKILL'));
    const measure = async (port: number, connections: number, durationMs: number) => {
      const result = await runOrderLoad({
        host: '127.0.0.1',
        port,
        path: '/api/v3/trade/place-batch',
        body: orderBatch('entry'),
        connections,
        durationMs,
        signing: leader.trader,
        checkEvery: 50,
      });
      if (result.errors > 0 || result.non200 > 0 || result.refusedItems > 0)
        throw new Error(`load failed: ${result.firstFailure}`);
      return result.requestsPerSecond * ORDERS_PER_REQUEST;
    };
    // One connection first: the passphrase is verified once (scrypt) before the load.
    for (const { edge } of edges) await measure(edge.port, 1, 300);
    const figures = edges.map(() => [] as number[]);
    const ratios: number[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      // Alternate which goes first, so a drift of the machine's load falls on both alike.
      const order = run % 2 === 0 ? [0, 1] : [1, 0];
      const values: number[] = [0, 0];
      for (const index of order) {
        const value = await measure(edges[index]?.edge.port ?? 0, CONNECTIONS, DURATION_MS);
        values[index] = value;
        figures[index]?.push(value);
        process.stderr.write(`run ${run + 1} ${edges[index]?.label}: ${value.toFixed(0)} orders/s\n`);
      }
      ratios.push((values[1] ?? 0) / (values[0] ?? 1));
    }
    const reads: [number[], number[]] = [[], []];
    await readsPerSecond(edges[0]?.edge.port ?? 0, leader.trader, 1, 300);
    for (let run = 0; run < RUNS; run += 1) {
      reads[0].push(await readsPerSecond(leader.port, leader.trader, CONNECTIONS, DURATION_MS));
      reads[1].push(await readsPerSecond(edges[0]?.edge.port ?? 0, leader.trader, CONNECTIONS, DURATION_MS));
      process.stderr.write(
        `run ${run + 1} reads/s: leader ${reads[0].at(-1)?.toFixed(0)}, edge ${reads[1].at(-1)?.toFixed(0)}\n`,
      );
    }
    const lines = [
      `edge limits, ${new Date().toISOString()}, ${DURATION_MS} ms per measure, ${CONNECTIONS} connections, medians of ${RUNS} runs`,
      ...edges.map(
        ({ label }, index) =>
          `  ${label.padEnd(40)} ${median(figures[index] ?? [])
            .toFixed(0)
            .padStart(7)} orders/s`,
      ),
      `  counted / off, median of the runs' ratios: ${median(ratios).toFixed(2)}`,
      ...decisions,
      `  reads/s (GET spot assets, ${CONNECTIONS} loops), on the leader ${median(reads[0]).toFixed(0)}, through an edge ${median(reads[1]).toFixed(0)}`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup();
  }
}

await main();
