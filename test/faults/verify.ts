/**
 * What must hold after a fault, read straight from the store with the server down:
 * - the state recovered as the server recovers it (latest snapshot + journal after it) has
 *   the same hash as a replay of the whole journal from scratch;
 * - conservation holds (engine/invariants.ts);
 * - every acknowledged order, cancel, transfer and funding record is there;
 * - nothing is half-applied: the projections agree with the recovered engine (open orders,
 *   each wallet's last bill balance equals its balance).
 * Projections are written behind the journal (runtime/projector.ts): the ones the projector had
 * not written at the fault are written first, as the server does on start, and how far behind
 * it was is reported (`unprojected`).
 */
import { eachRecord } from '../../src/persistence/journal-pages.ts';
import assert from 'node:assert/strict';
import { Exchange } from '../../src/engine/exchange.ts';
import { conservationImbalances } from '../../src/engine/invariants.ts';
import { stateHash } from '../../src/engine/state-hash.ts';
import type { Store } from '../../src/ports/store.ts';
import { Projector } from '../../src/runtime/projector.ts';
import { recover } from '../../src/runtime/recovery.ts';
import type { LoadResult, Trader } from './mixed-load.ts';

const OPEN = new Set(['live', 'partially_filled']);

export interface Verified {
  seq: number;
  snapshotSeq: number;
  hash: string;
  /** Plan orders that triggered (executed or fail_execute) over the whole journal. */
  plansTriggered: number;
  /** Journal entries the projector had not written when the store was opened. */
  unprojected: number;
}

/** Writes what the projector had not, as the server does on start; returns how many entries that was. */
export async function catchUpProjections(store: Store): Promise<number> {
  const position = store.projectedSeq ? await store.projectedSeq() : undefined;
  if (position === undefined || !store.project) return 0;
  const { unprojected } = await recover(store, { eventsAfter: position });
  const projector = new Projector({ project: store.project.bind(store) }, position);
  projector.enqueue(unprojected);
  await projector.idle();
  assert.equal(position + unprojected.length, await store.lastSeq(), 'the projector caught up');
  return unprojected.length;
}

export async function verifyStore(
  store: Store,
  traders: readonly Trader[],
  load: LoadResult,
): Promise<Verified> {
  const unprojected = await catchUpProjections(store);
  const recovered = await recover(store);
  const scratch = new Exchange();
  let seq = 0;
  let plansTriggered = 0;
  for await (const entry of eachRecord(store.journalAfter(0))) {
    for (const event of scratch.execute(entry.command).events) {
      if (event.type === 'PlanUpdated' && event.plan.status !== 'live' && event.plan.status !== 'cancelled') {
        plansTriggered += 1;
      }
    }
    seq = entry.seq;
  }
  assert.equal(seq, recovered.seq);
  const hash = stateHash(recovered.exchange.state);
  assert.equal(stateHash(scratch.state), hash, 'snapshot + journal equals a replay from scratch');
  const state = recovered.exchange.state;
  assert.deepEqual(conservationImbalances(state), [], 'conservation holds');

  for (const order of load.orders) {
    const row = await store.order(order.uid, { orderId: order.orderId });
    assert.ok(row, `acknowledged order ${order.orderId} is missing`);
    assert.equal(row.clientOid, order.clientOid);
  }
  for (const order of load.cancels) {
    const row = await store.order(order.uid, { orderId: order.orderId });
    assert.equal(row?.status, 'cancelled', `acknowledged cancel of ${order.orderId} is missing`);
    assert.equal(state.orders.has(order.orderId), false);
  }
  for (const trader of traders) {
    const records = new Set((await store.fundingRecords(trader.uid, 1_000_000)).map((row) => row.recordId));
    for (const receipt of load.funding.filter((item) => item.uid === trader.uid)) {
      assert.ok(records.has(receipt.id), `acknowledged ${receipt.type} ${receipt.id} is missing`);
    }
    const transfers = new Set(
      (await store.transfers({ kind: 'wallet', uid: trader.uid, limit: 1_000_000 })).map(
        (row) => row.transferId,
      ),
    );
    for (const receipt of load.transfers.filter((item) => item.uid === trader.uid)) {
      assert.ok(transfers.has(receipt.transferId), `acknowledged transfer ${receipt.transferId} is missing`);
    }
    const projected = (await store.orders({ uid: trader.uid, limit: 1_000_000 }))
      .filter((row) => OPEN.has(row.status))
      .map((row) => row.orderId)
      .sort();
    const open = [...state.orders.values()]
      .filter((order) => order.uid === trader.uid)
      .map((order) => order.orderId)
      .sort();
    assert.deepEqual(projected, open, `open orders of ${trader.uid}: projection equals engine`);
    for (const coin of ['USDT', 'BTC']) {
      const [last] = await store.bills({ uid: trader.uid, wallets: ['spot'], coin, limit: 1 });
      const balance = state.balances.get(`${trader.uid}|spot|${coin}`);
      assert.equal(
        last?.balanceAfter,
        balance ? balance.available + balance.frozen : undefined,
        `last ${coin} bill of ${trader.uid} equals the balance`,
      );
    }
  }
  return { seq, snapshotSeq: recovered.snapshotSeq, hash, plansTriggered, unprojected };
}
