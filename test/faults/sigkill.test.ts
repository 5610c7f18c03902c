/**
 * SIGKILL under a sustained mixed load (orders, cancels, deposits and withdrawals, price
 * moves), on SQLite and on PostgreSQL: the real server runs as a child process with snapshots
 * every 300 commands; it is killed while requests are in flight, then checked from its store
 * (verify.ts: every acknowledged effect present, nothing half-applied, conservation, snapshot
 * recovery equals a replay from scratch) and restarted to serve what it acknowledged.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { openStore } from '../../src/persistence/open-store.ts';
import { spawnServer } from '../support/child.ts';
import { makeTempDir, removeDir } from '../support/server.ts';
import { SigningClient } from '../support/signing.ts';
import { databaseFor, postgresTests } from '../persistence/postgres-test-database.ts';
import { fundedTraders, startMixedLoad } from './mixed-load.ts';
import { verifyStore } from './verify.ts';

const TOKEN = 'fault-operator-token-0123456789';

async function killUnderLoad(t: TestContext, databaseUrl: string | undefined): Promise<void> {
  const dataDir = makeTempDir('bourse-sigkill-');
  t.after(() => removeDir(dataDir));
  const env: Record<string, string> = {
    BOURSE_DATA_DIR: dataDir,
    BOURSE_OPERATOR_TOKEN: TOKEN,
    BOURSE_RATE_LIMITS: 'off',
    BOURSE_SEED_DEMO: 'false',
    BOURSE_SNAPSHOT_EVERY: '300',
    // The whole journal, so that the store can be compared with a replay from scratch.
    BOURSE_JOURNAL_RETAIN_HOURS: 'all',
    // Behind on both stores (PostgreSQL's default is inline): a kill then leaves the projector
    // behind the journal, and the restart must catch it up. The store-outage tests run each
    // store's default.
    BOURSE_PROJECTION: 'behind',
    ...(databaseUrl ? { BOURSE_DATABASE_URL: databaseUrl } : {}),
  };
  const server = await spawnServer(env);
  t.after(() => server.kill('SIGKILL'));
  const traders = await fundedTraders(server.url, TOKEN, 6);
  const load = startMixedLoad(server.url, TOKEN, traders, { steps: 2_000 });
  await load.acknowledged(400);
  const killed = server.kill('SIGKILL');
  const result = await load.stop();
  assert.equal((await killed).signal, 'SIGKILL');
  assert.deepEqual(result.unexpected, []);
  assert.ok(result.orders.length > 300, `${result.orders.length} orders acknowledged`);
  assert.ok(result.cancels.length > 5 && result.funding.length > 10 && result.prices.length > 0);
  assert.ok(result.transfers.length > 10, `${result.transfers.length} transfers acknowledged`);
  assert.ok(result.plans > 5, `${result.plans} plan orders acknowledged`);

  const store = await openStore({ dataDir, databaseUrl });
  let verified;
  try {
    verified = await verifyStore(store, traders, result);
  } finally {
    await store.close();
  }
  assert.ok(verified.snapshotSeq > 0, 'a snapshot was taken under load, and recovery started from it');
  t.diagnostic(
    `${result.orders.length} orders, ${result.cancels.length} cancels, ${result.transfers.length} transfers, ` +
      `${result.plans} plan orders (${verified.plansTriggered} triggered), ` +
      `${result.funding.length} funding ` +
      `acknowledged; ${result.lost} requests in flight at the kill; journal ${verified.seq}, ` +
      `snapshot ${verified.snapshotSeq}, ${verified.unprojected} entries not yet projected`,
  );

  const restarted = await spawnServer(env);
  try {
    const sample = result.orders.filter((_, index) => index % 97 === 0);
    for (const order of sample) {
      const trader = traders.find((item) => item.uid === order.uid);
      assert.ok(trader);
      const client = new SigningClient(restarted.url, trader.credentials);
      const info = await client.get<{ orderId: string; clientOid: string }>('/api/v3/trade/order-info', {
        query: { orderId: order.orderId },
      });
      assert.equal(info.body?.code, '00000', info.text);
      assert.equal(info.body?.data.clientOid, order.clientOid);
    }
  } finally {
    await restarted.kill('SIGTERM');
  }
}

test(
  'restart when SIGKILLed under a mixed load keeps every acknowledged effect (sqlite)',
  { timeout: 90_000 },
  (t) => killUnderLoad(t, undefined),
);

await postgresTests('SIGKILL fault tests', [
  {
    name: 'restart when SIGKILLed under a mixed load keeps every acknowledged effect (postgres)',
    options: { timeout: 90_000 },
    body: async (t) => killUnderLoad(t, (await databaseFor(t)).url),
  },
]);
