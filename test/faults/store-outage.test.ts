/**
 * The store going away under a mixed load, and coming back: SQLite running out of space
 * (SQLITE_FULL, through `max_page_count`, the same error a full disk gives), PostgreSQL's
 * connections cut by the server (pg_terminate_backend) and PostgreSQL unreachable for a while
 * (a proxy that drops every connection and refuses new ones). While it is away, requests fail
 * with the venue's retryable codes only; it resumes by itself; afterwards nothing
 * acknowledged is lost and the store verifies (verify.ts).
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import pg from 'pg';
import type { SqliteStore } from '../../src/persistence/sqlite/sqlite-store.ts';
import { openStore } from '../../src/persistence/open-store.ts';
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from '../support/server.ts';
import { ADMIN_URL, databaseFor, postgresTests } from '../persistence/postgres-test-database.ts';
import { fundedTraders, startMixedLoad, type RunningLoad, type Trader } from './mixed-load.ts';
import { startTcpProxy } from './tcp-proxy.ts';
import { verifyStore } from './verify.ts';

async function until(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  assert.ok(condition(), `timed out waiting for ${what}`);
}

interface Outage {
  /** Takes the store away. */
  begin(): Promise<void> | void;
  /** Brings it back. */
  end(): Promise<void> | void;
}

async function serverOn(t: TestContext, databaseUrl: string | undefined): Promise<TestServer> {
  const server = await startTestServer({
    env: {
      BOURSE_SEED_DEMO: 'false',
      BOURSE_SNAPSHOT_EVERY: '250',
      // The whole journal, so that the store can be compared with a replay from scratch.
      BOURSE_JOURNAL_RETAIN_HOURS: 'all',
      BOURSE_LOG: 'off',
      ...(databaseUrl ? { BOURSE_DATABASE_URL: databaseUrl } : {}),
    },
  });
  t.after(() => server.close());
  return server;
}

/** Load → outage (retryable answers only) → recovery by itself → load → verify the store. */
async function surviveOutage(
  t: TestContext,
  server: TestServer,
  outage: Outage,
  databaseUrl: string | undefined,
): Promise<void> {
  const traders: Trader[] = await fundedTraders(server.url, TEST_OPERATOR_TOKEN, 4);
  const load: RunningLoad = startMixedLoad(server.url, TEST_OPERATOR_TOKEN, traders, { steps: 3_000 });
  try {
    await load.acknowledged(100);
    await outage.begin();
    const retryableBefore = load.result.retryable;
    await until(() => load.result.retryable >= retryableBefore + 20, 'retryable answers during the outage');
    await outage.end();
    await until(() => !server.services.sequencer.unavailable, 'the sequencer to rebuild');
    await load.acknowledged(100);
  } finally {
    await load.stop();
  }
  const result = load.result;
  assert.deepEqual(result.unexpected, [], 'only retryable codes while the store was away');
  assert.equal(result.lost, 0, 'every request was answered');
  await server.stop();
  const store = await openStore({ dataDir: server.dataDir, databaseUrl });
  try {
    const verified = await verifyStore(store, traders, result);
    t.diagnostic(
      `${result.orders.length} orders, ${result.cancels.length} cancels, ${result.transfers.length} transfers, ` +
        `${result.funding.length} funding ` +
        `acknowledged; ${result.retryable} retryable answers; journal ${verified.seq}`,
    );
  } finally {
    await store.close();
  }
}

test(
  'mixed load when the SQLite disk fills up answers 40725, loses nothing and resumes',
  { timeout: 60_000 },
  async (t) => {
    const server = await serverOn(t, undefined);
    const store = server.services.store as SqliteStore;
    await surviveOutage(
      t,
      server,
      {
        begin: async () => {
          const pages = Number(store.db.pragma('page_count', { simple: true }));
          await store.pragma(`max_page_count = ${pages}`);
        },
        end: async () => void (await store.pragma('max_page_count = 1073741823')),
      },
      undefined,
    );
  },
);

async function terminateBackends(database: string): Promise<void> {
  const client = new pg.Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [database],
    );
  } finally {
    await client.end();
  }
}

await postgresTests('store outage fault tests', [
  {
    name: 'mixed load when PostgreSQL terminates the connections answers retryably, loses nothing and resumes',
    options: { timeout: 60_000 },
    async body(t) {
      const database = await databaseFor(t);
      const server = await serverOn(t, database.url);
      let cutting = true;
      let cuts = 0;
      // Keep cutting every connection until the load has seen the failures.
      const cutter = async () => {
        while (cutting) {
          await terminateBackends(database.name);
          cuts += 1;
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      };
      let running: Promise<void> = Promise.resolve();
      await surviveOutage(
        t,
        server,
        {
          begin: () => void (running = cutter()),
          end: async () => {
            cutting = false;
            await running;
          },
        },
        database.url,
      );
      assert.ok(cuts > 0);
    },
  },
  {
    name: 'mixed load when PostgreSQL is unreachable for a while answers retryably, loses nothing and resumes',
    options: { timeout: 60_000 },
    async body(t) {
      const database = await databaseFor(t);
      const target = new URL(database.url);
      const proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
      t.after(() => proxy.close());
      const viaProxy = new URL(database.url);
      viaProxy.port = String(proxy.port);
      const server = await serverOn(t, viaProxy.toString());
      await surviveOutage(
        t,
        server,
        {
          begin: () => proxy.cut(),
          end: () => proxy.restore(),
        },
        database.url,
      );
    },
  },
]);
