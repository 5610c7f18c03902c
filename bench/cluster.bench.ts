/**
 * Cluster figures (`npm run bench:cluster`; not a test; docs/cluster.md quotes them):
 * - orders/s (place-batch, 20 orders per request, closed loop) on one process alone on
 *   PostgreSQL, on a cluster's leading engine reached directly, through one edge, and through
 *   three edges (the same connections spread over them), measured back to back in one run;
 *   and through one edge counting the shared rate limits (limits scaled so that none is met:
 *   the cost of counting and of the edges' statements in PostgreSQL, not of refusals);
 * - WebSocket frames/s delivered through three edges to clients subscribed to BTCUSDT's trades
 *   and books while crossing orders go in through the edges;
 * - failover time: the leader SIGKILLed BENCH_KILLS times, from the kill to the standby
 *   answering /ready, the killed engine started again as the next standby each time.
 * Everything (engines, edges, load generators, PostgreSQL, NATS) shares this machine.
 *
 * Settings: BENCH_DURATION_MS (3000), BENCH_CONNECTIONS (30), BENCH_KILLS (5), BENCH_WS_CLIENTS (30),
 * BENCH_RUNS (3).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect as natsConnect } from 'nats';
import WebSocket from 'ws';
import { streamNameOf } from '../src/cluster/entry-stream.ts';
import {
  benchDatabase,
  freePort,
  median,
  REPO_ROOT,
  startBourseChild,
  type Trader,
} from './support/bourse-child.ts';
import { orderBatch, ORDERS_PER_REQUEST, type Workload } from './support/order-batch.ts';
import { runOrderLoad } from './support/order-load.ts';

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 3000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 30);
const KILLS = Number(process.env.BENCH_KILLS ?? 5);
const WS_CLIENTS = Number(process.env.BENCH_WS_CLIENTS ?? 30);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const NATS_URL = process.env.BENCH_NATS_URL ?? 'nats://127.0.0.1:4222';

interface Node {
  port: number;
  url: string;
  child: ChildProcess;
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

async function spawnNode(env: Record<string, string>, ready: string): Promise<Node> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bourse-cluster-bench-'));
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), BOURSE_DATA_DIR: dataDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let waited = 0; !output.includes(ready); waited += 20) {
    if (waited > 60_000 || child.exitCode !== null) throw new Error(`did not start: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    child,
    output: () => output,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function readyStatus(url: string): Promise<string | null> {
  try {
    const response = await fetch(`${url}/ready`, { signal: AbortSignal.timeout(500) });
    return ((await response.json()) as { status?: string }).status ?? null;
  } catch {
    return null;
  }
}

/** Orders/s of a closed loop spread over `ports` (CONNECTIONS in all). */
async function ordersPerSecond(
  ports: number[],
  trader: Trader,
  workload: Workload,
  connections = CONNECTIONS,
  durationMs = DURATION_MS,
): Promise<number> {
  const results = await Promise.all(
    ports.map((port) =>
      runOrderLoad({
        host: '127.0.0.1',
        port,
        path: '/api/v3/trade/place-batch',
        body: orderBatch(workload),
        connections: Math.max(1, Math.round(connections / ports.length)),
        durationMs,
        signing: trader,
        checkEvery: 50,
      }),
    ),
  );
  for (const result of results) {
    if (result.errors > 0 || result.non200 > 0 || result.refusedItems > 0)
      throw new Error(`load failed: ${result.firstFailure}`);
  }
  return results.reduce((sum, result) => sum + result.requestsPerSecond * ORDERS_PER_REQUEST, 0);
}

/** Frames received by WS_CLIENTS clients spread over `urls` during `work`. */
async function framesPerSecond(urls: string[], work: () => Promise<unknown>): Promise<number> {
  let frames = 0;
  const sockets = await Promise.all(
    Array.from({ length: WS_CLIENTS }, (_, index) => {
      const socket = new WebSocket(`${(urls[index % urls.length] ?? '').replace('http', 'ws')}/v2/ws/public`);
      return new Promise<WebSocket>((resolve, reject) => {
        socket.on('open', () => {
          socket.send(
            JSON.stringify({
              op: 'subscribe',
              args: ['trade', 'books'].map((channel) => ({ instType: 'SPOT', channel, instId: 'BTCUSDT' })),
            }),
          );
          resolve(socket);
        });
        socket.on('error', reject);
      });
    }),
  );
  for (const socket of sockets) socket.on('message', () => (frames += 1));
  const startedMs = performance.now();
  const countedFrom = frames;
  await work();
  const rate = ((frames - countedFrom) * 1000) / (performance.now() - startedMs);
  for (const socket of sockets) socket.terminate();
  return rate;
}

async function main(): Promise<void> {
  const cleanups: (() => Promise<void>)[] = [];
  const nodes: Node[] = [];
  try {
    const single = await startBourseChild({ databaseUrl: await benchDatabase(cleanups) });
    cleanups.push(() => single.stop());
    const name = `bench_${randomBytes(3).toString('hex')}`;
    cleanups.push(async () => {
      const nc = await natsConnect({ servers: NATS_URL });
      await (await nc.jetstreamManager()).streams.delete(streamNameOf(name)).catch(() => false);
      await nc.close();
    });
    const databaseUrl = await benchDatabase(cleanups);
    const clusterEnv = {
      BOURSE_ROLE: 'engine',
      BOURSE_CLUSTER_NAME: name,
      BOURSE_DATABASE_URL: databaseUrl,
      BOURSE_SERVER_KEY: randomBytes(32).toString('hex'),
      BOURSE_NATS_URL: NATS_URL,
      BOURSE_TRUST_PROXY: 'true',
    };
    const leader = await startBourseChild({ databaseUrl, env: clusterEnv });
    cleanups.push(() => leader.stop());
    const engineEnv = {
      ...clusterEnv,
      BOURSE_OPERATOR_TOKEN: 'bench-operator-token-0123456789abcdef',
      BOURSE_RATE_LIMITS: 'off',
      BOURSE_SEED_DEMO: 'false',
      BOURSE_SNAPSHOT_EVERY: '0',
      BOURSE_FEED: 'off',
      BOURSE_LIQUIDITY: 'off',
    };
    // Edges authenticate and answer reads themselves; the load is writes, sent on to the leader.
    const edgeEnv = {
      ...clusterEnv,
      BOURSE_ROLE: 'edge',
      BOURSE_FOLLOW_EVERY_MS: '50',
      BOURSE_LOG: 'off',
      BOURSE_RATE_LIMITS: 'off',
    };
    const edges: Node[] = [];
    for (let index = 0; index < 3; index += 1) {
      const edge = await spawnNode(edgeEnv, 'edge is listening');
      edges.push(edge);
      nodes.push(edge);
    }
    // Limits counted and shared, scaled so that the load never meets them.
    const limitedEdge = await spawnNode({ ...edgeEnv, BOURSE_RATE_LIMITS: 'x100000' }, 'edge is listening');
    nodes.push(limitedEdge);
    const trader = leader.trader;
    const rows: [string, number[]][] = [
      ['one process alone (PostgreSQL)', []],
      ['cluster leader, direct', []],
      ['cluster, through 1 edge', []],
      ['cluster, through 3 edges', []],
      ['through 1 edge, shared limits counted', []],
    ];
    const edgePorts = edges.map((edge) => edge.port);
    // One connection first: the passphrase is verified once (scrypt) before the load, whose
    // concurrent first checks would otherwise meet the per-key limit on checks in progress.
    await ordersPerSecond([single.port], single.trader, 'entry', 1, 300);
    for (const port of [leader.port, ...edgePorts, limitedEdge.port])
      await ordersPerSecond([port], trader, 'entry', 1, 300);
    for (let run = 0; run < RUNS; run += 1) {
      const measures = [
        () => ordersPerSecond([single.port], single.trader, 'entry'),
        () => ordersPerSecond([leader.port], trader, 'entry'),
        () => ordersPerSecond(edgePorts.slice(0, 1), trader, 'entry'),
        () => ordersPerSecond(edgePorts, trader, 'entry'),
        () => ordersPerSecond([limitedEdge.port], trader, 'entry'),
      ];
      for (const [index, measure] of measures.entries()) {
        const value = await measure();
        rows[index]?.[1].push(value);
        process.stderr.write(`run ${run + 1} ${rows[index]?.[0]}: ${value.toFixed(0)} orders/s\n`);
      }
    }
    const frames = await framesPerSecond(
      edges.map((edge) => edge.url),
      () => ordersPerSecond(edgePorts, trader, 'crossing'),
    );
    const framesFromLeader = await framesPerSecond([leader.url], () =>
      ordersPerSecond([leader.port], trader, 'crossing'),
    );

    // Failover: a standby, then KILLS kills of whichever leads.
    let current: { url: string; stop(signal?: NodeJS.Signals): Promise<void> } = leader;
    let standby = await spawnNode({ ...engineEnv, BOURSE_LOG: 'info' }, 'standing by');
    nodes.push(standby);
    const failovers: number[] = [];
    for (let kill = 0; kill < KILLS; kill += 1) {
      const killedMs = performance.now();
      await current.stop('SIGKILL');
      while ((await readyStatus(standby.url)) !== 'ready') {
        if (performance.now() - killedMs > 20_000) throw new Error('no standby took over in 20 s');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      failovers.push(performance.now() - killedMs);
      process.stderr.write(`kill ${kill + 1}: the standby led after ${failovers.at(-1)?.toFixed(0)} ms\n`);
      current = standby;
      standby = await spawnNode({ ...engineEnv, BOURSE_LOG: 'info' }, 'standing by');
      nodes.push(standby);
    }

    const lines = [
      `cluster figures, ${new Date().toISOString()}, ${DURATION_MS} ms per measure, ${CONNECTIONS} connections, medians of ${RUNS} runs`,
      ...rows.map(
        ([label, values]) => `  ${label.padEnd(34)} ${median(values).toFixed(0).padStart(7)} orders/s`,
      ),
      `  WebSocket frames/s through 3 edges (${WS_CLIENTS} clients, trades and books, crossing load): ${frames.toFixed(0)}`,
      `  the same from the leader itself, no edge: ${framesFromLeader.toFixed(0)}`,
      `  failover (SIGKILL to the standby ready), ${KILLS} kills: median ${median(failovers).toFixed(0)} ms, ` +
        `worst ${Math.max(0, ...failovers).toFixed(0)} ms`,
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    for (const node of nodes.reverse()) await node.stop('SIGKILL').catch(() => undefined);
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  }
}

await main();
