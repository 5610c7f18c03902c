// Assertions the property test applies to every match result, and a per-order quantity ledger.

import assert from 'node:assert/strict';
import type { AmendResult } from '../../../src/engine/matching/amend.ts';
import type { OrderBook } from '../../../src/engine/matching/order-book.ts';
import type { MatchResult, TakerOrder } from '../../../src/engine/matching/types.ts';
import type { Command } from './property-commands.ts';

export function checkMatchResult(taker: TakerOrder, result: MatchResult): void {
  let filledLots = 0;
  let quoteSpent = 0n;
  let previousPrice: number | undefined;
  for (const fill of result.fills) {
    filledLots += fill.lots;
    quoteSpent += fill.quote;
    assert.equal(fill.quote, taker.quoteOf(fill.priceTicks, fill.lots));
    assert.equal(fill.takerOrderId, taker.orderId);
    assert.ok(fill.lots > 0);
    if (taker.priceTicks !== undefined) {
      assert.ok(
        taker.side === 'buy' ? fill.priceTicks <= taker.priceTicks : fill.priceTicks >= taker.priceTicks,
      );
    }
    if (previousPrice !== undefined) {
      assert.ok(taker.side === 'buy' ? fill.priceTicks >= previousPrice : fill.priceTicks <= previousPrice);
    }
    previousPrice = fill.priceTicks;
    if (taker.stpMode !== 'none') assert.notEqual(fill.makerOwnerId, taker.ownerId, 'self-trade despite STP');
  }
  assert.equal(result.takerFilledLots, filledLots);
  assert.equal(result.takerQuoteSpent, quoteSpent);
  for (const cancellation of result.makersCancelled) assert.equal(cancellation.ownerId, taker.ownerId);
  if (taker.stpMode === 'none' || taker.stpMode === 'cancel_taker')
    assert.equal(result.makersCancelled.length, 0);
  if (taker.quoteBudget !== undefined) assert.ok(quoteSpent <= taker.quoteBudget);
  const reason = result.takerCancelledReason;
  if (reason !== undefined) assert.equal(result.takerRestingLots, 0);
  if (result.fills.length === 0 && result.takerRestingLots === 0) assert.notEqual(reason, undefined);
  if (taker.kind === 'market') {
    assert.equal(result.takerRestingLots, 0);
    if (reason === undefined && taker.quoteBudget === undefined) assert.equal(filledLots, taker.lots);
    return;
  }
  const lots = taker.lots as number;
  if (reason === undefined) assert.equal(filledLots + result.takerRestingLots, lots);
  else assert.ok(filledLots < lots);
  if (taker.timeInForce === 'fok') assert.ok(filledLots === 0 || filledLots === lots);
  if (taker.timeInForce === 'post_only') assert.equal(filledLots, 0);
  if (taker.timeInForce === 'ioc' || taker.timeInForce === 'fok') assert.equal(result.takerRestingLots, 0);
}

interface LedgerEntry {
  orderedLots: number;
  filledLots: number;
  cancelledLots: number;
}

/** Per order id: ordered = filled + cancelled + resting, whatever happened to it. */
export class QuantityLedger {
  private readonly entries = new Map<string, LedgerEntry>();

  record(command: Command, outcome: unknown): void {
    if (command.kind === 'place') {
      this.recordTaker(command.taker.orderId, command.taker.lots, outcome as MatchResult);
      return;
    }
    const result = outcome as AmendResult | { outcome: 'cancelled'; remainingLots: number };
    if (result.outcome === 'cancelled')
      this.entry(command.kind === 'cancel' ? command.orderId : '').cancelledLots += result.remainingLots;
    if (command.kind !== 'amend') return;
    const entry = this.entry(command.request.orderId);
    if (result.outcome === 'reduced_in_place') {
      entry.cancelledLots += result.previousRemainingLots - command.request.remainingLots;
    }
    if (result.outcome === 'requeued') {
      entry.cancelledLots += result.previousRemainingLots;
      this.recordTaker(command.request.orderId, command.request.remainingLots, result.match);
    }
  }

  assertConserved(book: OrderBook): void {
    for (const [orderId, entry] of this.entries) {
      const restingLots = book.get(orderId)?.remainingLots ?? 0;
      assert.equal(
        entry.filledLots + entry.cancelledLots + restingLots,
        entry.orderedLots,
        `conservation of ${orderId}`,
      );
    }
  }

  private recordTaker(orderId: string, lots: number | undefined, result: MatchResult): void {
    const taker = this.entry(orderId);
    // A budget-only market order has no size in lots: what it bought is what it ordered.
    const orderedLots = lots ?? result.takerFilledLots;
    taker.orderedLots += orderedLots;
    taker.filledLots += result.takerFilledLots;
    taker.cancelledLots += orderedLots - result.takerFilledLots - result.takerRestingLots;
    for (const fill of result.fills) this.entry(fill.makerOrderId).filledLots += fill.lots;
    for (const cancellation of result.makersCancelled)
      this.entry(cancellation.orderId).cancelledLots += cancellation.remainingLots;
  }

  private entry(orderId: string): LedgerEntry {
    let entry = this.entries.get(orderId);
    if (entry === undefined) {
      entry = { orderedLots: 0, filledLots: 0, cancelledLots: 0 };
      this.entries.set(orderId, entry);
    }
    return entry;
  }
}
