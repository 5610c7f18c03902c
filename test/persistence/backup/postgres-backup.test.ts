/**
 * Backup and restore of the PostgreSQL store (src/persistence/backup/postgres-backup.ts, through
 * takeBackup and restoreBackup): the tables exported in one snapshot restore into another
 * database row for row; a backup of either store restores into the other; and a target
 * database a server is connected to, or that holds data, is refused. Skipped without
 * PostgreSQL (postgres-test-database.ts).
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { TestContext } from 'node:test';
import { takeBackup, type StoreAt } from '../../../src/persistence/backup/backup.ts';
import { restoreBackup } from '../../../src/persistence/backup/restore.ts';
import { CHUNK_ROWS } from '../../../src/persistence/backup/table-files.ts';
import { openPostgresStore } from '../../../src/persistence/postgres/postgres-store.ts';
import { databaseFor, postgresTests } from '../postgres-test-database.ts';
import { filledStore, tablesAt, tempDir } from './fixture.ts';

async function postgresAt(t: TestContext): Promise<StoreAt> {
  return { dataDir: tempDir(t, 'bourse-data-'), databaseUrl: (await databaseFor(t)).url };
}

async function backupOf(t: TestContext, at: StoreAt) {
  const source = await filledStore(t, at);
  const dir = join(tempDir(t, 'bourse-backups-'), 'backup');
  const manifest = await takeBackup(source.at, dir, { serverKeyInEnvironment: false });
  return { source, dir, manifest };
}

await postgresTests('PostgreSQL backup tests', [
  {
    name: 'takeBackup when the store is PostgreSQL restores into another database row for row',
    async body(t) {
      const { source, dir, manifest } = await backupOf(t, await postgresAt(t));
      assert.equal(manifest.store, 'postgres');
      assert.equal(manifest.lastSeq, source.lastSeq);
      assert.equal(manifest.stateHash, source.hash);
      assert.ok(Object.keys(manifest.files).includes('tables/journal.jsonl.gz'));
      const target = await postgresAt(t);
      const report = await restoreBackup(dir, target, { replace: false });
      assert.equal(report.stateHash, source.hash);
      assert.deepEqual(await tablesAt(target), await tablesAt(source.at));
    },
  },
  {
    name: 'takeBackup when a table of a composite key spans several pages exports every row once',
    async body(t) {
      const at = await postgresAt(t);
      const source = await filledStore(t, at);
      // Fills keyed (uid, exec_id) whose uids and ids do not order alike, over three pages.
      assert.equal(source.store.kind, 'postgres');
      await source.store.query(
        'INSERT INTO fills (exec_id, uid, order_id, category, symbol, time_ms, body) ' +
          "SELECT 'z' || lpad(n::text, 6, '0'), (n % 7)::text, 'x', 'SPOT', 'BTCUSDT', n, '{}' " +
          'FROM generate_series(1, $1::int) n',
        [CHUNK_ROWS * 2 + 7],
      );
      const dir = join(tempDir(t, 'bourse-backups-'), 'backup');
      await takeBackup(source.at, dir, { serverKeyInEnvironment: false });
      const target = await postgresAt(t);
      await restoreBackup(dir, target, { replace: false });
      const tables = await tablesAt(target);
      assert.ok((tables.fills as unknown[]).length >= CHUNK_ROWS * 2 + 7);
      assert.deepEqual(tables, await tablesAt(source.at));
    },
  },
  {
    name: 'restoreBackup when the backup is of the other store restores it row for row',
    async body(t) {
      const fromPostgres = await backupOf(t, await postgresAt(t));
      const sqlite: StoreAt = { dataDir: tempDir(t, 'bourse-target-'), databaseUrl: undefined };
      await restoreBackup(fromPostgres.dir, sqlite, { replace: false });
      assert.deepEqual(await tablesAt(sqlite), await tablesAt(fromPostgres.source.at));

      const fromSqlite = await backupOf(t, { dataDir: tempDir(t, 'bourse-source-'), databaseUrl: undefined });
      const postgres = await postgresAt(t);
      const report = await restoreBackup(fromSqlite.dir, postgres, { replace: false });
      assert.equal(report.stateHash, fromSqlite.source.hash);
      assert.deepEqual(await tablesAt(postgres), await tablesAt(fromSqlite.source.at));
    },
  },
  {
    name: 'restoreBackup when the target database holds data refuses, and replaces it when told',
    async body(t) {
      const { source, dir } = await backupOf(t, await postgresAt(t));
      const target = await postgresAt(t);
      const other = await filledStore(t, target, 'cd'.repeat(32));
      await other.store.close();
      await assert.rejects(restoreBackup(dir, target, { replace: false }), /is not empty.*--force/);
      await restoreBackup(dir, target, { replace: true });
      assert.deepEqual(await tablesAt(target), await tablesAt(source.at));
    },
  },
  {
    name: 'restoreBackup when a bourse server is connected to the target database refuses',
    async body(t) {
      const { dir } = await backupOf(t, await postgresAt(t));
      const target = await postgresAt(t);
      const running = await openPostgresStore(target.databaseUrl as string);
      t.after(() => running.close());
      await running.lastSeq();
      await assert.rejects(restoreBackup(dir, target, { replace: true }), /bourse server is connected/);
    },
  },
]);
