import assert from 'node:assert/strict';
import { test } from 'node:test';
import { EngineHarness, money } from '../../support/engine-builders.ts';

test('spot limit orders match when a buyer meets a resting seller, with fees by hand', () => {
  const engine = new EngineHarness();
  const seller = engine.account({ BTC: '1' });
  const buyer = engine.account({ USDT: '100000' });
  // Seller rests 0.5 BTC at 60000; buyer takes 0.2 at up to 60100 (fills at 60000, maker's price).
  const [ask] = engine.place(seller, 'SPOT', { side: 'sell', price: '60000', quantity: '0.5' });
  assert.ok(ask?.orderId);
  const [bid] = engine.place(buyer, 'SPOT', { side: 'buy', price: '60100', quantity: '0.2' });
  assert.ok(bid?.orderId);

  // Buyer: paid 0.2 × 60000 = 12000 USDT; received 0.2 BTC less 0.1 % taker fee = 0.1998 BTC.
  assert.deepEqual(engine.balance(buyer, 'USDT'), {
    available: money('88000'),
    frozen: 0n,
    borrowed: 0n,
    interest: 0n,
    margin: 0n,
  });
  assert.equal(engine.balance(buyer, 'BTC').available, money('0.1998'));
  // Seller: 0.3 BTC still frozen for the rest of the ask; received 12000 less 0.1 % maker fee = 11988.
  assert.deepEqual(engine.balance(seller, 'BTC'), {
    available: money('0.5'),
    frozen: money('0.3'),
    borrowed: 0n,
    interest: 0n,
    margin: 0n,
  });
  assert.equal(engine.balance(seller, 'USDT').available, money('11988'));
  assert.equal(engine.state.feesCollected.get('BTC'), money('0.0002'));
  assert.equal(engine.state.feesCollected.get('USDT'), money('12'));
  const resting = engine.state.orders.get(ask.orderId);
  assert.equal(resting?.status, 'partially_filled');
  assert.equal(engine.state.orders.has(bid.orderId), false, 'the filled bid left the open orders');
  engine.assertConserved();
});

test('spot market buy spends its quote amount in whole lots and releases the rest', () => {
  const engine = new EngineHarness();
  const seller = engine.account({ BTC: '1' });
  const buyer = engine.account({ USDT: '1000' });
  engine.place(seller, 'SPOT', { side: 'sell', price: '60000', quantity: '1' });
  engine.place(buyer, 'SPOT', { side: 'buy', orderType: 'market', quantity: '100' });
  // 100 USDT buys floor(100 / 60000 / 0.000001) = 1666 lots = 0.001666 BTC for 99.96 USDT.
  assert.equal(engine.balance(buyer, 'USDT').available, money('900.04'));
  assert.equal(engine.balance(buyer, 'USDT').frozen, 0n);
  // Fee 0.1 % of 0.001666 = 0.000001666, rounded up to 8 places: 0.00000167.
  assert.equal(engine.balance(buyer, 'BTC').available, money('0.00166433'));
  engine.assertConserved();
});

test('cancel releases the hold when the order is open', () => {
  const engine = new EngineHarness();
  const buyer = engine.account({ USDT: '1000' });
  const [bid] = engine.place(buyer, 'SPOT', { side: 'buy', price: '59000', quantity: '0.01' });
  assert.equal(engine.balance(buyer, 'USDT').frozen, money('590'));
  engine.ok({
    type: 'CancelOrders',
    timeMs: engine.nowMs,
    uid: buyer,
    items: [{ orderId: bid?.orderId ?? '' }],
  });
  assert.deepEqual(engine.balance(buyer, 'USDT'), {
    available: money('1000'),
    frozen: 0n,
    borrowed: 0n,
    interest: 0n,
    margin: 0n,
  });
  engine.assertConserved();
});

test('place fails without a state change when the balance is insufficient', () => {
  const engine = new EngineHarness();
  const buyer = engine.account({ USDT: '10' });
  const [result] = engine.place(buyer, 'SPOT', { side: 'buy', price: '59000', quantity: '0.01' });
  assert.equal(result?.code, 'INSUFFICIENT_BALANCE');
  assert.equal(engine.state.orders.size, 0);
  assert.equal(engine.balance(buyer, 'USDT').available, money('10'));
});

test('margin buy borrows the shortfall and interest accrues by the hour', () => {
  const engine = new EngineHarness();
  const seller = engine.account({ BTC: '1' }, 'crossed_margin');
  const buyer = engine.account({ USDT: '1000' }, 'crossed_margin');
  engine.place(seller, 'MARGIN', { side: 'sell', price: '60000', quantity: '0.05' });
  // 0.03 BTC × 60000 = 1800 USDT; the wallet has 1000, so 800 is borrowed (3× cross allows 2000).
  engine.place(buyer, 'MARGIN', { side: 'buy', price: '60000', quantity: '0.03' });
  const usdt = engine.balance(buyer, 'USDT', 'crossed_margin');
  assert.equal(usdt.borrowed, money('800'));
  assert.equal(usdt.available, 0n);
  // One hour at borrowing: 800 × 0.000126279 / 24 = 0.00420930 (rounded up).
  assert.equal(usdt.interest, money('0.0042093'));
  engine.nowMs += 2 * 60 * 60 * 1000;
  engine.ok({ type: 'AdvanceClock', timeMs: engine.nowMs, ms: 0 });
  assert.equal(engine.balance(buyer, 'USDT', 'crossed_margin').interest, money('0.0126279'));
  engine.assertConserved();
});

test('orders that fill or are cancelled while placed never count as open, even for the orders after them in a batch', () => {
  const engine = new EngineHarness();
  const trader = engine.account({ USDT: '100000000' });
  // 199 resting bids (BTCUSDT allows 200 open orders an account), in batches of 20.
  for (let placed = 0; placed < 199; placed += 20) {
    const count = Math.min(20, 199 - placed);
    const items = Array.from({ length: count }, () => ({
      side: 'buy' as const,
      price: '50000',
      quantity: '0.0001',
    }));
    assert.ok(engine.place(trader, 'SPOT', ...items).every((item) => item.orderId));
  }
  // A batch of immediate-or-cancel orders on an empty ask side, then one more resting bid:
  // each IOC order is done when placed, so none takes a slot, and the last bid gets the 200th.
  const ioc = Array.from({ length: 19 }, () => ({
    side: 'buy' as const,
    price: '50000',
    quantity: '0.0001',
    timeInForce: 'ioc' as const,
  }));
  const results = engine.place(trader, 'SPOT', ...ioc, { side: 'buy', price: '50000', quantity: '0.0001' });
  assert.deepEqual(
    results.map((item) => item.code ?? 'ok'),
    Array.from({ length: 20 }, () => 'ok'),
  );
  assert.equal(engine.state.orders.size, 200, 'the IOC orders left nothing open');
  // The 201st is refused.
  const [refused] = engine.place(trader, 'SPOT', { side: 'buy', price: '50000', quantity: '0.0001' });
  assert.equal(refused?.code, 'TOO_MANY_OPEN_ORDERS');
  engine.assertConserved();
});
