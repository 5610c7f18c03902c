/**
 * What the PostgreSQL store sets up for its own writes: deduplication off on its non-unique
 * indexes (on open, also for a store created before), and large values compressed with lz4
 * where the server has it (postgres/postgres-store.ts).
 */
import assert from 'node:assert/strict';
import pg from 'pg';
import type { Command } from '../../src/domain/commands.ts';
import { openPostgresStore } from '../../src/persistence/postgres/postgres-store.ts';
import { databaseFor, postgresTests } from './postgres-test-database.ts';

/** Deduplication of each of the database's non-unique indexes: false when turned off. */
async function deduplication(url: string): Promise<Map<string, boolean>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ name: string; off: boolean }>(
      `SELECT c.relname AS name, COALESCE(c.reloptions @> '{deduplicate_items=off}', false) AS off
         FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace
        WHERE n.nspname = current_schema() AND NOT i.indisunique`,
    );
    return new Map(rows.map((row) => [row.name, !row.off]));
  } finally {
    await client.end();
  }
}

/** Whether the server accepts lz4 for compressed values (built with it, PostgreSQL 14 or later). */
async function serverHasLz4(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query("SET default_toast_compression = 'lz4'");
    return true;
  } catch {
    return false;
  } finally {
    await client.end();
  }
}

await postgresTests('PostgreSQL session tests', [
  {
    name: 'open when indexes deduplicate turns deduplication off on every non-unique index, and again for a store made before (PostgreSQL 13 and later)',
    async body(t) {
      const { url } = await databaseFor(t);
      const store = await openPostgresStore(url);
      const [row] = await store.query("SELECT current_setting('server_version_num')::int AS version");
      await store.close();
      if (Number(row?.version) < 130_000) return t.skip('PostgreSQL older than 13 has no deduplication');
      const opened = await deduplication(url);
      assert.ok(opened.has('orders_by_uid_category_order_id'), 'the orders index is listed');
      assert.ok(opened.has('bills_by_uid_category_bill_id_unified'), 'the bills index is listed');
      assert.ok(!opened.has('bills_pkey'), 'a unique index is not');
      assert.deepEqual(
        [...opened].filter(([, on]) => on),
        [],
        'none deduplicates',
      );
      // A store whose indexes deduplicate (made before this setting) is changed on open.
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query('ALTER INDEX orders_by_uid_client_oid_given RESET (deduplicate_items)');
      await client.end();
      assert.equal((await deduplication(url)).get('orders_by_uid_client_oid_given'), true);
      const reopened = await openPostgresStore(url);
      await reopened.close();
      assert.equal((await deduplication(url)).get('orders_by_uid_client_oid_given'), false);
    },
  },
  {
    name: 'append when a journal body is large compresses it with lz4 where the server has it, and reads it back',
    async body(t) {
      const { url } = await databaseFor(t);
      const store = await openPostgresStore(url);
      t.after(() => store.close());
      const [row0] = await store.query("SELECT current_setting('server_version_num')::int AS version");
      if (Number(row0?.version) < 140_000)
        return t.skip('PostgreSQL older than 14 has one compression method');
      const label = 'a label repeated '.repeat(400);
      const command = { type: 'CreateAccount', timeMs: 1, label } as unknown as Command;
      await store.append([{ seq: 1, command, events: [] }]);
      const [row] = await store.query('SELECT pg_column_compression(body) AS method, body FROM journal');
      assert.equal(row?.method, (await serverHasLz4(url)) ? 'lz4' : 'pglz');
      assert.equal(JSON.parse(String(row?.body)).label, label);
    },
  },
]);
