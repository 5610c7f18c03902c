// Builders and a seeded PRNG shared by the matching tests.

import { createFastOrderBook } from '../../../src/engine/matching/fast-order-book.ts';
import type { OrderBookFactory } from '../../../src/engine/matching/order-book.ts';
import { createReferenceOrderBook } from '../../../src/engine/matching/reference-order-book.ts';
import type { QuoteOf, RestingOrder, TakerOrder } from '../../../src/engine/matching/types.ts';

export const bookImplementations: readonly { name: string; create: OrderBookFactory }[] = [
  { name: 'reference book', create: createReferenceOrderBook },
  { name: 'fast book', create: createFastOrderBook },
];

/** Quote of one lot at one tick is 10 money units: exact and linear. */
export const quoteOf: QuoteOf = (priceTicks, lots) => BigInt(priceTicks) * BigInt(lots) * 10n;

let nextSequence = 1;

export function restingOrder(overrides: Partial<RestingOrder> & Pick<RestingOrder, 'orderId'>): RestingOrder {
  return {
    ownerId: 'owner-a',
    side: 'buy',
    priceTicks: 100,
    remainingLots: 1,
    sequence: nextSequence++,
    stpMode: 'none',
    ...overrides,
  };
}

export function limitTaker(overrides: Partial<TakerOrder> & Pick<TakerOrder, 'orderId'>): TakerOrder {
  return {
    ownerId: 'taker',
    side: 'buy',
    kind: 'limit',
    priceTicks: 100,
    lots: 1,
    quoteOf,
    timeInForce: 'gtc',
    stpMode: 'none',
    sequence: nextSequence++,
    ...overrides,
  };
}

export function marketTaker(overrides: Partial<TakerOrder> & Pick<TakerOrder, 'orderId'>): TakerOrder {
  return {
    ownerId: 'taker',
    side: 'buy',
    kind: 'market',
    quoteOf,
    timeInForce: 'ioc',
    stpMode: 'none',
    sequence: nextSequence++,
    ...overrides,
  };
}

/** mulberry32: small, fast, good enough to drive test streams reproducibly. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let value = state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomInteger(random: () => number, minimum: number, maximum: number): number {
  return minimum + Math.floor(random() * (maximum - minimum + 1));
}

export function pick<T>(random: () => number, items: readonly T[]): T {
  const item = items[Math.floor(random() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}
