/**
 * Cluster figures (`npm run bench:cluster`; not a test; docs/cluster.md quotes them):
 * - orders/s (place-batch, 20 orders per request, closed loop) on one process alone on
 *   PostgreSQL, on a cluster's leading engine reached directly, through one edge, and through
 *   three edges (the same connections spread over them), measured back to back in one run;
 *   and through one edge counting the shared rate limits (limits scaled so that none is met:
 *   the cost of counting and of the edges' statements in PostgreSQL, not of refusals);
 * - WebSocket delivery to clients subscribed to BTCUSDT's trades and books, spread over three
 *   edges, against the same clients on the leader itself, under the same crossing load sent to
 *   the leader directly (so both see the same commits): frames/s, and trades/s each client
 *   received (a frame carries every trade of one push, so frames/s alone rewards small
 *   pushes), and a trade's time to its arrival; edges fed by the JetStream entry stream and
 *   edges reading the journal table every 50 ms (no BOURSE_NATS_URL), both sets running, measured
 *   in turn with the leader in each run;
 * - failover time: the leader SIGKILLed BENCH_KILLS times, from the kill to the standby
 *   answering /ready, the killed engine started again as the next standby each time.
 * Everything (engines, edges, load generators, PostgreSQL, NATS) shares this machine.
 *
 * Settings: BENCH_DURATION_MS (3000), BENCH_CONNECTIONS (30), BENCH_KILLS (5), BENCH_WS_CLIENTS (30),
 * BENCH_RUNS (3), BENCH_PARTS (`orders,ws,failover`: the measures to run).
 */
import { randomBytes } from 'node:crypto';
import { connect as natsConnect } from 'nats';
import WebSocket from 'ws';
import { streamNameOf } from '../src/cluster/entry-stream.ts';
import { benchDatabase, median, startBourseChild, type Trader } from './support/bourse-child.ts';
import { orderBatch, ORDERS_PER_REQUEST, type Workload } from './support/order-batch.ts';
import { spawnNode, type Node } from './support/cluster-node.ts';
import { runOrderLoad } from './support/order-load.ts';

const DURATION_MS = Number(process.env.BENCH_DURATION_MS ?? 3000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 30);
const KILLS = Number(process.env.BENCH_KILLS ?? 5);
const WS_CLIENTS = Number(process.env.BENCH_WS_CLIENTS ?? 30);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const NATS_URL = process.env.BENCH_NATS_URL ?? 'nats://127.0.0.1:4222';
const PARTS = new Set((process.env.BENCH_PARTS ?? 'orders,ws,failover').split(','));

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

interface Delivery {
  framesPerSecond: number;
  /** Trades received per second by each client (the mean over clients). */
  tradesPerSecond: number;
  /** Trades each client received per trade committed (the crossing load makes one per two orders). */
  delivered: number;
  /** From a trade's time to its arrival at the first client, median and 99th percentile (ms). */
  latencyP50Ms: number;
  latencyP99Ms: number;
}

/** Frames and trades received by WS_CLIENTS clients spread over `urls` during `work`. */
async function delivery(urls: string[], work: () => Promise<number>): Promise<Delivery> {
  let frames = 0;
  let trades = 0;
  let counting = false;
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
  const latencies: number[] = [];
  for (const [index, socket] of sockets.entries())
    socket.on('message', (data: Buffer) => {
      if (!counting) return;
      frames += 1;
      const text = data.toString('utf8');
      if (!text.includes('"channel":"trade"') || !text.includes('"action":"update"')) return;
      const rows = (JSON.parse(text) as { data?: { ts?: string }[] }).data ?? [];
      trades += rows.length;
      if (index === 0) for (const row of rows) latencies.push(Date.now() - Number(row.ts));
    });
  counting = true;
  const startedMs = performance.now();
  const ordersPerSecond = await work();
  const workSeconds = (performance.now() - startedMs) / 1000;
  // What was committed during the load and is still on its way is counted too.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const seconds = (performance.now() - startedMs) / 1000;
  counting = false;
  for (const socket of sockets) socket.terminate();
  latencies.sort((a, b) => a - b);
  return {
    framesPerSecond: frames / seconds,
    tradesPerSecond: trades / seconds / WS_CLIENTS,
    delivered: trades / WS_CLIENTS / ((ordersPerSecond / 2) * workSeconds),
    latencyP50Ms: latencies[Math.floor(latencies.length / 2)] ?? 0,
    latencyP99Ms: latencies[Math.floor(latencies.length * 0.99)] ?? 0,
  };
}

/** Three edges of the cluster `env`, each ready. */
/**
 * An edge's settings here: edges authenticate and answer reads themselves; the load is writes,
 * sent on to the leader, with no limits counted (one edge counts them, scaled, on its own row).
 */
const EDGE_ENV = {
  BOURSE_ROLE: 'edge',
  BOURSE_FOLLOW_EVERY_MS: '50',
  BOURSE_LOG: 'off',
  BOURSE_RATE_LIMITS: 'off',
};

async function startEdges(env: Record<string, string>): Promise<Node[]> {
  const edges: Node[] = [];
  for (let index = 0; index < 3; index += 1)
    edges.push(await spawnNode({ ...env, ...EDGE_ENV }, 'edge is listening'));
  return edges;
}

/** A summary of `values` for the figures: the median of each measure. */
function medianOf(values: Delivery[], pick: (delivery: Delivery) => number): number {
  return median(values.map(pick));
}

/**
 * RUNS times, back to back: the clients through each set of edges, then on the leader, under
 * the same crossing load sent to the leader; the medians, and each set's figures as ratios of
 * the leader's in the same run.
 */
async function deliveryRows(
  sets: { label: string; edges: Node[] }[],
  leader: { url: string; port: number },
  trader: Trader,
): Promise<string[]> {
  const viaEdges: Delivery[][] = sets.map(() => []);
  const direct: Delivery[] = [];
  const load = () => ordersPerSecond([leader.port], trader, 'crossing');
  for (let run = 0; run < RUNS; run += 1) {
    for (const [index, set] of sets.entries()) {
      const measured = await delivery(
        set.edges.map((edge) => edge.url),
        load,
      );
      viaEdges[index]?.push(measured);
      process.stderr.write(`run ${run + 1} ${set.label}: ${JSON.stringify(measured)}\n`);
    }
    direct.push(await delivery([leader.url], load));
    process.stderr.write(`run ${run + 1} leader: ${JSON.stringify(direct.at(-1))}\n`);
  }
  const lines = sets.map(({ label }, index) => {
    const values = viaEdges[index] ?? [];
    const ratio = (pick: (delivery: Delivery) => number) =>
      median(values.map((value, run) => pick(value) / pick(direct[run] as Delivery)));
    return (
      `  WebSocket through 3 edges ${label}: ${medianOf(values, (v) => v.framesPerSecond).toFixed(0)} frames/s ` +
      `(${ratio((v) => v.framesPerSecond).toFixed(2)}× the leader's), ` +
      `${medianOf(values, (v) => v.tradesPerSecond).toFixed(0)} trades/s to each client (${ratio((v) => v.tradesPerSecond).toFixed(2)}×), ` +
      `${ratio((v) => v.delivered).toFixed(2)}× the leader's share of the trades committed, ` +
      `a trade's time to arrival p50 ${medianOf(values, (v) => v.latencyP50Ms).toFixed(0)} ms, p99 ${medianOf(values, (v) => v.latencyP99Ms).toFixed(0)} ms`
    );
  });
  lines.push(
    `  the same clients on the leader, no edge: ${medianOf(direct, (v) => v.framesPerSecond).toFixed(0)} frames/s, ` +
      `${medianOf(direct, (v) => v.tradesPerSecond).toFixed(0)} trades/s to each client, ` +
      `p50 ${medianOf(direct, (v) => v.latencyP50Ms).toFixed(0)} ms, p99 ${medianOf(direct, (v) => v.latencyP99Ms).toFixed(0)} ms`,
  );
  return lines;
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
    const edges = await startEdges(clusterEnv);
    nodes.push(...edges);
    // Limits counted and shared, scaled so that the load never meets them.
    const limitedEdge = await spawnNode(
      { ...clusterEnv, ...EDGE_ENV, BOURSE_RATE_LIMITS: 'x100000' },
      'edge is listening',
    );
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
    for (let run = 0; run < (PARTS.has('orders') ? RUNS : 0); run += 1) {
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
    const deliveryLines: string[] = [];
    if (PARTS.has('ws')) {
      const { BOURSE_NATS_URL: _, ...withoutNats } = clusterEnv;
      const polling = await startEdges(withoutNats);
      nodes.push(...polling);
      const sets = [
        { label: 'fed by the entry stream', edges },
        { label: 'reading the journal table every 50 ms', edges: polling },
      ];
      deliveryLines.push(...(await deliveryRows(sets, leader, trader)));
      for (const edge of polling) await edge.stop();
    }

    // Failover: a standby, then KILLS kills of whichever leads.
    let current: { url: string; stop(signal?: NodeJS.Signals): Promise<void> } = leader;
    let standby = await spawnNode({ ...engineEnv, BOURSE_LOG: 'info' }, 'standing by');
    nodes.push(standby);
    const failovers: number[] = [];
    for (let kill = 0; kill < (PARTS.has('failover') ? KILLS : 0); kill += 1) {
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
      ...rows
        .filter(([, values]) => values.length > 0)
        .map(([label, values]) => `  ${label.padEnd(34)} ${median(values).toFixed(0).padStart(7)} orders/s`),
      ...deliveryLines,
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
