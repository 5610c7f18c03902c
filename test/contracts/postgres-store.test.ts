/**
 * The store contract (store.contract.ts) on PostgreSQL: a fresh database per test, dropped
 * after. Without PostgreSQL on 127.0.0.1:5432 the tests are skipped with a message, and fail
 * when CI=true (postgres-test-database.ts).
 */
import pg from 'pg';
import { openPostgresStore } from '../../src/persistence/postgres/postgres-store.ts';
import { databaseFor, postgresTests } from '../persistence/postgres-test-database.ts';
import { storeContract, type StoreHarness } from './store.contract.ts';

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
      open: () => openPostgresStore(database.url),
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

await postgresTests('store contract tests', storeContract(harness));
