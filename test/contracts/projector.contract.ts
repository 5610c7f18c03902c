/**
 * The store contract of write-behind projection (runtime/projector.ts): `appendJournal` writes
 * the journal alone, `project` the projection rows and the projector's position in one
 * transaction, and the two together leave exactly the rows `append` writes. Run against
 * SQLite (both writers) and PostgreSQL.
 */
import assert from 'node:assert/strict';
import { eachRecord } from '../../src/persistence/journal-pages.ts';
import type { Store } from '../../src/ports/store.ts';
import { Projector } from '../../src/runtime/projector.ts';
import { recover } from '../../src/runtime/recovery.ts';
import { dumpTables, type ContractTest, type StoreHarness } from './store.contract.ts';
import { tradingWorkload } from './store-workload.ts';

async function journalLength(store: Store): Promise<number> {
  let count = 0;
  for await (const entry of eachRecord(store.journalAfter(0))) count += entry.seq > 0 ? 1 : 0;
  return count;
}

function needs(store: Store): Required<Pick<Store, 'appendJournal' | 'project' | 'projectedSeq'>> {
  const { appendJournal, project, projectedSeq } = store;
  assert.ok(appendJournal && project && projectedSeq, 'the store writes projections behind');
  return {
    appendJournal: appendJournal.bind(store),
    project: project.bind(store),
    projectedSeq: projectedSeq.bind(store),
  };
}

export function projectorContract(harness: StoreHarness): ContractTest[] {
  const { kind } = harness;
  return [
    {
      name: `appendJournal when entries are journaled writes the journal alone and leaves the projector's position (${kind})`,
      async body(t) {
        const store = await (await harness.location(t)).open();
        t.after(() => store.close());
        const behind = needs(store);
        assert.equal(await behind.projectedSeq(), 0, 'a new store starts at 0');
        const { engine, buyer } = tradingWorkload();
        await behind.appendJournal(engine.entries);
        assert.equal(await journalLength(store), engine.entries.length);
        assert.equal(await store.lastSeq(), engine.entries.length);
        assert.equal(await behind.projectedSeq(), 0);
        assert.deepEqual(await store.orders({ uid: buyer, limit: 10 }), [], 'no order row yet');
        assert.deepEqual(await store.bills({ uid: buyer, wallets: ['spot'], limit: 10 }), []);
      },
    },
    {
      name: `project when the journal is ahead writes the rows append writes, and its position with them (${kind})`,
      async body(t) {
        const location = await harness.location(t);
        const behindStore = await location.open();
        t.after(() => behindStore.close());
        const behind = needs(behindStore);
        const { engine } = tradingWorkload();
        const entries = engine.entries;
        const half = Math.floor(entries.length / 2);
        await behind.appendJournal(entries);
        // Two batches of different sizes, as a lagging projector writes them.
        await behind.project(entries.slice(0, half));
        assert.equal(await behind.projectedSeq(), half);
        await behind.project(entries.slice(half));
        assert.equal(await behind.projectedSeq(), entries.length);
        const inline = await (await harness.location(t)).open();
        t.after(() => inline.close());
        await inline.append(entries);
        assert.equal(await needs(inline).projectedSeq(), entries.length, 'append moves the position too');
        assert.deepEqual(await dumpTables(behindStore), await dumpTables(inline));
      },
    },
    {
      name: `reopen when the projector was behind recovers its position and projects the rest exactly once (${kind})`,
      async body(t) {
        const location = await harness.location(t);
        const { engine, buyer } = tradingWorkload();
        const entries = engine.entries;
        const first = await location.open();
        const behind = needs(first);
        await behind.appendJournal(entries);
        const projectedUpTo = entries.length - 3;
        await behind.project(entries.slice(0, projectedUpTo));
        // A crash: the last three entries' rows were never written.
        await first.close();
        const reopened = await location.open();
        t.after(() => reopened.close());
        const position = await needs(reopened).projectedSeq();
        assert.equal(position, projectedUpTo);
        const recovered = await recover(reopened, { eventsAfter: position });
        assert.deepEqual(
          recovered.unprojected.map((entry) => entry.seq),
          [entries.length - 2, entries.length - 1, entries.length],
        );
        const projector = new Projector({ project: needs(reopened).project }, position);
        projector.enqueue(recovered.unprojected);
        await projector.idle();
        assert.equal(await needs(reopened).projectedSeq(), entries.length);
        const inline = await (await harness.location(t)).open();
        t.after(() => inline.close());
        await inline.append(entries);
        assert.deepEqual(await dumpTables(reopened), await dumpTables(inline), 'every row once');
        assert.ok((await reopened.orders({ uid: buyer, limit: 10 })).length > 0);
      },
    },
    {
      name: `open when the store predates the projector's position takes the journal's end as projected (${kind})`,
      async body(t) {
        const location = await harness.location(t);
        const { engine } = tradingWorkload();
        const first = await location.open();
        await first.append(engine.entries);
        await first.close();
        // A store written before write-behind projection: no position row.
        await location.exec('DELETE FROM projector_position');
        const reopened = await location.open();
        t.after(() => reopened.close());
        assert.equal(await needs(reopened).projectedSeq(), engine.entries.length);
      },
    },
    {
      name: `replaceAll when it empties the store sets the projector's position to its entries (${kind})`,
      async body(t) {
        const store = await (await harness.location(t)).open();
        t.after(() => store.close());
        const { engine } = tradingWorkload();
        await store.append(engine.entries);
        await store.replaceAll([]);
        assert.equal(await needs(store).projectedSeq(), 0);
        await store.replaceAll(engine.entries.slice(0, 4));
        assert.equal(await needs(store).projectedSeq(), 4);
      },
    },
  ];
}
