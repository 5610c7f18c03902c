/**
 * Edges (src/cluster/edge.ts): three stateless edges in front of two engines. SDK clients,
 * each on one edge, place and cancel orders while the leader is SIGKILLed; they keep their
 * edge, which forwards to the new leader once it leads. Checked: clients saw only retryable
 * answers, each acknowledged order is stored once. WebSocket clients spread over the edges
 * (served by each edge's own follower of the journal) stay connected through the failover and
 * each sees every trade once, in the store's order; the ticker comes through any edge.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { openPostgresStore } from '../../src/persistence/postgres/postgres-store.ts';
import { databaseFor, postgresTests } from '../persistence/postgres-test-database.ts';
import { clusterFor, startEngine, status, waitFor, type Engine } from './cluster-support.ts';
import { client, newLoad, RETRYABLE } from './sdk-load.ts';

interface TradeWatcher {
  /** Trade ids pushed as updates, in the order received. */
  ids: string[];
  closed: boolean;
  close(): void;
}

/** A client of the public trade channel of BTCUSDT through `edge`, once subscribed. */
function watchTrades(edge: Engine): Promise<TradeWatcher> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${edge.url.replace('http', 'ws')}/v2/ws/public`);
    const watcher: TradeWatcher = { ids: [], closed: false, close: () => socket.close() };
    socket.on('open', () =>
      socket.send(
        JSON.stringify({
          op: 'subscribe',
          args: [{ instType: 'SPOT', channel: 'trade', instId: 'BTCUSDT' }],
        }),
      ),
    );
    socket.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString('utf8')) as {
        event?: string;
        action?: string;
        data?: { tradeId: string }[];
      };
      if (frame.event === 'subscribe') resolve(watcher);
      if (frame.action === 'update') for (const trade of frame.data ?? []) watcher.ids.push(trade.tradeId);
    });
    socket.on('close', () => (watcher.closed = true));
    socket.on('error', reject);
  });
}

/** Resolves with the first ticker frame pushed through `edge` (rejects after 10 s). */
function firstTicker(edge: Engine): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${edge.url.replace('http', 'ws')}/v2/ws/public`);
    const timer = setTimeout(() => {
      socket.terminate();
      reject(new Error(`no ticker through ${edge.url}`));
    }, 10_000);
    socket.on('open', () =>
      socket.send(
        JSON.stringify({
          op: 'subscribe',
          args: [{ instType: 'SPOT', channel: 'ticker', instId: 'BTCUSDT' }],
        }),
      ),
    );
    socket.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString('utf8')) as { arg?: { channel?: string }; data?: unknown };
      if (frame.arg?.channel === 'ticker' && frame.data) {
        clearTimeout(timer);
        socket.close();
        resolve(frame.data);
      }
    });
    socket.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

await postgresTests('cluster edge tests', [
  {
    name: 'three edges forward SDK clients to the leader through a SIGKILL failover; WebSocket through any edge',
    options: { timeout: 60_000 },
    async body(t) {
      const database = await databaseFor(t);
      const cluster = clusterFor(t, database.url, { BOURSE_RATE_LIMITS: 'off', BOURSE_TRUST_PROXY: 'true' });
      const first = await startEngine(t, cluster);
      await waitFor(async () => (await status(first.url)) === 'ready', 20_000, 'the first engine to lead');
      const second = await startEngine(t, cluster);
      const edgeSettings = {
        name: cluster.name,
        env: { ...cluster.env, BOURSE_ROLE: 'edge', BOURSE_FOLLOW_EVERY_MS: '50' },
      };
      const edges = await Promise.all([0, 1, 2].map(() => startEngine(t, edgeSettings)));
      for (const edge of edges)
        assert.equal(await status(edge.url), 'ready', 'an edge answers for the leader');
      assert.equal(await status(second.url), 'starting');
      assert.ok(await firstTicker(edges[0] as Engine));
      const credentials = JSON.parse(readFileSync(join(first.dataDir, 'credentials.json'), 'utf8')) as Record<
        string,
        string
      >;
      const watchers = await Promise.all(
        [0, 1, 2, 3, 4, 5].map((index) => watchTrades(edges[index % 3] as Engine)),
      );
      const load = newLoad();
      let stop = false;
      const clients = [0, 1, 2, 3, 4, 5].map((worker) =>
        client(worker, [edges[worker % 3] as Engine], credentials, () => stop, load, { trades: true }),
      );
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const before = load.acknowledged.size;
      const killedMs = performance.now();
      await first.kill('SIGKILL');
      await waitFor(
        async () => (await status(edges[1]?.url ?? '')) === 'ready',
        5_000,
        'the edges to reach the new leader',
      );
      const failoverMs = performance.now() - killedMs;
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      stop = true;
      await Promise.all(clients);
      t.diagnostic(
        `failover through the edges ${failoverMs.toFixed(0)} ms; ${before} acknowledged before, ${load.acknowledged.size - before} after`,
      );
      t.diagnostic(`answers: ${JSON.stringify(Object.fromEntries(load.answers))}`);
      assert.ok(load.acknowledged.size - before > 5, 'clients went on through their edges');
      for (const code of load.answers.keys())
        assert.ok(code === '00000' || RETRYABLE.has(code), `answer ${code}`);
      assert.ok(await firstTicker(edges[2] as Engine), 'a WebSocket through another edge after the failover');

      // Let the edges push the last trades, then compare what each client saw with the store.
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.ok(
        watchers.every((watcher) => !watcher.closed),
        'WebSocket connections to the edges stayed open through the failover',
      );
      for (const watcher of watchers) watcher.close();
      await second.kill('SIGTERM');
      const store = await openPostgresStore(database.url);
      t.after(() => store.close());
      const rows = await store.query('SELECT client_oid, order_id FROM orders WHERE uid = ?', [
        credentials.uid,
      ]);
      const stored = new Map<string, string[]>();
      for (const row of rows)
        stored.set(String(row.client_oid), [
          ...(stored.get(String(row.client_oid)) ?? []),
          String(row.order_id),
        ]);
      for (const [clientOid, ack] of load.acknowledged)
        assert.deepEqual(stored.get(clientOid), [ack.orderId], clientOid);
      // The store's trades in journal order (ids are assigned in it: time, then id).
      const trades = await store.query(
        "SELECT trade_id, time_ms FROM trades WHERE category = 'SPOT' AND symbol = 'BTCUSDT' ORDER BY time_ms, trade_id",
      );
      const killedAtMs = Date.now() - (performance.now() - killedMs);
      const tradedAfterKill = trades.filter((row) => Number(row.time_ms) > killedAtMs + 200).length;
      const pushed = watchers[0]?.ids ?? [];
      t.diagnostic(
        `${pushed.length} trades pushed to each of 6 WebSocket clients; ${tradedAfterKill} after the failover`,
      );
      assert.ok(tradedAfterKill > 0, 'trades after the failover');
      // Every client, whichever edge, saw every trade since it subscribed once, in order.
      const storeOrder = trades.map((row) => String(row.trade_id));
      const from = storeOrder.indexOf(pushed[0] ?? '');
      assert.ok(from >= 0, 'the first pushed trade is in the store');
      assert.deepEqual(pushed, storeOrder.slice(from), 'every trade since the subscription, once, in order');
      for (const watcher of watchers) assert.deepEqual(watcher.ids, pushed, 'each client the same trades');
    },
  },
]);
