/**
 * The projector (runtime/projector.ts) and the reads that wait for it (projected-reads.ts),
 * against a store whose `project` the test controls.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { JournalEntry, Store } from '../../src/ports/store.ts';
import { projectedReads, ProjectionBehindError } from '../../src/runtime/projected-reads.ts';
import { Projector } from '../../src/runtime/projector.ts';

function entries(from: number, to: number): JournalEntry[] {
  const list: JournalEntry[] = [];
  for (let seq = from; seq <= to; seq += 1)
    list.push({ seq, command: { type: 'AdvanceClock', timeMs: seq, ms: 0 } as never, events: [] });
  return list;
}

/** A store whose project calls wait for `release` and can be made to fail. */
class ControlledStore {
  readonly batches: number[][] = [];
  failing = 0;
  private gates: (() => void)[] = [];
  held = true;

  project = (batch: readonly JournalEntry[]): Promise<void> => {
    const seqs = batch.map((entry) => entry.seq);
    const settle = (): Promise<void> => {
      if (this.failing > 0) {
        this.failing -= 1;
        return Promise.reject(new Error('disk full'));
      }
      this.batches.push(seqs);
      return Promise.resolve();
    };
    if (!this.held) return settle();
    return new Promise<void>((resolve) => this.gates.push(resolve)).then(settle);
  };

  release(): void {
    for (const open of this.gates.splice(0)) open();
  }
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 5));
/** One turn of the event loop: a write starts in the turn after its entries are handed over. */
const turn = () => new Promise((resolve) => setImmediate(resolve));

test('projector when entries queue during a write takes them all as the next batch', async () => {
  const store = new ControlledStore();
  const projector = new Projector(store, 0);
  projector.enqueue(entries(1, 2));
  await turn();
  projector.enqueue(entries(3, 5));
  projector.enqueue(entries(6, 6));
  store.held = false;
  store.release();
  await projector.idle();
  // The first write took what was there (1, 2); 3-6 queued meanwhile and went as one.
  assert.deepEqual(store.batches, [
    [1, 2],
    [3, 4, 5, 6],
  ]);
  assert.equal(projector.position, 6);
  assert.equal(projector.lag, 0);
});

test('projector when a batch fails retries it before anything after it, and its position waits', async () => {
  const store = new ControlledStore();
  store.held = false;
  store.failing = 2;
  const errors: unknown[] = [];
  const projector = new Projector(store, 10, {
    retryMs: { first: 1, longest: 2 },
    onError: (error) => errors.push(error),
  });
  projector.enqueue(entries(11, 12));
  assert.equal(projector.position, 10, 'nothing is projected before the write succeeds');
  projector.enqueue(entries(13, 13));
  await projector.idle();
  assert.equal(errors.length, 2);
  // Never 13 before 11-12: the failed batch goes back in front, joined by what queued.
  assert.deepEqual(store.batches, [[11, 12, 13]]);
  assert.equal(projector.position, 13);
});

test('projector when a batch committed but its answer was lost does not write it again', async () => {
  // The connection is cut after the commit: the store holds 11-12 and its position says so,
  // but the projector saw an error. Written again, the rows' keys would collide for ever.
  const written: number[][] = [];
  let position = 10;
  let cutAfterCommit = true;
  const store = {
    project: (batch: readonly JournalEntry[]): Promise<void> => {
      const seqs = batch.map((entry) => entry.seq);
      if (seqs.some((seq) => seq <= position)) return Promise.reject(new Error('duplicate key'));
      written.push(seqs);
      position = seqs[seqs.length - 1] ?? position;
      if (!cutAfterCommit) return Promise.resolve();
      cutAfterCommit = false;
      return Promise.reject(new Error('Connection terminated unexpectedly'));
    },
    projectedSeq: () => Promise.resolve(position),
  };
  const errors: unknown[] = [];
  const projector = new Projector(store, 10, {
    retryMs: { first: 1, longest: 2 },
    onError: (error) => errors.push(error),
  });
  projector.enqueue(entries(11, 12));
  await tick();
  projector.enqueue(entries(13, 14));
  await projector.idle();
  assert.deepEqual(written, [
    [11, 12],
    [13, 14],
  ]);
  assert.equal(errors.length, 1, 'one failure, then the stored position is read and 11-12 dropped');
  assert.equal(projector.position, 14);
  assert.equal(projector.lag, 0);
});

test('projector when handed entries skips those it holds and refuses a gap', () => {
  const store = new ControlledStore();
  const projector = new Projector(store, 5);
  projector.enqueue(entries(4, 7));
  assert.equal(projector.lastQueued, 7);
  assert.equal(projector.lag, 2);
  assert.throws(() => projector.enqueue(entries(9, 9)), /projector gap: expected 8, handed 9/);
});

test('projector when behind its bound holds acknowledgements until the lag is back under half', async () => {
  const store = new ControlledStore();
  const projector = new Projector(store, 0, { maxLagEntries: 4, maxBatchEntries: 2 });
  projector.enqueue(entries(1, 4));
  assert.equal(projector.room(), null, 'at the bound: no wait');
  projector.enqueue(entries(5, 6));
  const room = projector.room();
  assert.ok(room, 'over the bound: a wait');
  let roomy = false;
  void room.then(() => (roomy = true));
  await turn();
  // Batches of at most 2: the lag goes 6 → 4 → 2 (half the bound).
  store.release();
  await tick();
  assert.equal(projector.position, 2);
  assert.equal(roomy, false, 'a lag of 4 is not under half the bound');
  store.release();
  await tick();
  assert.equal(projector.position, 4);
  assert.equal(roomy, true);
  store.held = false;
  store.release();
  await projector.idle();
  assert.equal(projector.position, 6);
});

test('projector reached when the bound passes first resolves false, and true once projected', async () => {
  const store = new ControlledStore();
  const projector = new Projector(store, 0);
  projector.enqueue(entries(1, 3));
  assert.equal(await projector.reached(3, 10), false);
  const later = projector.reached(3, 5_000);
  store.release();
  assert.equal(await later, true);
});

test('projector when a write fails stops those who wait until a failure, and others wait through the retry', async () => {
  const store = new ControlledStore();
  store.failing = 1;
  const projector = new Projector(store, 0, { retryMs: { first: 20, longest: 20 } });
  projector.enqueue(entries(1, 3));
  const untilFailure = projector.reached(3, 60_000, true);
  const throughRetry = projector.reached(3, 60_000);
  const idleOrFailing = projector.idle(true);
  await turn();
  store.release();
  assert.equal(await untilFailure, false, 'a snapshot gives up at the failed write');
  await idleOrFailing;
  assert.equal(projector.failing, true);
  assert.equal(projector.position, 0);
  assert.equal(await projector.reached(3, 60_000, true), false, 'while failing: at once');
  // The retry comes 20 ms after the failure.
  await new Promise((resolve) => setTimeout(resolve, 40));
  store.release();
  assert.equal(await throughRetry, true, 'a read waits through the retry');
  assert.equal(projector.failing, false);
  await projector.idle(true);
  assert.deepEqual(store.batches, [[1, 2, 3]]);
});

test('projected reads when the projector is behind wait for it, and fail retryably past their bound', async () => {
  const store = new ControlledStore();
  const projector = new Projector(store, 0);
  const calls: string[] = [];
  const base = {
    async orders() {
      calls.push('orders');
      return [];
    },
    async lastSeq() {
      return 42;
    },
  } as unknown as Store;
  const reads = projectedReads(base, projector, () => projector.lastQueued, 30);
  projector.enqueue(entries(1, 2));
  await assert.rejects(reads.orders({ uid: 'u', limit: 1 }), (error: unknown) => {
    assert.ok(error instanceof ProjectionBehindError);
    assert.equal(error.seq, 2);
    assert.equal(error.projected, 0);
    return true;
  });
  assert.deepEqual(calls, [], 'no read of a table with a hole');
  const waiting = reads.orders({ uid: 'u', limit: 1 });
  store.release();
  assert.deepEqual(await waiting, []);
  assert.deepEqual(calls, ['orders']);
  assert.equal(await reads.lastSeq(), 42, 'what is not a projected read is the store itself');
});

test('projected reads when a liquidation was acknowledged to the operator wait before reading margin liquidations', async () => {
  // A trader reading liquidation-history right after the operator's price drop must see the
  // liquidation that command made: the wait is on the global acknowledged sequence.
  const store = new ControlledStore();
  const projector = new Projector(store, 0);
  const calls: string[] = [];
  const base = {
    async marginLiquidations() {
      calls.push('marginLiquidations');
      return [];
    },
  } as unknown as Store;
  const reads = projectedReads(base, projector, () => projector.lastQueued, 5_000);
  projector.enqueue(entries(1, 1));
  const waiting = reads.marginLiquidations({ uid: 'u', marginType: 'isolated', limit: 1 } as never);
  await tick();
  assert.deepEqual(calls, [], 'read before the projector wrote the liquidation');
  store.release();
  assert.deepEqual(await waiting, []);
  assert.deepEqual(calls, ['marginLiquidations']);
});

test('projected reads list every read of a projected table the SQLite store serves', async () => {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { tmpdir } = await import('node:os');
  const { openSqliteStore } = await import('../../src/persistence/sqlite/sqlite-store.ts');
  const { PROJECTED_READS } = await import('../../src/runtime/projected-reads.ts');
  const dir = mkdtempSync(join(tmpdir(), 'projected-reads-'));
  const store = openSqliteStore(join(dir, 'bourse.db'));
  try {
    const names = new Set<string>();
    for (
      let at: object | null = store;
      at && at !== Object.prototype;
      at = Object.getPrototypeOf(at) as object | null
    )
      for (const name of Object.getOwnPropertyNames(at)) names.add(name);
    // The journal, snapshots and the store's own upkeep: not read models.
    const notProjected = new Set([
      'constructor',
      'latestSnapshot',
      'journalAfter',
      'lastSeq',
      'sizeBytes',
      'resume',
      'append',
      'appendJournal',
      'project',
      'projectedSeq',
      'saveSnapshot',
      'replaceAll',
      'pragma',
      'explain',
      'close',
    ]);
    const reads = [...names]
      .filter((name) => typeof (store as unknown as Record<string, unknown>)[name] === 'function')
      .filter((name) => !notProjected.has(name))
      .sort();
    assert.deepEqual(reads, [...PROJECTED_READS].sort());
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('projector lag when writes are held counts the entries not written and dates the oldest hand-over', async () => {
  const store = new ControlledStore();
  let nowMs = 10_000;
  const projector = new Projector(store, 0, { nowMs: () => nowMs });
  assert.equal(projector.lag, 0);
  assert.equal(projector.lagSeconds(), 0, 'nothing handed over');
  projector.enqueue(entries(1, 3)); // at 10.000 s; its write (1-3) is held
  await turn();
  nowMs = 10_400;
  projector.enqueue(entries(4, 5)); // at 10.400 s
  nowMs = 11_000;
  assert.equal(projector.lag, 5);
  assert.equal(projector.lagSeconds(), 1, '11.000 - 10.000: entry 1 waits since the first hand-over');
  store.release(); // 1-3 written; 4-5 form the next write, held
  await tick();
  assert.equal(projector.position, 3);
  assert.equal(projector.lag, 2);
  assert.equal(projector.lagSeconds(), 0.6, '11.000 - 10.400: the oldest left came with the second');
  store.held = false;
  store.release();
  await projector.idle();
  assert.equal(projector.lag, 0);
  assert.equal(projector.lagSeconds(), 0);
});

test('projector when gathering writes nothing until its time passes, then everything gathered as one batch', async () => {
  const store = new ControlledStore();
  store.held = false;
  const projector = new Projector(store, 0, { gatherMs: 300 });
  projector.enqueue(entries(1, 2));
  await tick();
  projector.enqueue(entries(3, 3));
  await tick();
  assert.deepEqual(store.batches, [], 'within the gathering time nothing is written');
  assert.equal(projector.lag, 3);
  const deadline = Date.now() + 3_000;
  while (store.batches.length === 0 && Date.now() < deadline) await tick();
  assert.deepEqual(store.batches, [[1, 2, 3]], 'the oldest waited its time: all three in one batch');
  assert.equal(projector.position, 3);
});

test('projector when gathering writes at once for a full gathering, a read, a snapshot and a held acknowledgement', async () => {
  const store = new ControlledStore();
  store.held = false;
  const projector = new Projector(store, 0, { gatherMs: 60_000, gatherEntries: 4, maxLagEntries: 8 });
  projector.enqueue(entries(1, 3));
  await tick();
  assert.deepEqual(store.batches, [], 'three of four: still gathering');
  projector.enqueue(entries(4, 4));
  await tick();
  assert.deepEqual(store.batches, [[1, 2, 3, 4]], 'four gathered: written at once');

  projector.enqueue(entries(5, 5));
  await tick();
  assert.equal(projector.position, 4);
  assert.equal(await projector.reached(5, 1_000), true, 'a read waiting for 5 has it written at once');
  assert.deepEqual(store.batches.at(-1), [5]);

  projector.enqueue(entries(6, 6));
  await tick();
  await projector.idle(); // a snapshot or a shutdown
  assert.deepEqual(store.batches.at(-1), [6]);

  store.held = true;
  projector.enqueue(entries(7, 10)); // a full gathering: written, and that write is held
  await turn();
  projector.enqueue(entries(11, 16)); // lag 10, past its bound of 8
  const room = projector.room();
  assert.ok(room, 'acknowledgements wait');
  store.held = false;
  store.release();
  await room;
  assert.equal(projector.position, 16, 'the held acknowledgements had everything written, gathered or not');
});

test('projector when gathering and stopped or reset drops its timer', async () => {
  const store = new ControlledStore();
  store.held = false;
  const stopped = new Projector(store, 0, { gatherMs: 30 });
  stopped.enqueue(entries(1, 1));
  stopped.stop();
  const reset = new Projector(store, 0, { gatherMs: 30 });
  reset.enqueue(entries(1, 1));
  reset.reset(7);
  await new Promise((resolve) => setTimeout(resolve, 80));
  assert.deepEqual(store.batches, [], 'neither wrote what it held');
  assert.equal(reset.position, 7);
});

test('projector when stopped with entries queued leaves them unwritten and schedules nothing', async () => {
  const store = new ControlledStore();
  store.held = false;
  const projector = new Projector(store, 0, { gatherMs: 30, maxLagEntries: 1 });
  projector.stop();
  projector.enqueue(entries(1, 2));
  await projector.idle(); // a stopped projector is idle: it writes nothing more
  assert.equal(projector.room(), null, 'answers never wait on a stopped projector');
  assert.equal(await projector.reached(2, 50), false);
  await tick();
  assert.deepEqual(store.batches, []);
  assert.equal(projector.lag, 2);
  // No write keeps being started turn after turn (a stopped projector once did, a core's worth).
  assert.deepEqual(
    process.getActiveResourcesInfo().filter((resource) => resource === 'Immediate'),
    [],
  );
});

/**
 * A store that stages rows (Store.stage) as the SQLite writer thread does: each `stage` call is
 * a group, kept until written; a group staged again from an entry on replaces those staged from
 * it on; a write takes whole groups and is refused (STAGED_ROWS_MISSING) unless the groups staged
 * cover its entries exactly.
 */
class StagingStore {
  private groups: { from: number; seq: number }[] = [];
  readonly written: number[] = [];
  readonly batches: number[][] = [];
  readonly stagedCalls: number[][] = [];

  stage = (batch: readonly JournalEntry[]): void => {
    const seqs = batch.map((entry) => entry.seq);
    this.stagedCalls.push(seqs);
    const from = seqs[0] as number;
    this.groups = this.groups.filter((group) => group.seq < from);
    this.groups.push({ from, seq: seqs.at(-1) as number });
  };

  project = (): Promise<void> => Promise.reject(new Error('a staging projector writes staged rows'));

  projectStaged = async (from: number, through: number): Promise<void> => {
    await tick();
    this.groups = this.groups.filter((group) => group.seq >= from);
    let next = from;
    for (const group of this.groups) {
      if (group.seq > through) break;
      if (group.from !== next) break;
      next = group.seq + 1;
    }
    if (next !== through + 1) throw Object.assign(new Error('not staged'), { code: 'STAGED_ROWS_MISSING' });
    this.groups = this.groups.filter((group) => group.seq > through);
    const seqs: number[] = [];
    for (let seq = from; seq <= through; seq += 1) seqs.push(seq);
    this.batches.push(seqs);
    this.written.push(...seqs);
  };

  /** The writer restarted: what it held is gone. */
  lose(): void {
    this.groups = [];
  }
}

test('projector with a staging store keeps only numbers, and stages again from the journal rows its store lost', async () => {
  const store = new StagingStore();
  const journal = entries(1, 12);
  const reloads: number[] = [];
  const projector = new Projector(store, 0, {
    retryMs: { first: 1, longest: 1 },
    reload: async (afterSeq) => {
      reloads.push(afterSeq);
      await tick();
      // Entries 11 and 12 are handed over while the journal is read back: they follow on.
      projector.enqueue(journal.slice(10, 12));
      return journal.slice(afterSeq, 10);
    },
  });
  projector.enqueue(journal.slice(0, 4));
  await projector.idle();
  assert.deepEqual(store.written, [1, 2, 3, 4]);
  // Staged, then lost before their write.
  projector.enqueue(journal.slice(4, 8));
  await turn();
  assert.deepEqual(store.stagedCalls.at(-1), [5, 6, 7, 8]);
  store.lose();
  projector.enqueue(journal.slice(8, 10));
  assert.equal(await projector.reached(12, 5_000), true);
  assert.deepEqual(reloads, [4], 'read back from the position');
  assert.deepEqual(
    store.written,
    journal.map((entry) => entry.seq),
    'every entry written once, in order, no hole',
  );
  assert.equal(projector.position, 12);
  assert.equal(projector.lag, 0);
  projector.stop();
});

test('projector with a staging store ends each batch where a staged group ends', async () => {
  const store = new StagingStore();
  const journal = entries(1, 11);
  const projector = new Projector(store, 0, { maxBatchEntries: 3, gatherMs: 60_000, gatherEntries: 3 });
  // Groups of two, each staged in a turn of its own, then one of five: more than a batch.
  for (const group of [journal.slice(0, 2), journal.slice(2, 4), journal.slice(4, 6), journal.slice(6, 11)]) {
    projector.enqueue(group);
    await turn();
  }
  assert.equal(await projector.reached(11, 5_000), true);
  assert.deepEqual(store.stagedCalls, [
    [1, 2],
    [3, 4],
    [5, 6],
    [7, 8, 9, 10, 11],
  ]);
  // Three entries at most per batch, but never a group cut: 2, 2, 2, then the five whole.
  assert.deepEqual(store.batches, [
    [1, 2],
    [3, 4],
    [5, 6],
    [7, 8, 9, 10, 11],
  ]);
  projector.stop();
});
