/**
 * Edges (src/cluster/edge.ts): three stateless edges in front of two engines. SDK clients,
 * each on one edge, place and cancel orders while the leader is SIGKILLed; they keep their
 * edge, which forwards to the new leader once it leads. Checked: clients saw only retryable
 * answers, each acknowledged order is stored once, and a WebSocket client through an edge
 * gets the public ticker before the failover and, reconnected through another edge, after it.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import WebSocket from 'ws';
import { openPostgresStore } from '../../src/persistence/postgres/postgres-store.ts';
import { databaseFor, postgresTests } from '../persistence/postgres-test-database.ts';
import { clusterFor, startEngine, status, waitFor, type Engine } from './cluster-support.ts';
import { client, newLoad, RETRYABLE } from './sdk-load.ts';

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
      const load = newLoad();
      let stop = false;
      const clients = [0, 1, 2, 3, 4, 5].map((worker) =>
        client(worker, [edges[worker % 3] as Engine], credentials, () => stop, load),
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
    },
  },
]);
