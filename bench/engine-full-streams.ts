// The full-engine benchmark's command streams, built once and replayed on fresh engines.
//
// A stream is the setup (BTCUSDT and the other spot instruments, funded accounts), a prefill
// and the timed commands, plus the same orders as `BenchOp`s for nodejs-order-book. It is built
// by running it on a recording engine: the engine's ids are deterministic (they come from its
// sequence), so the orderIds it handed out there are the ones a fresh engine hands out on the
// same commands, and cancels and modifies can name them.
//
// Orders: BTCUSDT spot (tick 0.01 USDT, lot 0.000001 BTC); a stream lot is 0.0001 BTC and a
// stream tick 0.10 USDT above or below 60,000 (the index), well inside the 2% price band.

import type { Command, OrderRequest } from '../src/domain/commands.ts';
import { Exchange } from '../src/engine/exchange.ts';
import { fundedSpotAccounts } from './support/spot-setup.ts';
import { generateStream, opCancel, opLimit, opMarket, type BenchOp } from './engine-stream.ts';

export interface FullStream {
  /** Setup and prefill, run untimed on each fresh engine. */
  setup: Command[];
  commands: Command[];
  /** Orders the commands carry in all (a cancel or modify counts as one). */
  orderCount: number;
  /** The same orders for the peer: its prefill and its timed ops. */
  peerPrefill: BenchOp[];
  peerOps: BenchOp[];
  /** Commands (or batch items) the recording engine refused, by code. */
  refusals: Map<string, number>;
}

const T0 = Date.UTC(2026, 10, 25);
const MIDDLE_TICKS = 100_000;
const SYMBOL = 'BTCUSDT';
/** Commands per simulated millisecond: the engine's clock moves, its hourly jobs do not run. */
const COMMANDS_PER_MS = 1_000;
/**
 * BENCH_CATALOGUE=full lists the whole default catalogue (spot, margin, perpetual and delivery
 * futures, as a fresh server does) rather than the spot instruments alone: the orders are the
 * same, the clock jobs before each command see every instrument.
 */
const WHOLE_CATALOGUE = process.env.BENCH_CATALOGUE === 'full';

export function priceOf(priceTicks: number): string {
  // 60,000.00 + (ticks − 100,000) × 0.10, in cents to stay exact.
  const cents = 6_000_000 + (priceTicks - MIDDLE_TICKS) * 10;
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

export function quantityOf(lots: number): string {
  // lots × 0.0001 BTC
  return (lots / 10_000).toFixed(4);
}

function limitItem(
  side: 'buy' | 'sell',
  priceTicks: number,
  lots: number,
  timeInForce: 'gtc' | 'ioc',
): OrderRequest {
  const request: OrderRequest = {
    symbol: SYMBOL,
    side,
    orderType: 'limit',
    timeInForce,
    stpMode: 'none',
    price: priceOf(priceTicks),
    quantity: quantityOf(lots),
  };
  return request;
}

/** Runs commands on the recording engine, tallying refusals; returns the outcome's value. */
class Recorder {
  readonly exchange = new Exchange();
  readonly refusals = new Map<string, number>();
  private timeMs = T0;
  private ran = 0;

  run(command: Command): unknown {
    const { outcome } = this.exchange.execute(command);
    if (!outcome.ok) {
      this.refuse(outcome.code);
      return undefined;
    }
    if (Array.isArray(outcome.value)) {
      for (const item of outcome.value as { code?: string }[]) if (item.code) this.refuse(item.code);
    }
    return outcome.value;
  }

  tick(): number {
    this.ran += 1;
    this.timeMs = T0 + Math.floor(this.ran / COMMANDS_PER_MS);
    return this.timeMs;
  }

  private refuse(code: string): void {
    this.refusals.set(code, (this.refusals.get(code) ?? 0) + 1);
  }
}

function setupOf(recorder: Recorder, accounts: number, captured: Command[]): string[] {
  const capturing = {
    run: (command: Command) => {
      captured.push(command);
      const value = recorder.run(command);
      if (value === undefined) throw new Error(`setup ${command.type} refused`);
      return value;
    },
    tick: () => recorder.tick(),
  };
  return fundedSpotAccounts(capturing, accounts, WHOLE_CATALOGUE);
}

/**
 * The exchange-core-like stream (bench/engine-stream.ts) as commands, one order per command:
 * limit → PlaceOrders of one GTC limit; market → PlaceOrders of one IOC limit 500 ticks
 * through the stream's price (50 USDT, deeper than the book's spread of prices: it takes like a market
 * order, but its hold is a limit's; the peer gets a market order); cancel → CancelOrders of
 * one orderId; modify → ModifyOrder with the new price and total quantity.
 */
export function exchangeCoreStream(seed: number, operationCount: number): FullStream {
  const stream = generateStream(seed, operationCount);
  const recorder = new Recorder();
  const setup: Command[] = [];
  const uids = setupOf(recorder, 64, setup);
  const orderIds = new Map<string, { uid: string; orderId: string }>();
  const build = (op: BenchOp): Command => {
    const timeMs = recorder.tick();
    const uid = uids[Number(op.ownerId.slice(5)) % uids.length] as string;
    if (op.kind === opLimit || op.kind === opMarket) {
      const priceTicks =
        op.kind === opLimit ? op.priceTicks : op.priceTicks + (op.side === 'buy' ? 500 : -500);
      const item = limitItem(op.side, priceTicks, op.lots, op.kind === opLimit ? 'gtc' : 'ioc');
      return { type: 'PlaceOrders', timeMs, uid, category: 'SPOT', items: [item] };
    }
    const known = orderIds.get(op.orderId) ?? { uid, orderId: 'unknown' };
    if (op.kind === opCancel) {
      return { type: 'CancelOrders', timeMs, uid: known.uid, items: [{ orderId: known.orderId }] };
    }
    const order = recorder.exchange.state.orders.get(known.orderId);
    // The stream's lots are what should remain; the venue's modify takes the new total.
    const totalLots = op.lots + (order ? order.filledLots / 100 : 0);
    return {
      type: 'ModifyOrder',
      timeMs,
      uid: known.uid,
      order: { orderId: known.orderId },
      price: priceOf(op.priceTicks),
      quantity: quantityOf(totalLots),
      autoCancel: false,
    };
  };
  const record = (op: BenchOp, into: Command[]): void => {
    const command = build(op);
    into.push(command);
    const value = recorder.run(command);
    if (command.type === 'PlaceOrders' && Array.isArray(value)) {
      const placed = value[0] as { orderId?: string } | undefined;
      if (placed?.orderId) orderIds.set(op.orderId, { uid: command.uid, orderId: placed.orderId });
    }
  };
  for (const op of stream.prefill) record(op, setup);
  const commands: Command[] = [];
  for (const op of stream.ops) record(op, commands);
  return {
    setup,
    commands,
    orderCount: commands.length,
    peerPrefill: stream.prefill,
    peerOps: stream.ops,
    refusals: recorder.refusals,
  };
}

/**
 * The crossing stream: pairs of a GTC sell and a GTC buy at the same price, so that every
 * order fills whole (the sell rests, the buy takes it) and the book is left as it was; sizes
 * 1–20 lots, prices around the mid. `ordersPerCommand` 1 gives one order per command, the
 * maker and taker of a pair on different accounts; 20 gives PlaceOrders of 10 pairs from one
 * account (as `npm run bench:orders`'s crossing body).
 */
export function crossingStream(orderCount: number, ordersPerCommand: number): FullStream {
  const recorder = new Recorder();
  const setup: Command[] = [];
  const uids = setupOf(recorder, 64, setup);
  const commands: Command[] = [];
  const peerOps: BenchOp[] = [];
  let items: OrderRequest[] = [];
  for (let index = 0; index < orderCount; index += 1) {
    const pair = Math.floor(index / 2);
    const side = index % 2 === 0 ? 'sell' : 'buy';
    const priceTicks = MIDDLE_TICKS + (pair % 41) - 20;
    const lots = 1 + (pair % 20);
    items.push(limitItem(side, priceTicks, lots, 'gtc'));
    peerOps.push({ kind: opLimit, orderId: `c${index}`, ownerId: '', side, priceTicks, lots });
    if (items.length === ordersPerCommand) {
      const account = ordersPerCommand === 1 ? index : Math.floor(index / ordersPerCommand);
      const uid = uids[account % uids.length] as string;
      const command: Command = { type: 'PlaceOrders', timeMs: recorder.tick(), uid, category: 'SPOT', items };
      commands.push(command);
      recorder.run(command);
      items = [];
    }
  }
  if (recorder.exchange.state.orders.size !== 0) throw new Error('the crossing stream left orders resting');
  return { setup, commands, orderCount, peerPrefill: [], peerOps, refusals: recorder.refusals };
}
