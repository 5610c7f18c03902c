/**
 * The venue API at the edges (src/cluster/edge-reads.ts): reads answered from each edge's
 * follower with read-your-writes, authentication at the edge, and rate limits shared by the
 * edges through PostgreSQL, through a leader failover.
 *
 * The edges follow the journal only every 2 s here unless a read asks (BOURSE_FOLLOW_EVERY_MS),
 * so a read that saw its own write did so by waiting for it, not by luck. The engines run
 * without limits of their own (BOURSE_RATE_LIMITS=off): every limit met is the edges'.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { RestClientV2 } from 'bitget-api';
import pg from 'pg';
import { accountWithKey, OperatorClient } from '../support/operator.ts';
import { SigningClient, type ApiCredentials } from '../support/signing.ts';
import { databaseFor, postgresTests } from '../persistence/postgres-test-database.ts';
import {
  clusterFor,
  startEngine,
  status,
  waitFor,
  type ClusterSettings,
  type Engine,
} from './cluster-support.ts';

const PLACE = '/api/v2/spot/trade/place-order';
const OPEN_ORDERS = '/api/v2/spot/trade/unfilled-orders';

interface Cluster {
  /** The cluster's name (BOURSE_CLUSTER_NAME): its rows of the shared rate counts. */
  name: string;
  engines: Engine[];
  edges: Engine[];
  credentials: ApiCredentials;
  operatorToken: string;
}

/** `engines` engines (the first leads) and two edges, with the edges' rate limits `limits`. */
async function startCluster(
  t: TestContext,
  databaseUrl: string,
  engines: number,
  limits: Record<string, number> | 'off',
): Promise<Cluster> {
  const cluster = clusterFor(t, databaseUrl, { BOURSE_RATE_LIMITS: 'off', BOURSE_TRUST_PROXY: 'true' });
  const first = await startEngine(t, cluster);
  await waitFor(async () => (await status(first.url)) === 'ready', 20_000, 'the first engine to lead');
  const standbys = await Promise.all(Array.from({ length: engines - 1 }, () => startEngine(t, cluster)));
  // The edges read the journal table only every 2 s and not the entry stream (which would bring
  // each write within milliseconds): a read sees a write at once only if it waits for it.
  const { BOURSE_NATS_URL: _stream, ...withoutStream } = cluster.env;
  const edgeSettings: ClusterSettings = {
    name: cluster.name,
    env: {
      ...withoutStream,
      BOURSE_ROLE: 'edge',
      BOURSE_FOLLOW_EVERY_MS: '2000',
      BOURSE_EDGE_RATE_SYNC_MS: '10',
      BOURSE_RATE_LIMITS: limits === 'off' ? 'off' : JSON.stringify(limits),
    },
  };
  const edges = await Promise.all([0, 1].map(() => startEngine(t, edgeSettings)));
  // An edge forwards /ready to the leader it found: the cases below time their requests, so
  // they begin once both edges reach a ready leader. CI failed once (2026-11-26) with 40006
  // (unknown key) from an edge asked at once; the cause was not found, nor reproduced in runs
  // of this file alone.
  for (const edge of edges)
    await waitFor(
      async () => (await status(edge.url)) === 'ready',
      20_000,
      `the edge ${edge.url} to be ready`,
    );
  const stored = JSON.parse(readFileSync(join(first.dataDir, 'credentials.json'), 'utf8')) as Record<
    string,
    string
  >;
  const credentials = {
    apiKey: stored.apiKey ?? '',
    secretKey: stored.secretKey ?? '',
    passphrase: stored.passphrase ?? '',
  };
  return {
    name: cluster.name,
    engines: [first, ...standbys],
    edges,
    credentials,
    operatorToken: cluster.env.BOURSE_OPERATOR_TOKEN ?? '',
  };
}

function sdkOf(edge: Engine, credentials: ApiCredentials): RestClientV2 {
  return new RestClientV2({
    apiKey: credentials.apiKey,
    apiSecret: credentials.secretKey,
    apiPass: credentials.passphrase,
    baseUrl: edge.url,
  });
}

/** A resting spot buy far under the market, as the SDK places it. */
function restingBuy(clientOid: string) {
  return {
    symbol: 'BTCUSDT',
    side: 'buy' as const,
    orderType: 'limit' as const,
    force: 'gtc' as const,
    price: '1000',
    size: '0.01',
    clientOid,
  };
}

/**
 * Waits until the next second begins (on this machine's clock, which is PostgreSQL's here), and
 * 25 ms more: each edge's second is PostgreSQL's as it measured it, within a few ms; that second.
 */
async function startOfSecond(): Promise<number> {
  await new Promise((resolve) => setTimeout(resolve, 1_000 - (Date.now() % 1_000) + 25));
  return Math.floor(Date.now() / 1_000);
}

function stillIn(second: number): boolean {
  return Math.floor(Date.now() / 1_000) === second;
}

/**
 * Runs `requests` from the start of a second, and again from the start of a new one (a fresh
 * budget) when a loaded machine spilled them over into the next, three times at most: the last
 * attempt's answers, the second it began in, and whether it ended within that second.
 */
async function withinOneSecond<T>(
  t: TestContext,
  requests: (attempt: number) => Promise<T>,
): Promise<{ answers: T; second: number; within: boolean }> {
  for (let attempt = 0; ; attempt += 1) {
    const second = await startOfSecond();
    const answers = await requests(attempt);
    const within = stillIn(second);
    if (within || attempt === 2) return { answers, second, within };
    t.diagnostic(`attempt ${attempt + 1} spilled into the next second: ${JSON.stringify(answers)}`);
  }
}

/**
 * The place requests the edges have reported to PostgreSQL for seconds from `since` on (every
 * second of an attempt and the one before, whichever second each edge counted a request in).
 */
async function reportedPlaces(pool: pg.Pool, cluster: string, since: number): Promise<number> {
  const { rows } = await pool.query<{ n: string }>(
    `SELECT COALESCE(SUM(count), 0) AS n FROM cluster_rate_counts
      WHERE cluster = $1 AND left(window_key, length($2)) = $2 AND second >= $3`,
    [cluster, `${PLACE}|`, since],
  );
  return Number(rows[0]?.n ?? 0);
}

/**
 * Waits until the edges have reported `total` place requests since `since` to PostgreSQL, then a
 * few of their sync intervals (10 ms), so that whichever edge is asked next has learnt the total.
 * A fixed pause of two intervals was once shorter than an edge's sync on a loaded machine (CI,
 * 2026-11-26h: a fourth request of three let through). Gives up after a second: the caller's
 * requests then spill into the next second, and it tries again in a new one.
 */
async function untilReported(pool: pg.Pool, cluster: string, since: number, total: number): Promise<void> {
  const deadline = performance.now() + 1_000;
  while (performance.now() < deadline && (await reportedPlaces(pool, cluster, since)) < total)
    await new Promise((resolve) => setTimeout(resolve, 5));
  await new Promise((resolve) => setTimeout(resolve, 40));
}

/** Place a resting buy through `edge` with a signed request; the answer's code. */
async function placeThrough(edge: Engine, credentials: ApiCredentials, clientOid: string): Promise<string> {
  const client = new SigningClient(edge.url, credentials);
  const answer = await client.post(PLACE, { body: restingBuy(clientOid) });
  return answer.body?.code ?? String(answer.status);
}

await postgresTests('cluster edge API tests', [
  {
    name: 'an order placed through one edge is read back at once through it and through the other (read-your-writes)',
    options: { timeout: 60_000 },
    async body(t) {
      const database = await databaseFor(t);
      const { engines, edges, credentials, operatorToken } = await startCluster(t, database.url, 1, 'off');
      const [a, b] = edges as [Engine, Engine];
      // A key made on the leader a moment ago works through an edge at once: a write through
      // one (the key is looked for again before it is refused), a read through the other.
      const operator = new OperatorClient(engines[0]?.url ?? '', operatorToken);
      const fresh = await accountWithKey(operator, { funds: [['USDT', '1000']] });
      assert.equal(await placeThrough(b, fresh.key, 'fresh-key'), '00000');
      const assets = await new SigningClient(a.url, fresh.key).get<{ coin: string; available: string }[]>(
        '/api/v2/spot/account/assets',
      );
      assert.equal(assets.body?.code, '00000', assets.text);
      // 1000 USDT less the 10 (0.01 at 1000) the resting buy holds.
      assert.deepEqual(
        assets.body?.data.map((asset) => [asset.coin, asset.available]),
        [['USDT', '990']],
      );
      const sdkA = sdkOf(a, credentials);
      const sdkB = sdkOf(b, credentials);
      // The writes alternate between the edges, so each edge has seen the key write before
      // another edge takes its newest write: what each read must see is never only this edge's.
      for (let n = 0; n < 6; n += 1) {
        const writer = n % 2 === 0 ? sdkA : sdkB;
        const placed = await writer.spotSubmitOrder(restingBuy(`ryw-${n}`));
        const { orderId } = placed.data;
        // By id (the engine's memory, then PostgreSQL's orders) and among the open orders (memory alone).
        for (const [sdk, through] of [
          [sdkA, 'the edge it was placed through'],
          [sdkB, 'the other edge'],
        ] as const) {
          const [byId] = (await sdk.getSpotOrder({ orderId })).data;
          assert.equal(byId?.orderId, orderId, `read back by id through ${through}`);
          assert.equal(byId?.status, 'live');
          const open = await sdk.getSpotOpenOrders({ symbol: 'BTCUSDT' });
          assert.ok(
            open.data.some((order) => order.orderId === orderId),
            `listed as open through ${through}`,
          );
        }
        await writer.spotCancelOrder({ symbol: 'BTCUSDT', orderId });
        for (const sdk of [sdkA, sdkB]) {
          const [cancelled] = (await sdk.getSpotOrder({ orderId })).data;
          assert.equal(cancelled?.status, 'cancelled', 'the cancel is seen at once too');
          const open = await sdk.getSpotOpenOrders({ symbol: 'BTCUSDT' });
          assert.ok(
            open.data.every((order) => order.orderId !== orderId),
            'no longer listed as open',
          );
        }
      }
    },
  },
  {
    name: 'with the leader down, the edges refuse a bad signature, answer reads, and say 40015 to writes',
    options: { timeout: 60_000 },
    async body(t) {
      const database = await databaseFor(t);
      const { engines, edges, credentials } = await startCluster(t, database.url, 1, 'off');
      const [a, b] = edges as [Engine, Engine];
      assert.equal(await placeThrough(a, credentials, 'before'), '00000');
      await engines[0]?.kill('SIGKILL');
      for (const edge of [a, b]) {
        const client = new SigningClient(edge.url, credentials);
        const forged = await client.get(OPEN_ORDERS, {
          query: { symbol: 'BTCUSDT' },
          secret: 'not-the-secret',
        });
        assert.equal(forged.body?.code, '40009', 'a bad signature is refused at the edge');
        const unknown = await new SigningClient(edge.url, { ...credentials, apiKey: 'bg_unknown' }).get(
          OPEN_ORDERS,
          { query: { symbol: 'BTCUSDT' } },
        );
        assert.equal(unknown.body?.code, '40006', 'an unknown key is refused at the edge');
        const open = await client.get<{ clientOid: string }[]>(OPEN_ORDERS, { query: { symbol: 'BTCUSDT' } });
        assert.equal(open.body?.code, '00000', 'reads are answered by the edge alone');
        assert.ok(open.body?.data.some((order) => order.clientOid === 'before'));
        const ticker = await fetch(`${edge.url}/api/v2/spot/market/tickers?symbol=BTCUSDT`);
        assert.equal(((await ticker.json()) as { code: string }).code, '00000');
        assert.equal(await placeThrough(edge, credentials, `after-${edge.url}`), '40015');
      }
    },
  },
  {
    name: 'a key’s limit is met when its requests are spread over two edges',
    options: { timeout: 60_000 },
    async body(t) {
      const database = await databaseFor(t);
      const { edges, credentials } = await startCluster(t, database.url, 1, { [OPEN_ORDERS]: 6 });
      const clients = edges.map((edge) => new SigningClient(edge.url, credentials));
      for (const client of clients) await client.get(OPEN_ORDERS, { query: { symbol: 'BTCUSDT' } });
      // Sixteen requests within one second; tried again (a new second) if a loaded machine
      // made them spill over into the next.
      const { answers: codes, within } = await withinOneSecond(t, async () => {
        const byEdge: string[][] = [[], []];
        for (let n = 0; n < 16; n += 1) {
          const answer = await clients[n % 2]?.get(OPEN_ORDERS, { query: { symbol: 'BTCUSDT' } });
          byEdge[n % 2]?.push(answer?.body?.code ?? String(answer?.status));
          // Longer than the edges' sync interval: each request is decided on the shared count.
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        t.diagnostic(`through edge A ${byEdge[0]?.join(' ')}; through edge B ${byEdge[1]?.join(' ')}`);
        return byEdge;
      });
      assert.ok(within, 'the requests fell within one second');
      const ok = codes.flat().filter((code) => code === '00000').length;
      // Alone, each edge would let 6 through (12); shared, 6, and one or two more at most for
      // requests decided before the other edge's last count arrived (a sync held up by load).
      assert.ok(ok >= 6 && ok <= 8, `${ok} let through`);
      for (const edgeCodes of codes)
        assert.ok(edgeCodes.includes('429'), 'each edge refuses once the key is at its limit');
      assert.deepEqual(new Set(codes.flat()), new Set(['00000', '429']));
    },
  },
  {
    name: 'limits hold through a leader failover: they are the edges’, in PostgreSQL',
    options: { timeout: 60_000 },
    async body(t) {
      const database = await databaseFor(t);
      const { name, engines, edges, credentials } = await startCluster(t, database.url, 2, { [PLACE]: 3 });
      const [a, b] = edges as [Engine, Engine];
      const [leader, standby] = engines as [Engine, Engine];
      const pool = new pg.Pool({ connectionString: database.url, max: 1 });
      // The database is dropped before this pool ends (its clean-up was registered first).
      pool.on('error', () => undefined);
      t.after(() => pool.end());
      // Each request is decided on the shared count: the next waits until the edges know it.
      const placeEach = async (through: Engine[], prefix: string): Promise<string[]> => {
        const since = Math.floor(Date.now() / 1_000) - 1;
        const before = await reportedPlaces(pool, name, since);
        const codes: string[] = [];
        for (const [n, edge] of through.entries()) {
          codes.push(await placeThrough(edge, credentials, `${prefix}-${n}`));
          const admitted = codes.filter((code) => code === '00000').length;
          await untilReported(pool, name, since, before + admitted);
        }
        return codes;
      };
      // Three through the edges, the fourth refused, all within one second; a loaded machine
      // that spills them over into the next tries again in a new second (a fresh budget).
      const { answers: spent, second } = await withinOneSecond(t, (attempt) =>
        placeEach([a, b, a, b], `f${attempt}`),
      );
      assert.deepEqual(spent, ['00000', '00000', '00000', '429'], 'over the limit through the other edge');
      await leader.kill('SIGKILL');
      // The same second, no leader: still over the limit (not 40015: the edge never asks one).
      const down = [await placeThrough(a, credentials, 'f5'), await placeThrough(b, credentials, 'f6')];
      if (stillIn(second)) assert.deepEqual(down, ['429', '429']);
      else t.diagnostic(`the second ended before the requests with the leader down: ${down.join(' ')}`);
      await waitFor(async () => (await status(standby.url)) === 'ready', 10_000, 'the standby to lead');
      await waitFor(async () => (await status(a.url)) === 'ready', 5_000, 'the edges to reach it');
      // A new second under the new leader: three again, then refused, across the two edges
      // (again in a new second when a loaded machine spills the five over into the next).
      const { answers: after } = await withinOneSecond(t, (attempt) =>
        placeEach([a, b, a, b, a], `g${attempt}`),
      );
      assert.deepEqual(after.slice(0, 3), ['00000', '00000', '00000'], after.join(' '));
      assert.deepEqual(after.slice(3), ['429', '429'], after.join(' '));
    },
  },
]);
