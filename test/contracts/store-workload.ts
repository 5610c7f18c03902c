/**
 * A real command stream for store tests: the production engine runs it, and each command
 * becomes a journal entry with the events it produced, exactly as the sequencer hands them
 * to `append`. Two traders cross on BTCUSDT, so the stream has orders (placed, filled,
 * cancelled), fills, trades, bills and funding records.
 */
import assert from 'node:assert/strict';
import type { Command, OrderRequest } from '../../src/domain/commands.ts';
import { Exchange } from '../../src/engine/exchange.ts';
import { DEFAULT_INDEX_PRICES, defaultCatalogue } from '../../src/engine/instruments/catalogue.ts';
import type { JournalEntry } from '../../src/ports/store.ts';
import { orderItem } from '../support/engine-builders.ts';

export const T0 = Date.UTC(2026, 10, 1, 0, 0, 0);

export class RecordingEngine {
  readonly exchange = new Exchange();
  readonly entries: JournalEntry[] = [];
  nowMs = T0;

  run(command: Command): unknown {
    const { outcome, events } = this.exchange.execute(command);
    this.entries.push({ seq: this.entries.length + 1, command, events });
    assert.ok(outcome.ok, outcome.ok ? '' : `${command.type} failed: ${outcome.code}`);
    return outcome.value;
  }

  /** Entries recorded since `from` (a seq), and marks them taken. */
  since(from: number): JournalEntry[] {
    return this.entries.filter((entry) => entry.seq > from);
  }
}

export interface Workload {
  engine: RecordingEngine;
  buyer: string;
  seller: string;
}

function order(side: 'buy' | 'sell', price: string, quantity: string, clientOid: string): OrderRequest {
  return orderItem({ side, price, quantity, clientOid });
}

/** Instruments, two funded accounts, resting orders, a cross, a cancel, a withdrawal. */
export function tradingWorkload(): Workload {
  const engine = new RecordingEngine();
  const tick = () => (engine.nowMs += 1_000);
  for (const instrument of defaultCatalogue().filter((item) => item.category === 'SPOT')) {
    engine.run({ type: 'AddInstrument', timeMs: engine.nowMs, instrument });
    const indexPrice = DEFAULT_INDEX_PRICES[instrument.baseCoin] ?? '1';
    const { category, symbol } = instrument;
    engine.run({ type: 'SetIndexPrice', timeMs: engine.nowMs, category, symbol, indexPrice });
  }
  const account = () =>
    (
      engine.run({
        type: 'CreateAccount',
        timeMs: tick(),
        kind: 'main',
        parentUid: null,
        mode: 'classic',
        label: '',
      }) as { uid: string }
    ).uid;
  const buyer = account();
  const seller = account();
  const deposit = (uid: string, coin: string, amount: bigint) =>
    engine.run({ type: 'Deposit', timeMs: tick(), uid, coin, amount, wallet: 'spot', subType: 'onchain' });
  deposit(buyer, 'USDT', 1_000_000n * 10n ** 8n);
  deposit(seller, 'BTC', 10n * 10n ** 8n);
  const place = (uid: string, items: OrderRequest[]) =>
    engine.run({ type: 'PlaceOrders', timeMs: tick(), uid, category: 'SPOT', items });
  place(buyer, [order('buy', '59000', '0.1', 'b1'), order('buy', '59100', '0.2', 'b2')]);
  place(seller, [order('sell', '61000', '0.3', 's1')]);
  place(seller, [order('sell', '59000', '0.25', 's2')]); // fills b2 (0.2) and 0.05 of b1
  engine.run({ type: 'CancelOrders', timeMs: tick(), uid: buyer, items: [{ clientOid: 'b1' }] });
  engine.run({
    type: 'Withdraw',
    timeMs: tick(),
    uid: seller,
    coin: 'USDT',
    amount: 1_000n * 10n ** 8n,
    wallet: 'spot',
    subType: 'onchain',
  });
  return { engine, buyer, seller };
}

/**
 * `entries` with the fill of each of the first `count` bill pairs that settle one moved ahead
 * of its two bills: the store then writes that fill to `fills` and the pair to `bill_pairs`,
 * as a store did before version 110 (`fills_with_bills`), whose rows a store keeps reading.
 */
export function fillsAheadOfTheirBills(entries: readonly JournalEntry[], count: number): JournalEntry[] {
  let left = count;
  return entries.map((entry) => {
    const events = [...entry.events];
    for (let at = 0; at + 2 < events.length && left > 0; at += 1) {
      const [first, second, fill] = [events[at], events[at + 1], events[at + 2]];
      if (first?.type !== 'BillPosted' || second?.type !== 'BillPosted' || fill?.type !== 'FillRecorded')
        continue;
      events.splice(at, 3, fill, first, second);
      left -= 1;
      at += 2;
    }
    return { ...entry, events };
  });
}
