/**
 * Edges fed by the JetStream entry stream (src/cluster/edge-push.ts, entry-feed.ts,
 * stream-follow.ts) against a real leader, PostgreSQL and NATS, and the operator's reset in a
 * cluster.
 *
 * - An edge's push, in this process, follows the leader from the stream (records applied from
 *   it, few reads of the store); with the stream deleted under it, it goes on from the store;
 *   its state ends equal to a replay of the journal.
 * - POST /admin/v1/reset on the leader with an edge and a standby running: the edge closes its
 *   WebSocket connections with 1012 and a client that reconnects sees the new venue (its book
 *   without the order placed before); the standby follows the new journal and, once the
 *   leader is SIGKILLed, leads with the state of a replay of the new journal.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { connect } from 'nats';
import WebSocket from 'ws';
import { startEdgePush } from '../../src/cluster/edge-push.ts';
import { streamNameOf } from '../../src/cluster/entry-stream.ts';
import { loadConfig } from '../../src/config.ts';
import { Exchange } from '../../src/engine/exchange.ts';
import { stateHash } from '../../src/engine/state-hash.ts';
import type { EngineState } from '../../src/engine/state.ts';
import { decode } from '../../src/persistence/codec.ts';
import { openPostgresStore } from '../../src/persistence/postgres/postgres-store.ts';
import { recover } from '../../src/runtime/recovery.ts';
import { listen } from '../../src/startup/listen.ts';
import { accountWithKey, OperatorClient } from '../support/operator.ts';
import { SigningClient } from '../support/signing.ts';
import { databaseFor, postgresTests } from '../persistence/postgres-test-database.ts';
import {
  clusterFor,
  NATS_URL,
  startEngine,
  status,
  waitFor,
  type ClusterSettings,
} from './cluster-support.ts';

const operatorOf = (url: string, cluster: ClusterSettings) =>
  new OperatorClient(url, cluster.env.BOURSE_OPERATOR_TOKEN ?? null);

async function journalEnd(databaseUrl: string): Promise<number> {
  const store = await openPostgresStore(databaseUrl);
  try {
    const [row] = await store.query('SELECT COALESCE(MAX(seq), 0) AS seq FROM journal');
    return Number(row?.seq);
  } finally {
    await store.close();
  }
}

/** Journal entries through the leader's operator API: accounts and deposits. */
async function activity(url: string, cluster: ClusterSettings, accounts: number): Promise<void> {
  const operator = operatorOf(url, cluster);
  for (let index = 0; index < accounts; index += 1) {
    const { uid } = await operator.createAccount({ label: `stream ${index}` });
    await operator.deposit(uid, { coin: 'USDT', amount: '100' });
  }
}

interface BookWatch {
  /** Bid prices of every books frame received, newest last. */
  bids: string[][];
  closeCode: Promise<number>;
  socket: WebSocket;
}

/** A client of BTCUSDT's books15 through `url`, once subscribed. */
function watchBook(url: string): Promise<BookWatch> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${url.replace('http', 'ws')}/v2/ws/public`);
    const watch: BookWatch = {
      bids: [],
      socket,
      closeCode: new Promise((done) => socket.on('close', (code) => done(code))),
    };
    socket.on('open', () =>
      socket.send(
        JSON.stringify({
          op: 'subscribe',
          args: [{ instType: 'SPOT', channel: 'books15', instId: 'BTCUSDT' }],
        }),
      ),
    );
    socket.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString('utf8')) as {
        event?: string;
        data?: { bids?: [string, string][] }[];
      };
      if (frame.event === 'subscribe') resolve(watch);
      for (const row of frame.data ?? []) watch.bids.push((row.bids ?? []).map(([price]) => price));
    });
    socket.on('error', reject);
  });
}

const MARKER_PRICE = '12345.67';

await postgresTests('cluster edge stream tests', [
  {
    name: 'an edge follows the entry stream, goes on from the store without it, and ends on the journal’s state',
    options: { timeout: 60_000 },
    async body(t) {
      const database = await databaseFor(t);
      const cluster = clusterFor(t, database.url, { BOURSE_RATE_LIMITS: 'off' });
      const leader = await startEngine(t, cluster);
      await waitFor(async () => (await status(leader.url)) === 'ready', 20_000, 'the engine to lead');
      const config = loadConfig({ ...cluster.env, BOURSE_ROLE: 'edge', BOURSE_FOLLOW_EVERY_MS: '50' });
      assert.ok(config.cluster);
      const server = createServer();
      const errors: unknown[] = [];
      const push = await startEdgePush(server, config, config.cluster, (error) => errors.push(error));
      await listen(server, '127.0.0.1', 0);
      t.after(async () => {
        await push.close();
        await new Promise((resolve) => server.close(resolve));
      });

      await activity(leader.url, cluster, 20);
      let end = await journalEnd(database.url);
      await waitFor(async () => push.seq >= end, 10_000, `the edge to reach ${end}`);
      const fromStream = { ...push.counts };
      t.diagnostic(`with the stream: ${JSON.stringify(fromStream)} at seq ${push.seq}`);
      // 40 entries (an account and a deposit each); a read of the store at the start may take a few.
      assert.ok(fromStream.applied >= 20, 'the accounts and deposits came from the stream');

      // The stream goes away under the edge: the leader's publishes fail, the edge reads the store.
      const nc = await connect({ servers: NATS_URL });
      await (await nc.jetstreamManager()).streams.delete(streamNameOf(cluster.name));
      await nc.close();
      await activity(leader.url, cluster, 5);
      end = await journalEnd(database.url);
      await waitFor(async () => push.seq >= end, 10_000, `the edge to reach ${end} without the stream`);
      t.diagnostic(`without the stream: ${JSON.stringify(push.counts)} at seq ${push.seq}`);
      assert.ok(push.counts.reads > fromStream.reads, 'the store was read');

      // The leader stops (its last snapshot is its memory); the edge ends on the journal's state.
      await leader.kill('SIGTERM');
      end = await journalEnd(database.url);
      await waitFor(async () => push.seq === end, 10_000, `the edge to reach the journal's end ${end}`);
      const store = await openPostgresStore(database.url);
      t.after(() => store.close());
      const recovered = await recover(store);
      assert.equal(recovered.seq, push.seq);
      assert.equal(stateHash(push.state), stateHash(recovered.exchange.state));
    },
  },
  {
    name: 'the operator’s reset in a cluster: the edge closes 1012 and shows the new venue; the standby follows and leads on it',
    options: { timeout: 90_000 },
    async body(t) {
      const database = await databaseFor(t);
      const cluster = clusterFor(t, database.url, { BOURSE_RATE_LIMITS: 'off', BOURSE_TRUST_PROXY: 'true' });
      const leader = await startEngine(t, cluster);
      await waitFor(async () => (await status(leader.url)) === 'ready', 20_000, 'the engine to lead');
      const standby = await startEngine(t, cluster);
      const edge = await startEngine(t, {
        name: cluster.name,
        env: { ...cluster.env, BOURSE_ROLE: 'edge', BOURSE_FOLLOW_EVERY_MS: '50' },
      });
      assert.equal(await status(standby.url), 'starting');

      // An order resting at a price of its own, placed through the edge, seen in the edge's book.
      const { key } = await accountWithKey(operatorOf(leader.url, cluster), { funds: [['USDT', '1000']] });
      const placed = await new SigningClient(edge.url, key).post('/api/v2/spot/trade/place-order', {
        body: {
          symbol: 'BTCUSDT',
          side: 'buy',
          orderType: 'limit',
          force: 'gtc',
          price: MARKER_PRICE,
          size: '0.001',
        },
      });
      assert.equal(placed.body?.code, '00000', placed.text);
      const before = await watchBook(edge.url);
      await waitFor(
        () => Promise.resolve(before.bids.some((bids) => bids.includes(MARKER_PRICE))),
        10_000,
        'the order in the book through the edge',
      );

      const reset = await operatorOf(leader.url, cluster).call('POST', '/admin/v1/reset');
      assert.equal(reset.status, 200, reset.text);
      const code = await Promise.race([
        before.closeCode,
        new Promise<number>((resolve) => setTimeout(() => resolve(-1), 10_000)),
      ]);
      assert.equal(code, 1012, 'the edge closed its WebSocket connection for the reset');

      // A client that reconnects sees the new venue: the order went with the old one.
      const after = await watchBook(edge.url);
      await waitFor(() => Promise.resolve(after.bids.length > 0), 10_000, 'a book frame after the reset');
      assert.ok(
        after.bids.every((bids) => !bids.includes(MARKER_PRICE)),
        'the order placed before the reset is gone',
      );
      after.socket.close();

      // The standby followed the new journal: SIGKILL the leader, the standby leads on it.
      await activity(leader.url, cluster, 3);
      await leader.kill('SIGKILL');
      await waitFor(async () => (await status(standby.url)) === 'ready', 10_000, 'the standby to lead');
      await activity(standby.url, cluster, 2);
      await standby.kill('SIGTERM');
      const store = await openPostgresStore(database.url);
      t.after(() => store.close());
      const replayed = new Exchange();
      let seq = 0;
      for await (const page of store.journalAfter(0)) {
        for (const entry of page) {
          assert.equal(entry.seq, seq + 1, 'the new journal, gapless from 1');
          replayed.replay(entry.command);
          seq = entry.seq;
        }
      }
      const snapshot = await store.latestSnapshot();
      assert.equal(snapshot?.seq, seq, 'the new leader’s last snapshot is at the journal’s end');
      assert.equal(stateHash(replayed.state), stateHash(decode<EngineState>(snapshot?.body ?? '')));
      const accounts = [...replayed.state.accounts.values()].filter((account) =>
        account.label?.startsWith('stream'),
      );
      assert.equal(accounts.length, 5, 'the accounts made after the reset, none from before');
    },
  },
]);
