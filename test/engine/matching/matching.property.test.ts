// Property test: random command streams drive the fast and the reference book in lockstep.
// Checks: identical results and book state, never crossed at rest, per-order quantity
// conservation (ordered = filled + cancelled + resting), fill/quote bookkeeping, TIF and STP
// promises, and replay determinism of the state hash.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { amend, type AmendResult } from '../../../src/engine/matching/amend.ts';
import { stateHash } from '../../../src/engine/matching/book-hash.ts';
import { createFastOrderBook } from '../../../src/engine/matching/fast-order-book.ts';
import { match } from '../../../src/engine/matching/matcher.ts';
import type { OrderBook } from '../../../src/engine/matching/order-book.ts';
import { createReferenceOrderBook } from '../../../src/engine/matching/reference-order-book.ts';
import type { MatchResult, TakerOrder } from '../../../src/engine/matching/types.ts';
import { checkMatchResult, QuantityLedger } from './property-checks.ts';
import { generateCommand, type Command } from './property-commands.ts';
import { seededRandom } from './support.ts';

type Outcome = MatchResult | AmendResult | { outcome: 'cancelled' | 'not_found'; remainingLots?: number };

function execute(book: OrderBook, command: Command): Outcome {
  switch (command.kind) {
    case 'place':
      return match(book, command.taker);
    case 'cancel': {
      const removed = book.remove(command.orderId);
      return removed === undefined
        ? { outcome: 'not_found' }
        : { outcome: 'cancelled', remainingLots: removed.remainingLots };
    }
    case 'amend':
      return amend(book, command.request);
  }
}

/** Live views are replaced by plain copies so outcomes compare and serialise by value. */
function plain(outcome: Outcome): unknown {
  if ('outcome' in outcome && (outcome.outcome === 'reduced_in_place' || outcome.outcome === 'unchanged')) {
    return { ...outcome, order: { ...outcome.order } };
  }
  return outcome;
}

function serialise(value: unknown): string {
  return JSON.stringify(value, (_, item: unknown) => (typeof item === 'bigint' ? `${item}n` : item));
}

function assertSameBooks(fast: OrderBook, reference: OrderBook, step: number): void {
  assert.deepEqual(fast.restingOrders(), reference.restingOrders(), `resting orders at step ${step}`);
  assert.equal(fast.orderCount, reference.orderCount);
  for (const side of ['buy', 'sell'] as const) {
    assert.deepEqual(fast.depth(side, 1000), reference.depth(side, 1000), `depth at step ${step}`);
    assert.deepEqual({ ...fast.best(side) }, { ...reference.best(side) });
  }
  const bestBid = fast.bestPriceTicks('buy');
  const bestAsk = fast.bestPriceTicks('sell');
  if (bestBid !== undefined && bestAsk !== undefined) assert.ok(bestBid < bestAsk, `crossed at step ${step}`);
}

function totalLots(book: OrderBook): number {
  return book.restingOrders().reduce((sum, order) => sum + order.remainingLots, 0);
}

function checkBookConservation(before: number, after: number, outcome: Outcome, command: Command): void {
  let expected = before;
  const applyMatch = (result: MatchResult) => {
    for (const fill of result.fills) expected -= fill.lots;
    for (const cancellation of result.makersCancelled) expected -= cancellation.remainingLots;
    expected += result.takerRestingLots;
  };
  if (!('outcome' in outcome)) applyMatch(outcome);
  else if (outcome.outcome === 'cancelled') expected -= outcome.remainingLots ?? 0;
  else if (outcome.outcome === 'requeued') {
    expected -= outcome.previousRemainingLots;
    applyMatch(outcome.match);
  } else if (outcome.outcome === 'reduced_in_place' && command.kind === 'amend') {
    expected -= outcome.previousRemainingLots - command.request.remainingLots;
  }
  assert.equal(after, expected, `book lots after ${command.kind}`);
}

function runStream(seed: number, steps: number): { commands: Command[]; log: string[]; hash: string } {
  const random = seededRandom(seed);
  const fast = createFastOrderBook();
  const reference = createReferenceOrderBook();
  const ledger = new QuantityLedger();
  const commands: Command[] = [];
  const log: string[] = [];
  for (let step = 0; step < steps; step += 1) {
    const command = generateCommand(random, reference, step);
    commands.push(command);
    const lotsBefore = totalLots(reference);
    const fastOutcome = execute(fast, command);
    const referenceOutcome = execute(reference, command);
    assert.deepEqual(plain(fastOutcome), plain(referenceOutcome), `outcome at step ${step} (seed ${seed})`);
    assertSameBooks(fast, reference, step);
    checkBookConservation(lotsBefore, totalLots(reference), referenceOutcome, command);
    if (command.kind === 'place') checkMatchResult(command.taker, referenceOutcome as MatchResult);
    if (
      command.kind === 'amend' &&
      'outcome' in referenceOutcome &&
      referenceOutcome.outcome === 'requeued'
    ) {
      checkMatchResult(amendTaker(command), referenceOutcome.match);
    }
    ledger.record(command, referenceOutcome);
    log.push(serialise(plain(fastOutcome)));
  }
  ledger.assertConserved(fast);
  return { commands, log, hash: stateHash(fast) };
}

function amendTaker(command: Extract<Command, { kind: 'amend' }>): TakerOrder {
  const request = command.request;
  return {
    orderId: request.orderId,
    ownerId: command.ownerId,
    side: command.side,
    kind: 'limit',
    priceTicks: request.priceTicks,
    lots: request.remainingLots,
    quoteOf: request.quoteOf,
    timeInForce: request.timeInForce,
    stpMode: command.stpMode,
    sequence: request.sequence,
  };
}

function replay(commands: Command[]): { log: string[]; hash: string } {
  const book = createFastOrderBook();
  const log = commands.map((command) => serialise(plain(execute(book, command))));
  return { log, hash: stateHash(book) };
}

const seeds = [1, 2, 3, 42, 1337, 2024, 99991, 123456789];

for (const seed of seeds) {
  test(`random command stream when run on both books agrees and keeps invariants (seed ${seed})`, () => {
    const first = runStream(seed, 600);
    const again = replay(first.commands);
    assert.equal(again.hash, first.hash);
    assert.deepEqual(again.log, first.log);
    const reference = createReferenceOrderBook();
    for (const command of first.commands) execute(reference, command);
    assert.equal(stateHash(reference), first.hash);
  });
}
