/**
 * Retention's rules (persistence/retention.ts) on a journal in memory: what is kept, in which
 * chunks the rest goes, and the settings. The stores run the same rules in
 * test/contracts/retention.contract.ts.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  DEFAULT_RETENTION,
  parseRetention,
  PRUNE_CHUNK_RECORDS,
  pruneJournal,
  type JournalPruning,
  type SnapshotMark,
} from '../../src/persistence/retention.ts';

const HOUR_MS = 3_600_000;

/** A journal of records `first`..`last`, record n at time n seconds, and its snapshots. */
function journal(first: number, last: number, snapshots: SnapshotMark[]) {
  const records = new Map<number, number>();
  for (let seq = first; seq <= last; seq += 1) records.set(seq, seq * 1_000);
  const deletes: [number, number][] = [];
  const pruning: JournalPruning = {
    snapshotMarks: async () => [...snapshots].sort((a, b) => b.seq - a.seq),
    firstSeq: async () => (records.size === 0 ? null : Math.min(...records.keys())),
    timeOf: async (seq) => {
      const timeMs = records.get(seq);
      assert.ok(timeMs !== undefined, `record ${seq} exists`);
      return timeMs;
    },
    deleteJournal: async (fromSeq, toSeq) => {
      deletes.push([fromSeq, toSeq]);
      for (let seq = fromSeq; seq < toSeq; seq += 1) records.delete(seq);
    },
  };
  return { pruning, deletes, first: () => Math.min(...records.keys()), size: () => records.size };
}

const mark = (seq: number): SnapshotMark => ({ seq, timeMs: seq * 1_000 });

test('pruneJournal when snapshots are kept deletes the records before the oldest of them', async () => {
  const store = journal(1, 500, [mark(200), mark(400)]);
  assert.equal(await pruneJournal(store.pruning, { snapshots: 2, journalAgeMs: 0 }), 199);
  assert.equal(store.first(), 200);
  assert.equal(store.size(), 301);
});

test('pruneJournal when an age is kept keeps the records that young before the oldest snapshot', async () => {
  // Newest snapshot at 400 s: an age of 250 s keeps records from 150 s on, before snapshot 200.
  const store = journal(1, 500, [mark(200), mark(400)]);
  await pruneJournal(store.pruning, { snapshots: 2, journalAgeMs: 250_000 });
  assert.equal(store.first(), 150);
});

test('pruneJournal when the age reaches past the first record deletes nothing', async () => {
  const store = journal(1, 500, [mark(400)]);
  assert.equal(await pruneJournal(store.pruning, { snapshots: 1, journalAgeMs: 1_000 * HOUR_MS }), 0);
  assert.deepEqual(store.deletes, []);
});

test('pruneJournal when the age is all deletes nothing', async () => {
  const store = journal(1, 500, [mark(400)]);
  await pruneJournal(store.pruning, { snapshots: 1, journalAgeMs: Number.POSITIVE_INFINITY });
  assert.equal(store.size(), 500);
});

test('pruneJournal when there is no snapshot deletes nothing', async () => {
  const store = journal(1, 500, []);
  assert.equal(await pruneJournal(store.pruning, DEFAULT_RETENTION), 0);
  assert.equal(store.size(), 500);
});

test('pruneJournal when many records go deletes them oldest first, a chunk per transaction', async () => {
  const keepFrom = 2 * PRUNE_CHUNK_RECORDS + 1_234;
  const store = journal(7, keepFrom + 10, [mark(keepFrom)]);
  await pruneJournal(store.pruning, { snapshots: 1, journalAgeMs: 0 });
  assert.deepEqual(store.deletes, [
    [7, 7 + PRUNE_CHUNK_RECORDS],
    [7 + PRUNE_CHUNK_RECORDS, 7 + 2 * PRUNE_CHUNK_RECORDS],
    [7 + 2 * PRUNE_CHUNK_RECORDS, keepFrom],
  ]);
  assert.equal(store.first(), keepFrom);
});

test('parseRetention when nothing is set keeps two snapshots and no extra age', () => {
  assert.deepEqual(parseRetention({}), { snapshots: 2, journalAgeMs: 0 });
});

test('parseRetention when both are set reads snapshots and hours, or all', () => {
  assert.deepEqual(
    parseRetention({ BOURSE_JOURNAL_RETAIN_SNAPSHOTS: '3', BOURSE_JOURNAL_RETAIN_HOURS: '48' }),
    { snapshots: 3, journalAgeMs: 48 * HOUR_MS },
  );
  assert.equal(parseRetention({ BOURSE_JOURNAL_RETAIN_HOURS: 'all' }).journalAgeMs, Number.POSITIVE_INFINITY);
});

test('parseRetention when a value is out of range names the variable', () => {
  for (const [name, value] of [
    ['BOURSE_JOURNAL_RETAIN_SNAPSHOTS', '0'],
    ['BOURSE_JOURNAL_RETAIN_SNAPSHOTS', 'two'],
    ['BOURSE_JOURNAL_RETAIN_HOURS', '-1'],
    ['BOURSE_JOURNAL_RETAIN_HOURS', '1.5'],
  ] as const) {
    assert.throws(() => parseRetention({ [name]: value }), new RegExp(name));
  }
});
