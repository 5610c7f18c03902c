/**
 * The store contract of `replaceAll` (the operator's reset): afterwards the store holds exactly
 * what appending the new entries to an empty store writes, and nothing of before; a replace
 * that fails leaves everything as it was; appends go on from the new last entry. Run against
 * SQLite (both writers) and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { stateHash } from '../../src/engine/state-hash.ts';
import { eachRecord } from '../../src/persistence/journal-pages.ts';
import type { Store } from '../../src/ports/store.ts';
import { recover } from '../../src/runtime/recovery.ts';
import { dumpTables, type ContractTest, type StoreHarness } from './store.contract.ts';
import { RecordingEngine, tradingWorkload } from './store-workload.ts';

async function journalSeqs(store: Store): Promise<number[]> {
  const seqs: number[] = [];
  for await (const entry of eachRecord(store.journalAfter(0))) seqs.push(entry.seq);
  return seqs;
}

/** A short stream of its own: one account (what a reset seeds, in small). */
function freshStart(): RecordingEngine {
  const engine = new RecordingEngine();
  engine.run({
    type: 'CreateAccount',
    timeMs: engine.nowMs,
    kind: 'main',
    parentUid: null,
    mode: 'classic',
    label: 'demo',
  });
  return engine;
}

export function replaceAllContract(harness: StoreHarness): ContractTest[] {
  const { kind } = harness;
  return [
    {
      name: `replaceAll when the store holds a history leaves exactly what appending the new entries to an empty store writes (${kind})`,
      async body(t) {
        const replaced = await (await harness.location(t)).open();
        t.after(() => replaced.close());
        const { engine, buyer } = tradingWorkload();
        await replaced.append(engine.entries);
        await replaced.saveSnapshot({ seq: engine.entries.length, timeMs: 1, body: '{}' });
        const { engine: next } = tradingWorkload();
        // Up to the first order: instruments, accounts and deposits (bills, funding records).
        const head = next.entries.slice(
          0,
          next.entries.findIndex((entry) => entry.command.type === 'PlaceOrders'),
        );
        assert.ok(head.length > 0);
        await replaced.replaceAll(head);
        const empty = await (await harness.location(t)).open();
        t.after(() => empty.close());
        await empty.append(head);
        assert.equal(await replaced.latestSnapshot(), null, 'the old snapshots are gone');
        assert.deepEqual(
          await journalSeqs(replaced),
          head.map((entry) => entry.seq),
        );
        assert.deepEqual(await dumpTables(replaced), await dumpTables(empty), 'the same projection rows');
        assert.deepEqual(await replaced.orders({ uid: buyer, limit: 10 }), [], 'no order of before');
      },
    },
    {
      name: `replaceAll when done takes appends that continue from its last entry and recovers the new state (${kind})`,
      async body(t) {
        const store = await (await harness.location(t)).open();
        t.after(() => store.close());
        const { engine } = tradingWorkload();
        await store.append(engine.entries);
        const next = freshStart();
        await store.replaceAll(next.entries);
        next.run({
          type: 'CreateAccount',
          timeMs: next.nowMs,
          kind: 'main',
          parentUid: null,
          mode: 'unified',
          label: 'b',
        });
        await store.append(next.since(1));
        assert.equal(await store.lastSeq(), 2);
        const recovered = await recover(store);
        assert.equal(stateHash(recovered.exchange.state), stateHash(next.exchange.state));
      },
    },
    {
      name: `replaceAll when one of the new entries cannot be written leaves the store as it was (${kind})`,
      async body(t) {
        const store = await (await harness.location(t)).open();
        t.after(() => store.close());
        const { engine, buyer } = tradingWorkload();
        await store.append(engine.entries);
        const before = await dumpTables(store);
        const next = freshStart();
        const [first] = next.entries;
        assert.ok(first);
        // The same sequence number twice: the journal's key refuses the second.
        await assert.rejects(store.replaceAll([first, first]));
        assert.equal(await store.lastSeq(), engine.entries.length);
        assert.deepEqual(await dumpTables(store), before);
        assert.equal((await store.orders({ uid: buyer, limit: 10 })).length, 2);
        await store.append(next.entries.map((entry) => ({ ...entry, seq: engine.entries.length + 1 })));
        assert.equal(
          await store.lastSeq(),
          engine.entries.length + 1,
          'appends go on after a failed replace',
        );
      },
    },
  ];
}
