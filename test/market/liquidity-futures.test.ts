/**
 * The liquidity provider on futures: the inventory limit in lots, the trimming of a side, the
 * order of a re-quote's steps, and an hour of simulated time in which a bot only buys
 * BTCUSDT USDT-M from the house. Figures by hand from the default catalogue (BTCUSDT USDT-M:
 * tick 0.1, lot 0.0001 BTC, minimum 5 USDT; BTCUSD coin-margined: lots of 1 USD) and the
 * default settings (limit 100000 quote value per contract, leverage 5).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { instrumentKey } from '../../src/domain/instrument.ts';
import { positionKey } from '../../src/domain/position.ts';
import { INSURANCE_FUND_UID } from '../../src/engine/futures/insurance.ts';
import { crossState } from '../../src/engine/futures/risk.ts';
import { defaultCatalogue } from '../../src/engine/instruments/catalogue.ts';
import { conservationImbalances } from '../../src/engine/invariants.ts';
import { DEFAULT_FEED } from '../../src/market/feed-config.ts';
import { capSide, targetLadder, type Quote } from '../../src/market/ladder.ts';
import { parseLiquidityConfig } from '../../src/market/liquidity-config.ts';
import { houseLeverage, limitLots } from '../../src/market/liquidity-futures.ts';
import { requoteSteps } from '../../src/market/requote.ts';
import { publicGet } from '../support/http.ts';
import { OperatorClient } from '../support/operator.ts';
import { data, mixOrder } from '../support/scenario.ts';
import { serverFor, TEST_OPERATOR_TOKEN } from '../support/server.ts';
import { SigningClient } from '../support/signing.ts';

const catalogue = defaultCatalogue();
const contract = (category: string, symbol: string) => {
  const found = catalogue.find((i) => i.category === category && i.symbol === symbol);
  assert.ok(found, `${category} ${symbol}`);
  return found;
};
const btcUsdt = contract('USDT-FUTURES', 'BTCUSDT');

test('limitLots when the contract is linear or coin-margined counts the limit in its lots', () => {
  // 100000 ÷ (60000 × 0.0001) = 16666 lots (1.6666 BTC); 100000 ÷ 1 USD = 100000 contracts.
  assert.equal(limitLots(btcUsdt, 600_000, 100_000), 16_666);
  assert.equal(limitLots(contract('COIN-FUTURES', 'BTCUSD'), 120_000, 100_000), 100_000);
  assert.equal(houseLeverage(btcUsdt, 5), 5);
  assert.equal(houseLeverage(btcUsdt, 200), 150, 'capped to the contract maximum');
  assert.equal(parseLiquidityConfig({}).maxPosition, 100_000);
  assert.deepEqual(parseLiquidityConfig({}).markets, ['*']);
  assert.throws(() => parseLiquidityConfig({ BOURSE_LIQUIDITY_MAX_POSITION: '0' }), /MAX_POSITION/);
  // Past the engine's per-account position limit the house's orders would be refused.
  assert.throws(() => parseLiquidityConfig({ BOURSE_LIQUIDITY_MAX_POSITION: '20000000' }), /MAX_POSITION/);
  assert.throws(() => parseLiquidityConfig({ BOURSE_LIQUIDITY_LEVERAGE: '2.5' }), /LEVERAGE/);
});

test('targetLadder when the contract is coin-margined sizes its levels in one-dollar contracts', () => {
  // Grid: 60000 × 0.0005 = 30 USD = 60 ticks of 0.5 → 50 ticks (25 USD); best bid
  // ⌊59970 / 25⌋ × 25 = 59950, best ask ⌈60030 / 25⌉ × 25 = 60050; 5000 USD = 5000 lots.
  const spec = { levels: 1, spread: 0.0005, step: 0.0005, notional: 5000 };
  assert.deepEqual(targetLadder(contract('COIN-FUTURES', 'BTCUSD'), 60000, spec), [
    { side: 'buy', priceTicks: 119_900, lots: 5000 },
    { side: 'sell', priceTicks: 120_100, lots: 5000 },
  ]);
  // Linear: 5000 USDT ÷ (59960 × 0.0001) = 833 lots of 0.0001 BTC.
  assert.deepEqual(targetLadder(btcUsdt, 60000, spec)[0], { side: 'buy', priceTicks: 599_600, lots: 833 });
});

const bid = (priceTicks: number, lots: number): Quote => ({ side: 'buy', priceTicks, lots });
const ask = (priceTicks: number, lots: number): Quote => ({ side: 'sell', priceTicks, lots });

test('capSide when the room ends inside a level keeps the best levels and the part that fits', () => {
  const ladder = [bid(599_600, 833), ask(600_400, 833), bid(599_400, 834), ask(600_600, 832)];
  assert.deepEqual(capSide(btcUsdt, ladder, 'buy', 1000), [
    bid(599_600, 833),
    ask(600_400, 833),
    bid(599_400, 167),
    ask(600_600, 832),
  ]);
  assert.deepEqual(capSide(btcUsdt, ladder, 'sell', 0), [bid(599_600, 833), bid(599_400, 834)]);
});

test('requoteSteps when the price jumps past the ladder places each side before cancelling it', () => {
  const own = [
    { orderId: 'b1', side: 'buy' as const, priceTicks: 599_600, remainingLots: 833 },
    { orderId: 'a1', side: 'sell' as const, priceTicks: 600_400, remainingLots: 833 },
  ];
  const up = [bid(609_600, 820), ask(610_400, 819)];
  // Up: the new asks cannot reach the own bid at 59960, so asks go first.
  assert.deepEqual(requoteSteps(btcUsdt, own, up), [
    { kind: 'place', quotes: [ask(610_400, 819)] },
    { kind: 'cancel', orderIds: ['a1'] },
    { kind: 'place', quotes: [bid(609_600, 820)] },
    { kind: 'cancel', orderIds: ['b1'] },
  ]);
  // Down to 59000: a new ask at 59030 would reach the own bid at 59960, so bids go first.
  const down = [bid(589_600, 847), ask(590_300, 846)];
  assert.equal(requoteSteps(btcUsdt, own, down)[0]?.kind, 'place');
  assert.deepEqual(requoteSteps(btcUsdt, own, down)[1], { kind: 'cancel', orderIds: ['b1'] });
  // With 1000 lots of room a side holds at most 1000 while its stale 833 still rest.
  assert.deepEqual(requoteSteps(btcUsdt, own, up, { buy: 1000, sell: 1000 })[0], {
    kind: 'place',
    quotes: [ask(610_400, 167)],
  });
  // One grid step up keeps a level on each side: cancel the stale ones, then place.
  const two = [
    ...own,
    { orderId: 'b2', side: 'buy' as const, priceTicks: 599_400, remainingLots: 834 },
    { orderId: 'a2', side: 'sell' as const, priceTicks: 600_600, remainingLots: 832 },
  ];
  const step = [bid(599_800, 833), bid(599_600, 833), ask(600_600, 832), ask(600_800, 832)];
  assert.deepEqual(requoteSteps(btcUsdt, two, step, { buy: 1000, sell: 1000 }), [
    { kind: 'cancel', orderIds: ['a1', 'b2'] },
    { kind: 'place', quotes: [bid(599_800, 833), ask(600_800, 832)] },
  ]);
  // A standing ladder needs nothing; a level under half full is replaced.
  assert.deepEqual(requoteSteps(btcUsdt, own, [bid(599_600, 833), ask(600_400, 833)]), []);
  assert.deepEqual(requoteSteps(btcUsdt, own, [bid(599_600, 1700), ask(600_400, 833)]), [
    { kind: 'place', quotes: [bid(599_600, 1700)] },
    { kind: 'cancel', orderIds: ['b1'] },
  ]);
});

test('liquidity provider when a bot buys from it for an hour keeps its short within the limit and is never liquidated', async (t) => {
  const server = await serverFor(t, {
    env: { BOURSE_CLOCK: 'simulated', BOURSE_FEED: DEFAULT_FEED, BOURSE_LIQUIDITY: 'on' },
  });
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const bot = new SigningClient(server.url, server.credentials);
  const state = () => server.services.sequencer.exchange.state;
  await server.market.liquidity.requote();
  const house = server.market.liquidity.accountUid ?? '';
  const shortKey = positionKey(house, 'USDT-FUTURES', 'BTCUSDT', 'short');
  const limit = 100_000;
  const indexTicks = () => Number(state().indexPrices.get(instrumentKey('USDT-FUTURES', 'BTCUSDT'))) * 10;
  const houseOrders = (side: 'buy' | 'sell') => {
    let lots = 0;
    for (const order of state().orders.values()) {
      if (
        order.uid === house &&
        order.symbol === 'BTCUSDT' &&
        order.category === 'USDT-FUTURES' &&
        order.side === side
      )
        lots += order.quantityLots - order.filledLots;
    }
    return lots;
  };
  let largestLimit = 0;
  let growingSteps = 0;
  let blockedSteps = 0;
  let worstMarginRatio = 0;
  for (let minute = 1; minute <= 60; minute += 1) {
    await operator.advanceClock(60_000);
    await server.market.feeds.poll();
    await server.market.liquidity.requote();
    const shortBefore = state().positions.get(shortKey)?.sizeLots ?? 0;
    const placed = await bot.post('/api/v2/mix/order/place-order', {
      body: mixOrder({ side: 'buy', orderType: 'market', size: '0.3' }),
    });
    assert.equal(placed.body?.code, '00000', placed.text);
    await server.market.liquidity.requote();

    // The limit is valued at the index when the house quotes: the short never outgrows the
    // largest limit in lots seen so far, and while it is over the current one no ask rests.
    const limitNow = limitLots(btcUsdt, indexTicks(), limit);
    largestLimit = Math.max(largestLimit, limitNow);
    const short = state().positions.get(shortKey);
    if ((short?.sizeLots ?? 0) > shortBefore) growingSteps += 1;
    else blockedSteps += 1;
    assert.ok((short?.sizeLots ?? 0) <= largestLimit, `minute ${minute}: short ${short?.sizeLots} lots`);
    if ((short?.sizeLots ?? 0) >= limitNow) assert.equal(houseOrders('sell'), 0, `minute ${minute}`);
    else assert.ok((short?.sizeLots ?? 0) + houseOrders('sell') <= limitNow, `minute ${minute}`);
    if (minute >= 2) assert.ok(short && short.sizeLots > 0, `minute ${minute}: the house lost its position`);
    const cross = crossState(
      state(),
      server.services.sequencer.exchange.books,
      house,
      'usdt_futures',
      'USDT',
    );
    const ratio = Number(cross.maintenanceMargin) / Number(cross.equity);
    worstMarginRatio = Math.max(worstMarginRatio, ratio);
    assert.ok(ratio < 0.05, `minute ${minute}: margin ratio ${ratio}`);
  }
  // The bot's market buys took the asks until the limit; after it the house quotes no asks
  // beyond the limit but keeps its bids, which would reduce its short.
  assert.ok(growingSteps >= 5 && blockedSteps >= 1, `grew ${growingSteps}, blocked ${blockedSteps}`);
  const short = state().positions.get(shortKey);
  assert.ok(short && short.sizeLots >= limitLots(btcUsdt, indexTicks(), limit) * 0.95, 'at its limit');
  const book = data<{ asks: string[][]; bids: string[][] }>(
    await publicGet(server.url, '/api/v2/mix/market/merge-depth', 'symbol=BTCUSDT&productType=USDT-FUTURES'),
  );
  assert.equal(book.bids.length, 10, 'the side that reduces the short stays whole');
  assert.ok(houseOrders('buy') > 0);
  for (const position of state().positions.values()) {
    assert.notEqual(position.uid, INSURANCE_FUND_UID, 'nobody was liquidated into the insurance fund');
  }
  assert.ok(worstMarginRatio > 0, 'the house carried a position');
  assert.deepEqual(
    server.logs.filter((line) => line.includes('cannot quote')),
    [],
    'no house order was refused',
  );
  assert.deepEqual(conservationImbalances(state()), []);
});

test('liquidity provider when the price runs away from its short tops up its margin instead of being liquidated', async (t) => {
  const server = await serverFor(t, {
    env: { BOURSE_CLOCK: 'simulated', BOURSE_FEED: DEFAULT_FEED, BOURSE_LIQUIDITY: 'on' },
  });
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const bot = new SigningClient(server.url, server.credentials);
  const state = () => server.services.sequencer.exchange.state;
  const books = server.services.sequencer.exchange.books;
  await server.market.liquidity.requote();
  const house = server.market.liquidity.accountUid ?? '';
  for (let round = 0; round < 4; round += 1) {
    data(
      await bot.post('/api/v2/mix/order/place-order', {
        body: mixOrder({ side: 'buy', orderType: 'market', size: '0.5' }),
      }),
    );
    await server.market.liquidity.requote();
  }
  const short = () => state().positions.get(positionKey(house, 'USDT-FUTURES', 'BTCUSDT', 'short'));
  const sizeLots = short()?.sizeLots ?? 0;
  assert.ok(sizeLots > 15_000, `short ${sizeLots} lots`);
  const topUps = () =>
    server.logs.filter((line) => line.includes('top-up') && line.includes('usdt_futures')).length;
  const before = topUps();
  // Each jump is a loss of half the position's value or more, between two rounds.
  for (const price of ['90000', '135000', '200000']) {
    await operator.setPrice({ category: 'USDT-FUTURES', symbol: 'BTCUSDT', indexPrice: price });
    assert.equal(short()?.sizeLots, sizeLots, `at ${price} the house still holds its short`);
    await server.market.liquidity.requote();
    const cross = crossState(state(), books, house, 'usdt_futures', 'USDT');
    const value = (BigInt(sizeLots) * BigInt(price) * 10n ** 8n) / 10_000n;
    // Valued at the index; the mark may differ from it by the book's premium (≤ 0.5 %).
    assert.ok(
      cross.free >= (value * 99n) / 100n,
      `at ${price}: free ${cross.free} below the position value ${value}`,
    );
  }
  assert.ok(topUps() > before, 'losses were covered by deposits');
  for (const position of state().positions.values()) assert.notEqual(position.uid, INSURANCE_FUND_UID);
  assert.deepEqual(conservationImbalances(state()), []);
});
