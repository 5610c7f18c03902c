/**
 * The store contract (store.contract.ts) on PostgreSQL: a fresh database per test, dropped
 * after. Without PostgreSQL on 127.0.0.1:5432 the tests are skipped with a message, and fail
 * when CI=true (postgres-test-database.ts).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import pg from 'pg';
import { openPostgresStore } from '../../src/persistence/postgres/postgres-store.ts';
import { databaseFor, postgresTests } from '../persistence/postgres-test-database.ts';
import { openSqliteStore } from '../../src/persistence/sqlite/sqlite-store.ts';
import { makeTempDir, removeDir } from '../support/server.ts';
import { billPairsContract } from './bill-pairs.contract.ts';
import { brokerageContract } from './brokerage.contract.ts';
import { marketStatsContract } from './market-stats.contract.ts';
import { projectorContract } from './projector.contract.ts';
import { replaceAllContract } from './replace-all.contract.ts';
import { retentionContract } from './retention.contract.ts';
import { dumpTables, storeContract, type ContractTest, type StoreHarness } from './store.contract.ts';
import { tradingWorkload } from './store-workload.ts';
import { walletContract } from './wallet.contract.ts';

const harness: StoreHarness = {
  kind: 'postgres',
  async location(t) {
    const database = await databaseFor(t);
    const exec = async (sql: string) => {
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        await client.query(sql);
      } finally {
        await client.end();
      }
    };
    return {
      open: (options = {}) => openPostgresStore(database.url, options),
      async openForPlans() {
        // Tables this small are cheaper to scan; the test asks which index the planner
        // would use, as it does once the tables are large.
        await exec(`ALTER DATABASE ${database.name} SET enable_seqscan = off`);
        return openPostgresStore(database.url);
      },
      exec,
    };
  },
};

const sameRows: ContractTest = {
  name: 'append when given the same stream as SQLite writes the same rows in every table',
  async body(t) {
    const dir = makeTempDir('bourse-store-');
    t.after(() => removeDir(dir));
    const sqlite = openSqliteStore(join(dir, 'bourse.db'));
    t.after(() => sqlite.close());
    const postgres = await openPostgresStore((await databaseFor(t)).url);
    t.after(() => postgres.close());
    const { engine } = tradingWorkload();
    for (const store of [sqlite, postgres]) {
      await store.append(engine.entries.slice(0, 9));
      await store.append(engine.entries.slice(9));
    }
    const [left, right] = [await dumpTables(sqlite), await dumpTables(postgres)];
    assert.ok(Object.values(left).some((rows) => rows.length > 0));
    assert.deepEqual(right, left);
  },
};

const advice: ContractTest = {
  name: 'settingsAdvice names wal_init_zero while the database has it on, and nothing once it is off',
  async body(t) {
    const database = await databaseFor(t);
    const adviceWith = async (value: 'on' | 'off') => {
      // As the test user (a superuser: wal_init_zero is a superuser setting).
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      await client
        .query(`ALTER DATABASE ${database.name} SET wal_init_zero = ${value}`)
        .finally(() => client.end());
      // A database's settings apply to the sessions opened after them: a fresh store.
      const store = await openPostgresStore(database.url);
      try {
        return await store.settingsAdvice();
      } finally {
        await store.close();
      }
    };
    const on = await adviceWith('on');
    assert.equal(on.length, 1);
    assert.match(on[0] ?? '', /wal_init_zero is on.*set it off/);
    assert.deepEqual(await adviceWith('off'), []);
  },
};

await postgresTests('store contract tests', [
  advice,
  ...storeContract(harness),
  ...billPairsContract(harness),
  sameRows,
  ...brokerageContract(harness),
  ...marketStatsContract(harness),
  ...walletContract(harness),
  ...replaceAllContract(harness),
  ...retentionContract(harness),
  ...projectorContract(harness),
]);
