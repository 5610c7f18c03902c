/**
 * Retention on every store (persistence/retention.ts), run by sqlite-store.test.ts and
 * postgres-store.test.ts: a saved snapshot lets go of the snapshots beyond the policy and of
 * the journal before the oldest kept one (or before the age window), and recovery still
 * rebuilds the live engine's state from what is left.
 */
import assert from 'node:assert/strict';
import { Exchange } from '../../src/engine/exchange.ts';
import { stateHash } from '../../src/engine/state-hash.ts';
import { encode } from '../../src/persistence/codec.ts';
import { eachRecord } from '../../src/persistence/journal-pages.ts';
import type { AnyStore } from '../../src/persistence/open-store.ts';
import type { RetentionPolicy } from '../../src/persistence/retention.ts';
import type { JournalEntry, Snapshot, Store } from '../../src/ports/store.ts';
import { recover } from '../../src/runtime/recovery.ts';
import type { ContractTest, StoreHarness } from './store.contract.ts';
import { tradingWorkload } from './store-workload.ts';

/** The engine state after `entries` up to `seq`, as the sequencer would snapshot it. */
function snapshotAt(entries: readonly JournalEntry[], seq: number): Snapshot {
  const exchange = new Exchange();
  for (const entry of entries) if (entry.seq <= seq) exchange.replay(entry.command);
  return { seq, timeMs: exchange.state.nowMs, body: encode(exchange.state) };
}

async function journalSeqs(store: Store): Promise<number[]> {
  const seqs: number[] = [];
  for await (const entry of eachRecord(store.journalAfter(0))) seqs.push(entry.seq);
  return seqs;
}

async function snapshotSeqs(store: AnyStore): Promise<number[]> {
  const text = 'SELECT seq FROM snapshots ORDER BY seq';
  const rows = store.kind === 'sqlite' ? store.db.prepare(text).all() : await store.query(text);
  return (rows as { seq: number }[]).map((row) => Number(row.seq));
}

/** The workload appended in three parts, a snapshot saved after each; the snapshots' seqs. */
async function appendWithSnapshots(store: Store, entries: readonly JournalEntry[]): Promise<number[]> {
  const cuts = [5, 9, 11];
  let from = 0;
  for (const cut of cuts) {
    await store.append(entries.slice(from, cut));
    await store.saveSnapshot(snapshotAt(entries, cut));
    from = cut;
  }
  await store.append(entries.slice(from));
  return cuts;
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, index) => from + index);
}

export function retentionContract(harness: StoreHarness): ContractTest[] {
  const { kind } = harness;
  const withPolicy = async (
    t: Parameters<ContractTest['body']>[0],
    retention?: RetentionPolicy,
  ): Promise<AnyStore> => {
    const store = await (await harness.location(t)).open(retention ? { retention } : {});
    t.after(() => store.close());
    return store;
  };
  return [
    {
      name: `saveSnapshot when two snapshots are kept deletes older snapshots and the journal before the older kept one (${kind})`,
      async body(t) {
        const store = await withPolicy(t);
        const { engine } = tradingWorkload();
        const [, second, third] = await appendWithSnapshots(store, engine.entries);
        const last = engine.entries.length;
        assert.deepEqual(await snapshotSeqs(store), [second, third]);
        assert.deepEqual(await journalSeqs(store), range(second as number, last));
        const recovered = await recover(store);
        assert.equal(recovered.seq, last);
        assert.equal(recovered.snapshotSeq, third);
        assert.equal(stateHash(recovered.exchange.state), stateHash(engine.exchange.state));
      },
    },
    {
      name: `saveSnapshot when one snapshot is kept keeps the journal from its own record on (${kind})`,
      async body(t) {
        const store = await withPolicy(t, { snapshots: 1, journalAgeMs: 0 });
        const { engine } = tradingWorkload();
        const [, , third] = await appendWithSnapshots(store, engine.entries);
        assert.deepEqual(await snapshotSeqs(store), [third]);
        assert.deepEqual(await journalSeqs(store), range(third as number, engine.entries.length));
        assert.equal(stateHash((await recover(store)).exchange.state), stateHash(engine.exchange.state));
      },
    },
    {
      name: `saveSnapshot when an age is kept keeps the records within it before the oldest snapshot (${kind})`,
      async body(t) {
        const ageMs = 3_000;
        const store = await withPolicy(t, { snapshots: 1, journalAgeMs: ageMs });
        const { engine } = tradingWorkload();
        const [, , third] = await appendWithSnapshots(store, engine.entries);
        const cutoffMs = snapshotAt(engine.entries, third as number).timeMs - ageMs;
        const firstKept = engine.entries.find((entry) => entry.command.timeMs >= cutoffMs)?.seq ?? 0;
        assert.ok(firstKept > 1 && firstKept < (third as number), `the age reaches back to ${firstKept}`);
        assert.deepEqual(await journalSeqs(store), range(firstKept, engine.entries.length));
      },
    },
    {
      name: `saveSnapshot when the whole journal is kept deletes no record (${kind})`,
      async body(t) {
        const store = await withPolicy(t, { snapshots: 2, journalAgeMs: Number.POSITIVE_INFINITY });
        const { engine } = tradingWorkload();
        const [, second, third] = await appendWithSnapshots(store, engine.entries);
        assert.deepEqual(await snapshotSeqs(store), [second, third]);
        assert.deepEqual(await journalSeqs(store), range(1, engine.entries.length));
      },
    },
  ];
}
