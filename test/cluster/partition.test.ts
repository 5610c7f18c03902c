/**
 * A leader cut off from PostgreSQL and NATS while it still runs (partition-proxy.ts holds its
 * traffic, then delivers it late): the standby takes the expired lease and leads; the old
 * leader acknowledges nothing from the cut on; its appends sent during the cut reach
 * PostgreSQL after the new leader's takeover and are refused whole (the placements it then
 * answers 40725 are not in the store); it finds its lease lost and exits 75; the journal stays
 * gapless and equal to the new leader's state.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Exchange } from '../../src/engine/exchange.ts';
import { stateHash } from '../../src/engine/state-hash.ts';
import type { EngineState } from '../../src/engine/state.ts';
import { decode } from '../../src/persistence/codec.ts';
import { openPostgresStore } from '../../src/persistence/postgres/postgres-store.ts';
import { databaseFor, postgresTests } from '../persistence/postgres-test-database.ts';
import { clusterFor, NATS_URL, startEngine, status, waitFor } from './cluster-support.ts';
import { partitionProxy } from './partition-proxy.ts';
import { client, newLoad } from './sdk-load.ts';

function through(url: string, port: number): string {
  const parsed = new URL(url);
  parsed.port = String(port);
  return parsed.toString();
}

await postgresTests('cluster partition tests', [
  {
    name: 'a leader partitioned from PostgreSQL and NATS stops acknowledging; none of its entries lands after the new leader’s first',
    options: { timeout: 60_000 },
    async body(t) {
      const database = await databaseFor(t);
      const cluster = clusterFor(t, database.url, { BOURSE_RATE_LIMITS: 'off' });
      const pgProxy = await partitionProxy(Number(new URL(database.url).port || 5432));
      const natsProxy = await partitionProxy(Number(new URL(NATS_URL).port || 4222));
      t.after(() => Promise.all([pgProxy.close(), natsProxy.close()]));
      const old = await startEngine(t, {
        name: cluster.name,
        env: {
          ...cluster.env,
          BOURSE_DATABASE_URL: through(database.url, pgProxy.port),
          BOURSE_NATS_URL: `nats://127.0.0.1:${natsProxy.port}`,
        },
      });
      await waitFor(async () => (await status(old.url)) === 'ready', 20_000, 'the first engine to lead');
      const standby = await startEngine(t, cluster);
      await waitFor(async () => standby.output().includes('standing by'), 20_000, 'the standby');
      const credentials = JSON.parse(readFileSync(join(old.dataDir, 'credentials.json'), 'utf8')) as Record<
        string,
        string
      >;
      const load = newLoad();
      let stop = false;
      const clients = [0, 1, 2].map((worker) =>
        client(worker, [old, standby], credentials, () => stop, load),
      );
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      pgProxy.partition();
      natsProxy.partition();
      const cutMs = performance.now();
      await waitFor(async () => (await status(standby.url)) === 'ready', 6_000, 'the standby to lead');
      const takeoverMs = performance.now() - cutMs;
      const firstOfNew = Number(
        /"seq":(\d+)/.exec(standby.output().split('cluster engine leading')[1] ?? '')?.[1],
      );
      await new Promise((resolve) => setTimeout(resolve, 500));
      pgProxy.heal();
      natsProxy.heal();
      const exit = await Promise.race([
        old.exited,
        new Promise<null>((resolve) => setTimeout(() => resolve(null), 8_000)),
      ]);
      await new Promise((resolve) => setTimeout(resolve, 500));
      stop = true;
      await Promise.all(clients);
      t.diagnostic(`standby led ${takeoverMs.toFixed(0)} ms after the cut (journal at seq ${firstOfNew})`);
      t.diagnostic(`answers: ${JSON.stringify(Object.fromEntries(load.answers))}`);
      assert.deepEqual(
        exit,
        { code: 75, signal: null },
        `the old leader exits 75: ${old.output().slice(-400)}`,
      );
      assert.match(old.output(), /the cluster lease was lost/);
      const lateAcks = [...load.acknowledged.values()].filter(
        (ack) => ack.engine === 0 && ack.atMs > cutMs + 100,
      );
      assert.deepEqual(lateAcks, [], 'the old leader acknowledged nothing after the cut');
      assert.ok(
        [...load.acknowledged.values()].some((ack) => ack.engine === 1),
        'the new leader acknowledged',
      );

      await standby.kill('SIGTERM');
      const store = await openPostgresStore(database.url);
      t.after(() => store.close());
      const rows = await store.query('SELECT client_oid, order_id FROM orders WHERE uid = ?', [
        credentials.uid,
      ]);
      const stored = new Map(rows.map((row) => [String(row.client_oid), String(row.order_id)]));
      for (const [clientOid, ack] of load.acknowledged)
        assert.equal(stored.get(clientOid), ack.orderId, clientOid);
      const refusedByOld = [...load.refused].filter(
        ([, refusal]) => refusal.engine === 0 && refusal.code === '40725',
      );
      t.diagnostic(`${refusedByOld.length} placements the old leader answered 40725`);
      for (const [clientOid] of refusedByOld)
        assert.equal(stored.has(clientOid), false, `${clientOid} refused whole`);
      const replayed = new Exchange();
      let seq = 0;
      for await (const page of store.journalAfter(0)) {
        for (const entry of page) {
          assert.equal(entry.seq, seq + 1, 'gapless');
          replayed.replay(entry.command);
          seq = entry.seq;
        }
      }
      const snapshot = await store.latestSnapshot();
      assert.equal(snapshot?.seq, seq);
      assert.equal(stateHash(replayed.state), stateHash(decode<EngineState>(snapshot?.body ?? '')));
    },
  },
]);
