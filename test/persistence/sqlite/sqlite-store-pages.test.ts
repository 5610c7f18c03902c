/**
 * The SQLite store's on-disk settings: 8 KiB pages for a new file (an existing one keeps its
 * own), statement journals kept in memory by the writer thread, and tables whose constraints
 * FAIL a multi-row insert (no statement journal) while the write still commits all or nothing.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import Database from 'better-sqlite3';
import { RowBatch, targetOf } from '../../../src/persistence/projection.ts';
import { ddl, tableOf } from '../../../src/persistence/schema.ts';
import { openSqliteStore } from '../../../src/persistence/sqlite/sqlite-store.ts';
import { SqliteWriter } from '../../../src/persistence/sqlite/sqlite-writer.ts';
import { makeTempDir, removeDir } from '../../support/server.ts';

function freshFile(t: TestContext): string {
  const dir = makeTempDir('bourse-pages-');
  t.after(() => removeDir(dir));
  return join(dir, 'bourse.db');
}

const pageSizeOf = (file: string) => {
  const db = new Database(file, { readonly: true });
  try {
    return db.pragma('page_size', { simple: true });
  } finally {
    db.close();
  }
};

test('open when the file is new makes it with 8 KiB pages', async (t) => {
  const file = freshFile(t);
  const store = openSqliteStore(file, { writer: 'thread' });
  await store.close();
  assert.equal(pageSizeOf(file), 8192);
});

test('open when the file was made with 4 KiB pages keeps them and its data', async (t) => {
  const file = freshFile(t);
  const old = new Database(file);
  old.pragma('journal_mode = WAL');
  old.exec('CREATE TABLE kept (id INTEGER PRIMARY KEY)');
  old.exec('INSERT INTO kept (id) VALUES (7)');
  old.close();
  const store = openSqliteStore(file, { writer: 'thread' });
  assert.deepEqual(store.db.prepare('SELECT id FROM kept').all(), [{ id: 7 }]);
  assert.equal(await store.lastSeq(), 0);
  await store.close();
  assert.equal(pageSizeOf(file), 4096);
});

test('the writer thread keeps temporary files, statement journals included, in memory', async (t) => {
  const store = openSqliteStore(freshFile(t), { writer: 'thread' });
  t.after(() => store.close());
  assert.deepEqual(await store.pragma('temp_store'), [{ temp_store: 2 }]);
});

test('ddl on SQLite makes constraints FAIL; on PostgreSQL it leaves them as they are', () => {
  const [sqlite] = ddl(tableOf('orders'), 'sqlite');
  assert.match(
    sqlite ?? '',
    /order_id TEXT PRIMARY KEY ON CONFLICT FAIL, uid TEXT NOT NULL ON CONFLICT FAIL/,
  );
  const [postgres] = ddl(tableOf('orders'), 'postgres');
  assert.doesNotMatch(postgres ?? '', /CONFLICT/);
});

test('write when a multi-row insert meets a stored key fails and writes none of its transaction', async (t) => {
  const file = freshFile(t);
  const setup = new Database(file);
  setup.pragma('journal_mode = WAL');
  for (const statement of ddl(tableOf('journal'), 'sqlite')) setup.exec(statement);
  setup.close();
  const writer = new SqliteWriter(file, 'thread');
  t.after(() => writer.close());
  const journal = targetOf('journal', 'insert');
  const rows = (...seqs: number[]) => {
    const batch = new RowBatch();
    for (const seq of seqs) batch.add(journal, [seq, seq, 'Test', `body ${seq}`, 0]);
    return batch;
  };
  await writer.write(rows(1, 2, 3), true);
  // Eight rows go in one statement; the third is stored already, so the statement fails
  // after writing two rows, and the transaction takes those back too.
  await assert.rejects(
    writer.write(rows(4, 5, 2, 6, 7, 8, 9, 10), true),
    /UNIQUE constraint failed: journal.seq/,
  );
  await writer.resume();
  await writer.write(rows(4), true);
  const reader = new Database(file, { readonly: true });
  try {
    const seqs = reader.prepare('SELECT seq FROM journal ORDER BY seq').pluck().all();
    assert.deepEqual(seqs, [1, 2, 3, 4]);
  } finally {
    reader.close();
  }
});
