/**
 * The projector stalls (every batch holding an order row fails: a trigger in the database
 * refuses the insert) while orders keep being acknowledged on the journal alone; then the
 * server is SIGKILLed with the projector behind, and restarted. On SQLite and PostgreSQL:
 * - orders are still acknowledged (the journal is the only write before the answer);
 * - a history read never answers with a hole: it waits its bound, then answers 40725;
 * - /metrics shows the projector's lag (entries and the age of the oldest);
 * - after the kill the store's projector position is behind its journal; on restart the
 *   projector catches up from the journal, and every acknowledged order is there, once.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import Database from 'better-sqlite3';
import pg from 'pg';
import { openStore } from '../../src/persistence/open-store.ts';
import { spawnServer } from '../support/child.ts';
import { makeTempDir, removeDir } from '../support/server.ts';
import { SigningClient } from '../support/signing.ts';
import { databaseFor, postgresTests } from '../persistence/postgres-test-database.ts';
import { fundedTraders } from './mixed-load.ts';

const TOKEN = 'fault-operator-token-0123456789';
const ORDERS = 30;
const READ_WAIT_MS = 400;

/** Makes every insert into `orders` fail, and undoes it, on the store beside the server. */
interface Stall {
  start(): Promise<void>;
  end(): Promise<void>;
}

function sqliteStall(file: string): Stall {
  const exec = (sql: string) => {
    const db = new Database(file);
    try {
      db.pragma('busy_timeout = 5000');
      db.exec(sql);
    } finally {
      db.close();
    }
  };
  return {
    start: async () =>
      exec(
        "CREATE TRIGGER stall_orders BEFORE INSERT ON orders BEGIN SELECT RAISE(ABORT, 'projection stalled by the test'); END",
      ),
    end: async () => exec('DROP TRIGGER stall_orders'),
  };
}

function postgresStall(url: string): Stall {
  const exec = async (sql: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  return {
    start: () =>
      exec(
        'CREATE FUNCTION stall_orders() RETURNS trigger LANGUAGE plpgsql AS ' +
          "$$ BEGIN RAISE EXCEPTION 'projection stalled by the test'; END $$; " +
          'CREATE TRIGGER stall_orders BEFORE INSERT ON orders FOR EACH ROW EXECUTE FUNCTION stall_orders()',
      ),
    end: () => exec('DROP TRIGGER stall_orders ON orders; DROP FUNCTION stall_orders()'),
  };
}

async function positions(dataDir: string, databaseUrl: string | undefined) {
  const store = await openStore({ dataDir, databaseUrl });
  try {
    return { projected: (await store.projectedSeq?.()) ?? -1, journal: await store.lastSeq() };
  } finally {
    await store.close();
  }
}

async function stallKillRestart(t: TestContext, databaseUrl: string | undefined): Promise<void> {
  const dataDir = makeTempDir('bourse-projector-stall-');
  t.after(() => removeDir(dataDir));
  const env: Record<string, string> = {
    BOURSE_DATA_DIR: dataDir,
    BOURSE_OPERATOR_TOKEN: TOKEN,
    BOURSE_RATE_LIMITS: 'off',
    BOURSE_SEED_DEMO: 'false',
    BOURSE_PROJECTION_READ_WAIT_MS: String(READ_WAIT_MS),
    // Behind on both stores (PostgreSQL's default is inline): the projector is what stalls.
    BOURSE_PROJECTION: 'behind',
    ...(databaseUrl ? { BOURSE_DATABASE_URL: databaseUrl } : {}),
  };
  const stall = databaseUrl ? postgresStall(databaseUrl) : sqliteStall(`${dataDir}/bourse.db`);
  const server = await spawnServer(env);
  t.after(() => server.kill('SIGKILL'));
  const [trader] = await fundedTraders(server.url, TOKEN, 1);
  assert.ok(trader);
  const client = new SigningClient(server.url, trader.credentials);
  await stall.start();
  const placed: { orderId: string; clientOid: string }[] = [];
  for (let index = 0; index < ORDERS; index += 1) {
    const clientOid = `stall-${index}`;
    const answer = await client.post<{ orderId: string }>('/api/v2/spot/trade/place-order', {
      body: {
        symbol: 'BTCUSDT',
        side: 'buy',
        orderType: 'limit',
        force: 'gtc',
        price: '1000',
        size: '0.01',
        clientOid,
      },
    });
    assert.equal(answer.body?.code, '00000', `acknowledged on the journal alone: ${answer.text}`);
    placed.push({ orderId: answer.body?.data.orderId ?? '', clientOid });
  }
  const startedMs = Date.now();
  // Open orders are answered from the engine; order history only from the projected tables.
  const read = await client.get('/api/v2/spot/trade/history-orders', { query: { symbol: 'BTCUSDT' } });
  const waitedMs = Date.now() - startedMs;
  assert.equal(read.body?.code, '40725', `not a hole, a retryable answer: ${read.text}`);
  assert.ok(waitedMs >= READ_WAIT_MS - 50, `the read waited its bound (${waitedMs} ms)`);
  // The lag shows in /metrics: at least every order placed during the stall, and older than
  // the read's wait.
  const metrics = await (await fetch(`${server.url}/metrics`)).text();
  const gauge = (name: string) =>
    Number(
      metrics
        .split('\n')
        .find((line) => line.startsWith(`${name} `))
        ?.slice(name.length + 1),
    );
  assert.ok(
    gauge('bourse_projector_lag_entries') >= ORDERS,
    `lag ${gauge('bourse_projector_lag_entries')} entries`,
  );
  assert.ok(
    gauge('bourse_projector_lag_seconds') >= READ_WAIT_MS / 1000,
    `lag ${gauge('bourse_projector_lag_seconds')} s`,
  );

  assert.equal((await server.kill('SIGKILL')).signal, 'SIGKILL');
  const atKill = await positions(dataDir, databaseUrl);
  assert.ok(
    atKill.projected < atKill.journal - ORDERS + 1,
    `the projector was behind at the kill: ${atKill.projected} of ${atKill.journal}`,
  );
  await stall.end();

  const restarted = await spawnServer(env);
  try {
    const again = new SigningClient(restarted.url, trader.credentials);
    for (const order of placed) {
      const info = await again.get<{ orderId: string; clientOid: string }[]>('/api/v2/spot/trade/orderInfo', {
        query: { clientOid: order.clientOid },
      });
      assert.equal(info.body?.code, '00000', info.text);
      assert.equal(info.body?.data[0]?.orderId, order.orderId);
    }
    const open = await again.get<unknown[]>('/api/v2/spot/trade/history-orders', {
      query: { symbol: 'BTCUSDT', limit: '100' },
    });
    assert.equal(open.body?.code, '00000', open.text);
  } finally {
    await restarted.kill('SIGTERM');
  }
  const after = await positions(dataDir, databaseUrl);
  assert.equal(after.projected, after.journal, 'the projector caught up from the journal');
  const store = await openStore({ dataDir, databaseUrl });
  try {
    const rows = await store.orders({ uid: trader.uid, limit: 1_000 });
    assert.equal(rows.length, ORDERS, 'every acknowledged order, once');
    assert.deepEqual(
      new Set(rows.map((row) => row.clientOid)),
      new Set(placed.map((order) => order.clientOid)),
    );
  } finally {
    await store.close();
  }
  t.diagnostic(
    `projector at ${atKill.projected} of ${atKill.journal} at the kill; read refused after ${waitedMs} ms`,
  );
}

test(
  'projector when stalled and SIGKILLed loses nothing, answers reads retryably, and catches up on restart (sqlite)',
  { timeout: 90_000 },
  (t) => stallKillRestart(t, undefined),
);

await postgresTests('projector stall tests', [
  {
    name: 'projector when stalled and SIGKILLed loses nothing, answers reads retryably, and catches up on restart (postgres)',
    options: { timeout: 90_000 },
    body: async (t) => stallKillRestart(t, (await databaseFor(t)).url),
  },
]);
