/**
 * The SQLite writer thread's group commit: appends that queue while it is committing commit
 * together, in one transaction, all or none; and its checkpointer thread, which copies the WAL
 * into the database file while the writer's own checkpoint waits for a far larger WAL.
 */
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { test, type TestContext } from 'node:test';
import Database from 'better-sqlite3';
import { RowBatch, targetOf } from '../../../src/persistence/projection.ts';
import { ddl, tableOf } from '../../../src/persistence/schema.ts';
import { SqliteWriter } from '../../../src/persistence/sqlite/sqlite-writer.ts';
import { makeTempDir, removeDir } from '../../support/server.ts';

const JOURNAL = targetOf('journal', 'insert');

/** A writer thread on a fresh file holding the journal table, and a reader of that file. */
function writerOnFreshFile(t: TestContext): {
  writer: SqliteWriter;
  file: string;
  journalSeqs: () => number[];
} {
  const dir = makeTempDir('bourse-writer-');
  const file = join(dir, 'bourse.db');
  const setup = new Database(file);
  setup.pragma('journal_mode = WAL');
  for (const statement of ddl(tableOf('journal'), 'sqlite')) setup.exec(statement);
  setup.close();
  const writer = new SqliteWriter(file, 'thread');
  t.after(async () => {
    await writer.close();
    removeDir(dir);
  });
  const journalSeqs = () => {
    const reader = new Database(file, { readonly: true });
    try {
      return reader
        .prepare('SELECT seq FROM journal ORDER BY seq')
        .all()
        .map((row) => (row as { seq: number }).seq);
    } finally {
      reader.close();
    }
  };
  return { writer, file, journalSeqs };
}

/** Journal rows `from`..`to` (inclusive), bodies of `bodyBytes`. */
function journalRows(from: number, to: number, bodyBytes = 16): RowBatch {
  const batch = new RowBatch();
  for (let seq = from; seq <= to; seq += 1) batch.add(JOURNAL, [seq, seq, 'Test', 'x'.repeat(bodyBytes), 0]);
  return batch;
}

// The blocker is a plain (unchained) write of many rows: while the thread commits it, the
// appends sent right after it queue; it is never grouped with them, whatever the timing.
const BLOCKER_ROWS = 40_000;

test('write when appends queue behind a commit in progress commits them in one transaction', async (t) => {
  const { writer, journalSeqs } = writerOnFreshFile(t);
  const blocker = writer.write(journalRows(1, BLOCKER_ROWS, 200));
  const appends = [1, 2, 3].map((index) =>
    writer.write(journalRows(BLOCKER_ROWS + index, BLOCKER_ROWS + index), true),
  );
  assert.equal(writer.pendingRequests, 4, 'the blocker and three appends wait in the thread');
  assert.equal(await blocker, undefined);
  assert.deepEqual(await Promise.all(appends), [3, 3, 3], 'each answer names a transaction of three appends');
  assert.equal(writer.pendingRequests, 0);
  assert.deepEqual(journalSeqs().slice(-4), [
    BLOCKER_ROWS,
    BLOCKER_ROWS + 1,
    BLOCKER_ROWS + 2,
    BLOCKER_ROWS + 3,
  ]);
});

test('project when appends queue behind it lets them commit first, and a plain write keeps its place', async (t) => {
  const { writer, journalSeqs } = writerOnFreshFile(t);
  const order: string[] = [];
  const noted = (name: string, promise: Promise<unknown>) => promise.then(() => order.push(name));
  const blocker = noted('blocker', writer.write(journalRows(1, BLOCKER_ROWS, 200)));
  // Queued while the blocker commits: a projection write, two appends, a plain write, an append.
  const projection = noted('projection', writer.project(journalRows(BLOCKER_ROWS + 10, BLOCKER_ROWS + 10)));
  const appends = noted('appends', writer.write(journalRows(BLOCKER_ROWS + 1, BLOCKER_ROWS + 1), true));
  const second = writer.write(journalRows(BLOCKER_ROWS + 2, BLOCKER_ROWS + 2), true);
  const plain = noted('plain', writer.write(journalRows(BLOCKER_ROWS + 11, BLOCKER_ROWS + 11)));
  const last = noted('last append', writer.write(journalRows(BLOCKER_ROWS + 3, BLOCKER_ROWS + 3), true));
  await Promise.all([blocker, projection, appends, second, plain, last]);
  // The two appends pass the projection write (one transaction); the append after the plain
  // write does not pass it, nor the projection write that came before it.
  assert.deepEqual(order, ['blocker', 'appends', 'projection', 'plain', 'last append']);
  assert.equal(await second, 2);
  assert.deepEqual(journalSeqs().slice(-6), [
    BLOCKER_ROWS,
    BLOCKER_ROWS + 1,
    BLOCKER_ROWS + 2,
    BLOCKER_ROWS + 3,
    BLOCKER_ROWS + 10,
    BLOCKER_ROWS + 11,
  ]);
  assert.equal(writer.pendingRequests, 0);
});

test('write when one append of a group fails writes none of the group and refuses appends until resumed', async (t) => {
  const { writer, journalSeqs } = writerOnFreshFile(t);
  const blocker = writer.write(journalRows(1, BLOCKER_ROWS, 200));
  const sound = writer.write(journalRows(BLOCKER_ROWS + 1, BLOCKER_ROWS + 1), true);
  // Seq 1 is the blocker's: the primary key refuses it.
  const failing = writer.write(journalRows(1, 1), true);
  const after = writer.write(journalRows(BLOCKER_ROWS + 2, BLOCKER_ROWS + 2), true);
  await blocker;
  const outcomes = await Promise.allSettled([sound, failing, after]);
  assert.deepEqual(
    outcomes.map((outcome) => outcome.status),
    ['rejected', 'rejected', 'rejected'],
  );
  assert.equal(journalSeqs().length, BLOCKER_ROWS, 'nothing of the group is written');
  await assert.rejects(
    writer.write(journalRows(BLOCKER_ROWS + 1, BLOCKER_ROWS + 1), true),
    /earlier append failed/,
  );
  await writer.resume();
  assert.equal(await writer.write(journalRows(BLOCKER_ROWS + 1, BLOCKER_ROWS + 2), true), 1);
  assert.equal(journalSeqs().length, BLOCKER_ROWS + 2);
});

/** Waits (at most 10 s) until the database file holds at least `bytes`; its size then. */
async function fileReaches(file: string, bytes: number): Promise<number> {
  const deadline = Date.now() + 10_000;
  while (statSync(file).size < bytes && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return statSync(file).size;
}

test('write when the WAL holds committed pages has them checkpointed into the database file by the checkpointer thread', async (t) => {
  const { writer, file } = writerOnFreshFile(t);
  const emptyBytes = statSync(file).size;
  // About 2,000 pages: past SQLite's default automatic checkpoint (1,000), far below the
  // writer's own fallback (16,384), so only the checkpointer thread copies them over.
  await writer.write(journalRows(1, 20_000, 300), true);
  const size = await fileReaches(file, emptyBytes + 4_000_000);
  assert.ok(size >= emptyBytes + 4_000_000, `database file ${size} bytes`);
});

test('write after the checkpointer has idled is checkpointed too', async (t) => {
  const { writer, file } = writerOnFreshFile(t);
  const emptyBytes = statSync(file).size;
  await writer.write(journalRows(1, 20_000, 300), true);
  const first = await fileReaches(file, emptyBytes + 4_000_000);
  // Nothing committed for a while: the checkpointer has backed off to its idle interval.
  await new Promise((resolve) => setTimeout(resolve, 600));
  await writer.write(journalRows(20_001, 40_000, 300), true);
  const second = await fileReaches(file, first + 4_000_000);
  assert.ok(
    second >= first + 4_000_000,
    `database file ${second} bytes after the second write, ${first} after the first`,
  );
});

test('write under a light load is checkpointed once its commits have waited', async (t) => {
  const { writer, file } = writerOnFreshFile(t);
  const emptyBytes = statSync(file).size;
  // Fewer commits than the checkpointer's busy count, one after another: it waits for the
  // oldest to age (the pages they share are copied once), then copies them all.
  for (let index = 0; index < 8; index += 1) {
    await writer.write(journalRows(index * 100 + 1, index * 100 + 100, 300), true);
  }
  const size = await fileReaches(file, emptyBytes + 200_000);
  assert.ok(size >= emptyBytes + 200_000, `database file ${size} bytes`);
});

test('projectStaged writes the rows staged for its entries with its own, and refuses what is not all staged', async (t) => {
  const { writer, journalSeqs } = writerOnFreshFile(t);
  // Rows staged for entries 1-2 and 3; the write through 3 adds its own (the position's stand-in).
  writer.stage(1, 2, journalRows(1, 2));
  writer.stage(3, 3, journalRows(3, 3));
  await writer.projectStaged(1, 3, journalRows(100, 100));
  assert.deepEqual(journalSeqs(), [1, 2, 3, 100]);
  // Entry 5's rows were never staged: nothing is written, not even the write's own row.
  writer.stage(4, 4, journalRows(4, 4));
  await assert.rejects(writer.projectStaged(4, 5, journalRows(101, 101)), { code: 'STAGED_ROWS_MISSING' });
  assert.deepEqual(journalSeqs(), [1, 2, 3, 100]);
  // A thread that stops loses what it held: the next write's thread has nothing staged.
  await writer.close();
  await assert.rejects(writer.projectStaged(4, 4, journalRows(102, 102)), { code: 'STAGED_ROWS_MISSING' });
  assert.deepEqual(journalSeqs(), [1, 2, 3, 100]);
  writer.stage(4, 4, journalRows(4, 4));
  await writer.projectStaged(4, 4, journalRows(103, 103));
  assert.deepEqual(journalSeqs(), [1, 2, 3, 4, 100, 103]);
});

test('projectStaged writes an order inserted by one staged entry before a later entry’s update of it', async (t) => {
  const { writer, file } = writerOnFreshFile(t);
  const setup = new Database(file);
  for (const statement of ddl(tableOf('orders'), 'sqlite')) setup.exec(statement);
  setup.close();
  const upsert = targetOf('orders', 'upsert');
  const insert = targetOf('orders', 'insert');
  const order = (
    id: string,
    status: string,
  ): [string, string, string, string, string, string, number, number, string] => [
    id,
    '1',
    id,
    'SPOT',
    'BTCUSDT',
    status,
    1,
    1,
    '[1]',
  ];
  // Entry 1 updates an older order first (its upserts come first in its batch), then opens o2;
  // entry 2 fills o2. Merged per statement, o2's upsert would run before its insert.
  const first = new RowBatch();
  first.add(upsert, order('o1', 'cancelled'));
  first.addNew(insert, order('o2', 'live'));
  const second = new RowBatch();
  second.add(upsert, order('o2', 'filled'));
  writer.stage(1, 1, first);
  writer.stage(2, 2, second);
  await writer.projectStaged(1, 2, journalRows(2, 2));
  const reader = new Database(file, { readonly: true });
  t.after(() => reader.close());
  assert.deepEqual(reader.prepare('SELECT order_id, status FROM orders ORDER BY order_id').all(), [
    { order_id: 'o1', status: 'cancelled' },
    { order_id: 'o2', status: 'filled' },
  ]);
});

test('rows staged again from an entry on replace those staged before for it and after', async (t) => {
  const { writer, journalSeqs } = writerOnFreshFile(t);
  writer.stage(1, 2, journalRows(1, 2));
  writer.stage(3, 4, journalRows(3, 4));
  // Staged again from entry 2 (as after a restart): entry 2's group now starts there.
  writer.stage(2, 4, journalRows(12, 14));
  await assert.rejects(writer.projectStaged(1, 4, journalRows(100, 100)), { code: 'STAGED_ROWS_MISSING' });
  writer.stage(1, 4, journalRows(21, 24));
  await writer.projectStaged(1, 4, journalRows(100, 100));
  assert.deepEqual(journalSeqs(), [21, 22, 23, 24, 100]);
});
