/**
 * The cluster's tables are created by whichever processes start first, often several at once
 * (two edges, a standby beside its leader): none may fail on PostgreSQL's race between two
 * `CREATE TABLE IF NOT EXISTS`.
 */
import assert from 'node:assert/strict';
import pg from 'pg';
import { createTableOnce } from '../../src/cluster/create-table.ts';
import { databaseFor, postgresTests } from '../persistence/postgres-test-database.ts';

await postgresTests('cluster table creation', [
  {
    name: 'createTableOnce when eight connections create the same table at once succeeds on every one',
    options: { timeout: 30_000 },
    async body(t) {
      const database = await databaseFor(t);
      const clients = Array.from({ length: 8 }, () => new pg.Client({ connectionString: database.url }));
      await Promise.all(clients.map((client) => client.connect()));
      const create = 'CREATE TABLE IF NOT EXISTS raced (id BIGINT PRIMARY KEY, note TEXT NOT NULL)';
      const results = await Promise.allSettled(clients.map((client) => createTableOnce(client, create)));
      // Ended here: the database is dropped by an after-hook registered before any of these.
      await Promise.all(clients.map((client) => client.end()));
      assert.deepEqual(
        results.filter((result) => result.status === 'rejected'),
        [],
      );
      const pool = new pg.Pool({ connectionString: database.url, max: 2 });
      try {
        await createTableOnce(pool, create); // a pool too, once the table exists
        const { rows } = await pool.query<{ count: string }>('SELECT count(*) FROM raced');
        assert.equal(rows[0]?.count, '0');
      } finally {
        await pool.end();
      }
    },
  },
]);
