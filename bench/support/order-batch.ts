/**
 * The place-batch bodies of the order-entry benchmarks, 20 BTCUSDT spot orders each:
 * - `entry`: immediate-or-cancel limit orders priced away from an empty book (buys at 59,000,
 *   sells at 61,000): each is validated, held, matched against nothing and released — order
 *   entry without trades, one order row each; the book stays empty;
 * - `crossing`: 10 buy/sell pairs at 60,000, each sell filling the buy just before it: 10
 *   trades per request (20 fills, 40 bills, candles), the book left as it was.
 * Neither leaves orders resting, so runs can be as long as wanted without reaching the
 * venue's 400-open-orders limit.
 */
export const ORDERS_PER_REQUEST = 20;

export type Workload = 'entry' | 'crossing';

export function orderBatch(workload: Workload): string {
  const items = [];
  for (let pair = 0; pair < ORDERS_PER_REQUEST / 2; pair += 1) {
    for (const side of ['buy', 'sell']) {
      const price = workload === 'crossing' ? '60000' : side === 'buy' ? '59000' : '61000';
      const timeInForce = workload === 'crossing' ? 'gtc' : 'ioc';
      items.push({
        category: 'SPOT',
        symbol: 'BTCUSDT',
        side,
        orderType: 'limit',
        timeInForce,
        price,
        qty: '0.0001',
      });
    }
  }
  return JSON.stringify(items);
}
