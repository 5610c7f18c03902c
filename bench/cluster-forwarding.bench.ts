/**
 * How an edge should forward a command to the leader (`npx tsx bench/cluster-forwarding.bench.ts`;
 * not a test; docs/cluster.md quotes it): HTTP on kept-alive connections against NATS
 * request/reply, the same small request and answer, the far end in a process of its own
 * (bench/support/forward-upstream.ts), closed loop with BENCH_CONCURRENCY (32) requests in
 * flight, BENCH_DURATION_MS (3000) each, alternated over BENCH_RUNS (3). Reported: medians of
 * requests/s and of per-run p50 and p99 latency. This is the transport alone: the leader's own
 * work per request is the same either way.
 */
import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { connect } from 'nats';
import { median, REPO_ROOT } from './support/bourse-child.ts';

const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 32);
const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 3000);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const SUBJECT = `bourse.bench.forward.${process.pid}`;
const BODY = Buffer.from(
  JSON.stringify({
    symbol: 'BTCUSDT',
    side: 'buy',
    orderType: 'limit',
    price: '1000',
    size: '0.01',
    clientOid: 'x',
  }),
);

interface Result {
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}

async function closedLoop(send: () => Promise<unknown>): Promise<Result> {
  const latencies: number[] = [];
  const endMs = performance.now() + DURATION_MS;
  const startedMs = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < endMs) {
        const sentMs = performance.now();
        await send();
        latencies.push(performance.now() - sentMs);
      }
    }),
  );
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * q))] ?? 0;
  return {
    perSecond: (latencies.length * 1000) / (performance.now() - startedMs),
    p50Ms: at(0.5),
    p99Ms: at(0.99),
  };
}

async function main(): Promise<void> {
  const upstream = spawn(
    process.execPath,
    ['--import', 'tsx', 'bench/support/forward-upstream.ts', SUBJECT],
    {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  const port = await new Promise<number>((resolve) =>
    upstream.stdout?.once('data', (chunk: Buffer) => resolve(Number(chunk.toString('utf8').trim()))),
  );
  const nc = await connect({ servers: process.env.BENCH_NATS_URL ?? 'nats://127.0.0.1:4222' });
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const viaHttp = () =>
    new Promise<void>((resolve, reject) => {
      const sent = request(
        { host: '127.0.0.1', port, method: 'POST', path: '/api/v2/spot/trade/place-order', agent },
        (answer) => {
          answer.resume();
          answer.on('end', () => resolve());
        },
      );
      sent.on('error', reject);
      sent.end(BODY);
    });
  const viaNats = () => nc.request(SUBJECT, BODY, { timeout: 5_000 });
  const results: Record<'http' | 'nats', Result[]> = { http: [], nats: [] };
  try {
    await closedLoop(viaHttp);
    await closedLoop(viaNats);
    for (let run = 0; run < RUNS; run += 1) {
      const order: ('http' | 'nats')[] = run % 2 === 0 ? ['http', 'nats'] : ['nats', 'http'];
      for (const way of order) {
        const result = await closedLoop(way === 'http' ? viaHttp : viaNats);
        results[way].push(result);
        process.stderr.write(
          `run ${run + 1} ${way}: ${result.perSecond.toFixed(0)}/s p50 ${result.p50Ms.toFixed(2)} ms\n`,
        );
      }
    }
  } finally {
    agent.destroy();
    await nc.close();
    upstream.kill('SIGTERM');
  }
  for (const way of ['http', 'nats'] as const) {
    const runs = results[way];
    process.stdout.write(
      `${way.padEnd(5)} ${median(runs.map((r) => r.perSecond)).toFixed(0)} requests/s, ` +
        `p50 ${median(runs.map((r) => r.p50Ms)).toFixed(2)} ms, p99 ${median(runs.map((r) => r.p99Ms)).toFixed(2)} ms\n`,
    );
  }
}

await main();
