/**
 * The order and gap logic of following the entry stream (src/cluster/stream-follow.ts), with
 * a fake source: records offered as a stream would deliver them (in order, copied, skipped,
 * swapped, from a journal replaced by a reset), and a fake follower whose `catchUp` reads a
 * fake store the way journal-follower.ts reads PostgreSQL (checking the record it holds is
 * still the store's, starting over when it is not). Each case checks the follower ends on
 * the store's journal, every record applied once and in order, and how many store reads it
 * took.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checksumOf } from '../../src/persistence/journal-record.ts';
import { StreamFollow, type FollowedJournal, type StreamRecord } from '../../src/cluster/stream-follow.ts';

interface Row {
  seq: number;
  body: string;
  checksum: number;
}

/** A journal of `length` records named after `journal` (a reset makes another journal). */
function journalOf(journal: string, length: number): Row[] {
  return Array.from({ length }, (_, index) => {
    const body = `${journal}-${index + 1}`;
    return { seq: index + 1, body, checksum: checksumOf(body) };
  });
}

/** The stream message of row `seq` of `rows`, with the checksum of the one before as `prev`. */
function message(rows: Row[], seq: number, prev: 'known' | 'unknown' = 'known'): StreamRecord {
  const row = rows[seq - 1] as Row;
  const before = seq === 1 ? 0 : (rows[seq - 2] as Row).checksum;
  return { ...row, prev: prev === 'known' ? before : null };
}

class FakeFollower implements FollowedJournal {
  /** Bodies applied, in order, since the last start over. */
  applied: string[] = [];
  private checksums: number[] = [];
  restarts = 0;
  reads = 0;
  /** Reads that fail before one succeeds (the store out of reach). */
  failNextReads = 0;

  constructor(public store: Row[]) {}

  get seq(): number {
    return this.applied.length;
  }

  get checksum(): number | null {
    return this.seq === 0 ? 0 : (this.checksums[this.seq - 1] ?? null);
  }

  checksumAt(seq: number): number | undefined {
    return this.checksums[seq - 1];
  }

  applyRecord(seq: number, body: string, checksum: number): void {
    assert.equal(seq, this.seq + 1, `record ${seq} applied after ${this.seq}`);
    this.applied.push(body);
    this.checksums.push(checksum);
  }

  catchUp(): Promise<number> {
    this.reads += 1;
    if (this.failNextReads > 0) {
      this.failNextReads -= 1;
      return Promise.reject(new Error('store out of reach'));
    }
    const held = this.store[this.seq - 1];
    if (this.seq > 0 && held?.checksum !== this.checksum) {
      // The journal was replaced: start over from the store.
      this.applied = [];
      this.checksums = [];
      this.restarts += 1;
    }
    let count = 0;
    for (const row of this.store.slice(this.seq)) {
      this.applyRecord(row.seq, row.body, row.checksum);
      count += 1;
    }
    return Promise.resolve(count);
  }
}

function following(store: Row[]) {
  const follower = new FakeFollower(store);
  const errors: unknown[] = [];
  let steps = 0;
  const follow = new StreamFollow(
    follower,
    () => (steps += 1),
    (error) => errors.push(error),
  );
  return { follower, follow, errors, steps: () => steps };
}

test('records in order are applied from the stream alone, without reading the store', async () => {
  const store = journalOf('a', 5);
  const { follower, follow, errors, steps } = following(store);
  for (let seq = 1; seq <= 5; seq += 1) follow.offer(message(store, seq));
  await follow.idle();
  assert.deepEqual(follower.applied, ['a-1', 'a-2', 'a-3', 'a-4', 'a-5']);
  assert.equal(follower.reads, 0);
  assert.deepEqual(follow.counts, { applied: 5, duplicates: 0, reads: 0, dropped: 0 });
  assert.equal(steps(), 1, 'records received together are pushed as one step');
  assert.deepEqual(errors, []);
});

test('a copy of a record already applied is dropped, without reading the store', async () => {
  const store = journalOf('a', 3);
  const { follower, follow } = following(store);
  for (const seq of [1, 2, 2, 1, 3, 3]) follow.offer(message(store, seq));
  await follow.idle();
  assert.deepEqual(follower.applied, ['a-1', 'a-2', 'a-3']);
  assert.equal(follower.reads, 0);
  assert.equal(follow.counts.duplicates, 3);
});

test('a gap is filled from the store once, then the stream goes on', async () => {
  const store = journalOf('a', 8);
  const { follower, follow } = following(store.slice(0, 6));
  // Records 3 and 4 never came (a purged stream, NATS down); the store holds 1..6.
  for (const seq of [1, 2, 5, 6]) follow.offer(message(store, seq));
  await follow.idle();
  assert.deepEqual(follower.applied, ['a-1', 'a-2', 'a-3', 'a-4', 'a-5', 'a-6']);
  assert.equal(follower.reads, 1, 'one read of the store for the gap');
  // 5 made the gap seen; once the store is read, 5 and 6 are copies of what it gave.
  assert.deepEqual(follow.counts, { applied: 2, duplicates: 2, reads: 1, dropped: 0 });
  follower.store = store;
  for (const seq of [7, 8]) follow.offer(message(store, seq));
  await follow.idle();
  assert.equal(follower.applied.length, 8);
  assert.equal(follower.reads, 1, 'the stream alone again after the gap');
});

test('records out of order: never applied twice or out of order', async () => {
  const store = journalOf('a', 4);
  const { follower, follow } = following(store);
  for (const seq of [1, 3, 2, 4]) follow.offer(message(store, seq));
  await follow.idle();
  assert.deepEqual(follower.applied, ['a-1', 'a-2', 'a-3', 'a-4']);
  assert.equal(follower.reads, 1);
});

test('a record whose predecessor is unknown to its publisher is checked against the store', async () => {
  const store = journalOf('a', 3);
  const { follower, follow } = following(store);
  follow.offer(message(store, 1));
  follow.offer(message(store, 2, 'unknown'));
  follow.offer(message(store, 3));
  await follow.idle();
  assert.deepEqual(follower.applied, ['a-1', 'a-2', 'a-3']);
  assert.equal(follower.reads, 1);
});

test('the journal started again (a reset): the follower starts over from the store', async () => {
  const first = journalOf('a', 5);
  const { follower, follow } = following(first);
  for (let seq = 1; seq <= 5; seq += 1) follow.offer(message(first, seq));
  await follow.idle();
  const second = journalOf('b', 3);
  follower.store = second;
  // The leader publishes the new journal from 1: the numbers go back.
  for (let seq = 1; seq <= 3; seq += 1) follow.offer(message(second, seq));
  await follow.idle();
  assert.deepEqual(follower.applied, ['b-1', 'b-2', 'b-3']);
  assert.equal(follower.restarts, 1);
  assert.equal(follower.reads, 1, 'one read settles every record received before it');
  const longer = journalOf('b', 4);
  follower.store = longer;
  follow.offer(message(longer, 4));
  await follow.idle();
  assert.deepEqual(follower.applied, ['b-1', 'b-2', 'b-3', 'b-4']);
  assert.equal(follower.reads, 1);
});

test('a record that continues the number but not the journal held (a reset missed) reads the store', async () => {
  const first = journalOf('a', 3);
  const { follower, follow } = following(first);
  for (let seq = 1; seq <= 3; seq += 1) follow.offer(message(first, seq));
  await follow.idle();
  const second = journalOf('b', 4);
  follower.store = second;
  // Records 1-3 of the new journal were lost; 4 follows 3 by number, not by checksum.
  follow.offer(message(second, 4));
  await follow.idle();
  assert.deepEqual(follower.applied, ['b-1', 'b-2', 'b-3', 'b-4']);
  assert.equal(follower.restarts, 1);
});

test('reads asked for (the stream out of reach) are one step at a time with the records', async () => {
  const store = journalOf('a', 6);
  const { follower, follow } = following(store.slice(0, 3));
  follow.offer(message(store, 1));
  const read = follow.readStore();
  follow.offer(message(store, 2));
  await read;
  await follow.idle();
  assert.deepEqual(follower.applied, ['a-1', 'a-2', 'a-3']);
  follower.store = store;
  await follow.readStore();
  assert.equal(follower.applied.length, 6);
  for (let seq = 4; seq <= 6; seq += 1) follow.offer(message(store, seq));
  await follow.idle();
  assert.equal(follower.applied.length, 6, 'what the store gave is not applied again');
});

test('the store out of reach: the gap is read again later, and nothing is lost', async () => {
  const store = journalOf('a', 4);
  const { follower, follow, errors } = following(store);
  follower.failNextReads = 2;
  for (const seq of [1, 3, 4]) follow.offer(message(store, seq));
  const deadline = Date.now() + 5_000;
  while (follower.applied.length < 4 && Date.now() < deadline) {
    await follow.idle();
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  assert.deepEqual(follower.applied, ['a-1', 'a-2', 'a-3', 'a-4']);
  assert.equal(errors.length, 2);
  assert.equal(follower.reads, 3);
});

test('a read asked for resolves once done, though records keep coming', async () => {
  const store = journalOf('a', 400);
  const { follower, follow } = following(store.slice(0, 1));
  let next = 1;
  let flowing = true;
  const feed = (): void => {
    if (!flowing || next > 400) return;
    follow.offer(message(store, next));
    next += 1;
    setImmediate(feed);
  };
  feed();
  await new Promise((resolve) => setTimeout(resolve, 5));
  follower.store = store.slice(0, next);
  await follow.readStore();
  const readAt = next;
  flowing = false;
  assert.ok(readAt < 400, 'the read resolved while records were still coming');
  follower.store = store.slice(0, next);
  await follow.idle();
  assert.deepEqual(
    follower.applied,
    follower.store.map((row) => row.body),
  );
});

test('a read asked for that fails rejects; after stop nothing more is applied', async () => {
  const store = journalOf('a', 3);
  const { follower, follow, errors } = following(store);
  follower.failNextReads = 1;
  await assert.rejects(follow.readStore(), /store out of reach/);
  await follow.idle();
  assert.equal(errors.length, 1, 'reported once');
  await follow.readStore();
  assert.equal(follower.applied.length, 3);
  await follow.stop();
  const more = journalOf('a', 5);
  follower.store = more;
  follow.offer(message(more, 4));
  await follow.readStore();
  await follow.idle();
  assert.equal(follower.applied.length, 3, 'stopped: neither the stream nor a read applies anything');
});
