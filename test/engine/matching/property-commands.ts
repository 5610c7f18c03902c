// Random commands for the property test, drawn from a seeded PRNG and the current book.
// Bids are drawn from 90..102 and asks from 98..110: the book builds depth over ~20 levels
// while the overlap keeps crossing, partial fills and STP conflicts common.

import type { AmendRequest } from '../../../src/engine/matching/amend.ts';
import type { OrderBook } from '../../../src/engine/matching/order-book.ts';
import type { Side, StpMode, TakerOrder, TimeInForce } from '../../../src/engine/matching/types.ts';
import { pick, quoteOf, randomInteger } from './support.ts';

export type Command =
  | { kind: 'place'; taker: TakerOrder }
  | { kind: 'cancel'; orderId: string }
  | { kind: 'amend'; request: AmendRequest; ownerId: string; side: Side; stpMode: StpMode };

const owners = ['alice', 'bob', 'carol'] as const;
const stpModes: readonly StpMode[] = ['none', 'none', 'cancel_taker', 'cancel_maker', 'cancel_both'];
const timesInForce: readonly TimeInForce[] = ['gtc', 'gtc', 'gtc', 'ioc', 'fok', 'post_only'];
const sides: readonly Side[] = ['buy', 'sell'];

export function generateCommand(random: () => number, book: OrderBook, step: number): Command {
  const live = book.restingOrders();
  const roll = random();
  if (live.length === 0 || roll < 0.5) return placeLimit(random, step);
  if (roll < 0.58) return placeMarket(random, step);
  if (roll < 0.68) {
    const orderId = random() < 0.1 ? 'ghost' : pick(random, live).orderId;
    return { kind: 'cancel', orderId };
  }
  const target = pick(random, live);
  const request: AmendRequest = {
    orderId: random() < 0.05 ? 'ghost' : target.orderId,
    priceTicks: target.priceTicks + randomInteger(random, -3, 3),
    remainingLots: randomInteger(random, 1, 8),
    sequence: 1000 + step,
    timeInForce: random() < 0.8 ? 'gtc' : 'post_only',
    quoteOf,
  };
  return { kind: 'amend', request, ownerId: target.ownerId, side: target.side, stpMode: target.stpMode };
}

function baseTaker(random: () => number, step: number): Omit<TakerOrder, 'kind'> {
  return {
    orderId: `o${step}`,
    ownerId: pick(random, owners),
    side: pick(random, sides),
    quoteOf,
    timeInForce: pick(random, timesInForce),
    stpMode: pick(random, stpModes),
    sequence: 1000 + step,
  };
}

function placeLimit(random: () => number, step: number): Command {
  const base = baseTaker(random, step);
  const priceTicks = base.side === 'buy' ? randomInteger(random, 90, 102) : randomInteger(random, 98, 110);
  const taker: TakerOrder = { ...base, kind: 'limit', priceTicks, lots: randomInteger(random, 1, 8) };
  return { kind: 'place', taker };
}

function placeMarket(random: () => number, step: number): Command {
  const taker: TakerOrder = { ...baseTaker(random, step), kind: 'market' };
  const sizing = randomInteger(random, 0, 2);
  if (sizing !== 1) taker.lots = randomInteger(random, 1, 12);
  if (sizing !== 0) taker.quoteBudget = BigInt(randomInteger(random, 1, 12 * 105 * 10));
  if (random() < 0.3) {
    taker.priceTicks = taker.side === 'buy' ? randomInteger(random, 98, 108) : randomInteger(random, 92, 102);
  }
  return { kind: 'place', taker };
}
