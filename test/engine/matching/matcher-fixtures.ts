// Book fixtures shared by the matcher tests.

import type { OrderBook, OrderBookFactory } from '../../../src/engine/matching/order-book.ts';
import type { MatchResult, RestingOrder } from '../../../src/engine/matching/types.ts';
import { restingOrder } from './support.ts';

export type Seed = Partial<RestingOrder> & Pick<RestingOrder, 'orderId'>;

export function bookWith(createBook: OrderBookFactory, seeds: Seed[]): OrderBook {
  const book = createBook();
  for (const seed of seeds) book.add(restingOrder({ ownerId: 'maker', ...seed }));
  return book;
}

export function fillSummary(result: MatchResult): [string, number, number][] {
  return result.fills.map((fill) => [fill.makerOrderId, fill.priceTicks, fill.lots]);
}

/** Asks at 100 (1 then 3 lots), 101 (2) and 103 (5), added out of price order. */
export const asks: Seed[] = [
  { orderId: 'ask-101-a', side: 'sell', priceTicks: 101, remainingLots: 2 },
  { orderId: 'ask-100-a', side: 'sell', priceTicks: 100, remainingLots: 1 },
  { orderId: 'ask-100-b', side: 'sell', priceTicks: 100, remainingLots: 3 },
  { orderId: 'ask-103-a', side: 'sell', priceTicks: 103, remainingLots: 5 },
];
