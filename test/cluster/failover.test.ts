/**
 * Failover under load (docs/cluster.md): two engines on one PostgreSQL database and JetStream,
 * the price feed and liquidity provider on. The bitget-api SDK places and cancels spot orders
 * against the leader; the leader is killed (SIGKILL) in the middle; the clients move to the
 * other engine once it answers. Checked: the standby leads within the stated time; every order
 * acknowledged is in the store exactly once (cancelled when its cancel was acknowledged);
 * clients saw only the venue's retryable answers (40015 not ready, 40725 store unavailable)
 * or a refused or cut connection during the gap; the new leader's state (its snapshot at a
 * clean stop) equals a replay of the whole journal from its first entry; conservation holds;
 * and the JetStream stream holds every journal entry once, in order.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { connect } from 'nats';
import { SEQ_HEADER, streamNameOf } from '../../src/cluster/entry-stream.ts';
import { Exchange } from '../../src/engine/exchange.ts';
import { conservationImbalances } from '../../src/engine/invariants.ts';
import { stateHash } from '../../src/engine/state-hash.ts';
import type { EngineState } from '../../src/engine/state.ts';
import { decode } from '../../src/persistence/codec.ts';
import { openPostgresStore } from '../../src/persistence/postgres/postgres-store.ts';
import { databaseFor, postgresTests } from '../persistence/postgres-test-database.ts';
import { client, RETRYABLE, newLoad } from './sdk-load.ts';
import { clusterFor, NATS_URL, startEngine, status, waitFor } from './cluster-support.ts';

/** The aim is under 2 s; the bound leaves room for a loaded CI machine. */
const FAILOVER_BOUND_MS = 4_000;

async function streamSeqs(cluster: string): Promise<number[]> {
  const nc = await connect({ servers: NATS_URL });
  try {
    const js = nc.jetstream();
    const consumer = await js.consumers.get(streamNameOf(cluster));
    const seqs: number[] = [];
    const info = await (await nc.jetstreamManager()).streams.info(streamNameOf(cluster));
    const messages = await consumer.fetch({ max_messages: info.state.messages, expires: 5_000 });
    for await (const message of messages) {
      seqs.push(Number(message.headers?.get(SEQ_HEADER)));
      if (seqs.length === info.state.messages) break;
    }
    return seqs;
  } finally {
    await nc.close();
  }
}

await postgresTests('cluster failover tests', [
  {
    name: 'leader SIGKILLed under SDK load: the standby leads in time, nothing acknowledged lost or doubled, state equals the journal',
    options: { timeout: 60_000 },
    async body(t) {
      const database = await databaseFor(t);
      // The venue's per-account order limits would be the bottleneck of a load test.
      const cluster = clusterFor(t, database.url, { BOURSE_RATE_LIMITS: 'off' });
      const first = await startEngine(t, cluster);
      await waitFor(async () => (await status(first.url)) === 'ready', 20_000, 'the first engine to lead');
      const second = await startEngine(t, cluster);
      await waitFor(async () => second.output().includes('standing by'), 20_000, 'the second to stand by');
      assert.equal(await status(second.url), 'starting', 'a standby answers 503 starting');
      const credentials = JSON.parse(readFileSync(join(first.dataDir, 'credentials.json'), 'utf8')) as Record<
        string,
        string
      >;
      const load = newLoad();
      let stop = false;
      const clients = [0, 1, 2, 3].map((worker) =>
        client(worker, [first, second], credentials, () => stop, load),
      );
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      const beforeKill = load.acknowledged.size;
      const killedMs = performance.now();
      await first.kill('SIGKILL');
      await waitFor(
        async () => (await status(second.url)) === 'ready',
        FAILOVER_BOUND_MS,
        'the standby to lead',
      );
      const failoverMs = performance.now() - killedMs;
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      stop = true;
      await Promise.all(clients);
      const afterKill = load.acknowledged.size - beforeKill;
      t.diagnostic(
        `failover ${failoverMs.toFixed(0)} ms; ${load.acknowledged.size} orders acknowledged (${afterKill} after the kill)`,
      );
      t.diagnostic(`answers: ${JSON.stringify(Object.fromEntries(load.answers))}`);
      assert.ok(
        beforeKill > 20 && afterKill > 20,
        `load before (${beforeKill}) and after (${afterKill}) the kill`,
      );
      for (const code of load.answers.keys())
        assert.ok(code === '00000' || RETRYABLE.has(code), `answer ${code}`);
      const leading = second.output().match(/lease epoch (\d+)/);
      assert.equal(leading?.[1], '2', 'the standby leads under the next epoch');

      // A clean stop: the new leader's memory is written as its last snapshot.
      await second.kill('SIGTERM');
      const store = await openPostgresStore(database.url);
      t.after(() => store.close());
      const rows = await store.query('SELECT client_oid, order_id, status FROM orders WHERE uid = ?', [
        credentials.uid,
      ]);
      const byOid = new Map<string, Record<string, unknown>[]>();
      for (const row of rows)
        byOid.set(String(row.client_oid), [...(byOid.get(String(row.client_oid)) ?? []), row]);
      for (const [clientOid, ack] of load.acknowledged) {
        const stored = byOid.get(clientOid) ?? [];
        assert.equal(stored.length, 1, `${clientOid} stored once`);
        assert.equal(stored[0]?.order_id, ack.orderId);
        if (load.cancelled.has(clientOid))
          assert.equal(stored[0]?.status, 'cancelled', `${clientOid} cancelled`);
      }
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
      assert.equal(snapshot?.seq, seq, 'the last snapshot is at the journal’s end');
      assert.equal(stateHash(replayed.state), stateHash(decode<EngineState>(snapshot?.body ?? '')));
      assert.deepEqual(conservationImbalances(replayed.state), []);
      const seqs = await streamSeqs(cluster.name);
      assert.deepEqual(
        seqs,
        Array.from({ length: seq }, (_, index) => index + 1),
        'each entry streamed once, in order',
      );
    },
  },
]);
