/** StatementSet: an insert template runs several rows per call, in order, as one row each would. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import Database from 'better-sqlite3';
import { StatementSet } from '../../../src/persistence/sqlite/statement-set.mjs';

function table(): Database.Database {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER NOT NULL, n INTEGER NOT NULL)');
  return db;
}

const template = { head: 'INSERT OR REPLACE INTO t (k, v, n) VALUES ', row: '(?, ?, ?)', tail: '' };
const merge = {
  head: 'INSERT INTO t (k, v, n) VALUES ',
  row: '(?, ?, ?)',
  tail: ' ON CONFLICT(k) DO UPDATE SET v = excluded.v, n = t.n + excluded.n',
};

test('run with a template writes 63 rows in order (32 + 16 + 8 + 4 + 2 + 1 per call) as one per call would', () => {
  const rows = Array.from({ length: 63 }, (_, index) => [`k${index % 50}`, index, 1]);
  const results = [template, template.head + template.row].map((spec) => {
    const db = table();
    const statements = new StatementSet(db);
    statements.add([spec]);
    statements.run(0, rows);
    return db.prepare('SELECT k, v, n FROM t ORDER BY k').all();
  });
  assert.equal(results[0]?.length, 50);
  assert.deepEqual(results[0], results[1]);
  // A key written twice keeps its later row, even when both rows share one call.
  assert.deepEqual(
    results[0]?.find((row) => (row as { k: string }).k === 'k3'),
    { k: 'k3', v: 53, n: 1 },
  );
});

test('run with an upsert template merges a key repeated inside one call into the row before it', () => {
  const db = table();
  const statements = new StatementSet(db);
  statements.add([merge]);
  statements.run(0, [
    ['a', 1, 1],
    ['b', 2, 1],
    ['a', 3, 1],
    ['a', 4, 1],
  ]);
  assert.deepEqual(db.prepare('SELECT k, v, n FROM t ORDER BY k').all(), [
    { k: 'a', v: 4, n: 3 },
    { k: 'b', v: 2, n: 1 },
  ]);
});

test('run when a row breaks a constraint throws and, inside a transaction, writes none of them', () => {
  const db = table();
  const statements = new StatementSet(db);
  statements.add([{ head: 'INSERT INTO t (k, v, n) VALUES ', row: '(?, ?, ?)', tail: '' }]);
  const write = db.transaction((rows: unknown[][]) => statements.run(0, rows));
  assert.throws(() =>
    write([...Array.from({ length: 5 }, (_, index) => [`k${index}`, index, 1]), ['k1', 9, 1]]),
  );
  assert.deepEqual(db.prepare('SELECT count(*) AS count FROM t').get(), { count: 0 });
});

test('run with a template binds each value as a row of its own would: text stays text, integers stay integers', () => {
  const db = new Database(':memory:');
  db.exec('CREATE TABLE u (k TEXT PRIMARY KEY, s TEXT NOT NULL, n INTEGER NOT NULL)');
  const statements = new StatementSet(db);
  statements.add([{ head: 'INSERT OR FAIL INTO u (k, s, n) VALUES ', row: '(?, ?, ?)', tail: '' }]);
  // 3 rows: one call of 2 and one of 1.
  statements.run(0, [
    ['0123', '007', 2 ** 53 - 1],
    ['b', '', '42'],
    ['c', 'ü€😀', 0],
  ]);
  assert.deepEqual(
    db
      .prepare('SELECT k, typeof(k) AS kt, s, typeof(s) AS st, n, typeof(n) AS nt FROM u ORDER BY rowid')
      .all(),
    [
      { k: '0123', kt: 'text', s: '007', st: 'text', n: 2 ** 53 - 1, nt: 'integer' },
      { k: 'b', kt: 'text', s: '', st: 'text', n: 42, nt: 'integer' },
      { k: 'c', kt: 'text', s: 'ü€😀', st: 'text', n: 0, nt: 'integer' },
    ],
  );
});
