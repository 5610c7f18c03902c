/**
 * Liquidation through the book as the trader sees it over HTTP (v2 mix): a partial
 * liquidation by tier, and a full one filled by the book; the orders, fills, bills and
 * position history the venue shows. BTCUSDT: taker 0.0006, maker 0.0002, tier 1 up to
 * 200,000 USDT (MMR 0.004), tier 2 up to 1,000,000 (0.005). Figures by hand.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseMoney } from '../../src/domain/money.ts';
import {
  available,
  bills,
  closed,
  conserved,
  fills,
  fundUsdt,
  history,
  pick,
  place,
  positions,
  post,
  setup,
} from '../support/liquidation.ts';

test('partial liquidation by tier closes down to tier 1 through the book and leaves a smaller position', async (t) => {
  const { server, trader, index } = await setup(t);
  const longer = await trader('3000');
  const seller = await trader('100000');
  const bidder = await trader('100000');
  await post(longer.client, '/api/v2/mix/account/set-leverage', { leverage: '100' });
  await place(seller.client, { side: 'sell', price: '60000', size: '4' });
  await place(longer.client, { side: 'buy', price: '60000', size: '4' });
  // 4 × 60000 = 240,000: tier 2. Taker fee 144: available 2856.
  assert.equal(await available(longer.client), '2856');
  await place(bidder.client, { side: 'buy', price: '59500', size: '1' });
  // Equity 2856 + 4 × (P − 60000) against MM* 4P × (0.005 + 0.0006): at 59700 1656 > 1337.28.
  await index('59700');
  assert.equal((await positions(longer.client)).length, 1);
  // At 59600: 1256 ≤ 1335.04. Value 238,400 is tier 2: close down to tier 1's 200,000, keeping
  // floor(200000 ÷ 5.96 per 0.0001) = 33557 lots; 0.6443 sold at bankruptcy 59600 − 1256 ÷ 4
  // = 59286 or better: the bid at 59500 takes it.
  await index('59600');
  const [position] = await positions(longer.client);
  assert.equal(position?.total, '3.3557', 'a smaller position is left');
  // Closed basis 240000 × 6443 ÷ 40000 = 38658, sold 0.6443 × 59500 = 38335.85: PnL −322.15;
  // fee 38335.85 × 0.0006 = 23.00151. Available 2856 − 322.15 − 23.00151 = 2510.84849.
  // Left: 3.3557 × 59600 = 199,999.72 (tier 1), equity 2510.84849 − 1342.28 = 1168.56849 >
  // MM* 199999.72 × 0.0046 = 919.998712: the liquidation stops.
  assert.equal(await available(longer.client), '2510.84849');
  assert.equal(position?.keepMarginRate, '0.004');
  const [liquidation] = await history(longer.client);
  assert.deepEqual(pick(liquidation, ['orderSource', 'tradeSide', 'status', 'size', 'price', 'priceAvg']), {
    orderSource: 'liquidation',
    tradeSide: 'burst_sell_single',
    status: 'filled',
    size: '0.6443',
    price: '59286',
    priceAvg: '59500',
  });
  const [fill] = await fills(longer.client);
  assert.deepEqual(pick(fill, ['tradeSide', 'price', 'baseVolume', 'profit', 'tradeScope', 'orderId']), {
    tradeSide: 'burst_sell_single',
    price: '59500',
    baseVolume: '0.6443',
    profit: '-322.15',
    tradeScope: 'taker',
    orderId: liquidation?.orderId,
  });
  const [bill] = await bills(longer.client);
  assert.deepEqual(pick(bill, ['businessType', 'amount', 'fee']), {
    businessType: 'burst_sell',
    amount: '-322.15',
    fee: '-23.00151',
  });
  assert.deepEqual(await closed(longer.client), [], 'the position is still open: no history entry');
  conserved(server);
});

test('full liquidation filled by the book closes an isolated hedge long and leaves the surplus to the fund', async (t) => {
  const { server, trader, index } = await setup(t);
  const longer = await trader('10000');
  const seller = await trader('100000');
  const bidder = await trader('100000');
  await post(longer.client, '/api/v2/mix/account/set-position-mode', { posMode: 'hedge_mode' });
  await post(longer.client, '/api/v2/mix/account/set-margin-mode', { marginMode: 'isolated' });
  await post(longer.client, '/api/v2/mix/account/set-leverage', { leverage: '10' });
  await place(seller.client, { side: 'sell', price: '60000', size: '0.1' });
  await place(longer.client, {
    side: 'buy',
    tradeSide: 'open',
    price: '60000',
    size: '0.1',
    marginMode: 'isolated',
  });
  // Margin 600, fee 3.6: available 9396.4.
  await place(bidder.client, { side: 'buy', price: '54100', size: '0.1' });
  // At 54200: 600 − 580 = 20 ≤ MM* 5420 × 0.0046 = 24.932. Tier 1: closed whole at the
  // bankruptcy price 60000 − 600 ÷ 0.1 = 54000 or better; the bid at 54100 takes it.
  await index('54200');
  assert.deepEqual(await positions(longer.client), []);
  // PnL 5410 − 6000 = −590, fee 5410 × 0.0006 = 3.246: 600 − 593.246 = 6.754 of margin is
  // left, and goes to the fund; the trader's 9396.4 stays.
  assert.equal(await available(longer.client), '9396.4');
  assert.equal(fundUsdt(server), parseMoney('6.754'));
  const [liquidation] = await history(longer.client);
  assert.deepEqual(pick(liquidation, ['orderSource', 'tradeSide', 'side', 'posSide', 'status', 'priceAvg']), {
    orderSource: 'liquidation',
    tradeSide: 'burst_close_long',
    side: 'buy',
    posSide: 'long',
    status: 'filled',
    priceAvg: '54100',
  });
  const [fill] = await fills(longer.client);
  assert.deepEqual(pick(fill, ['tradeSide', 'price', 'profit']), {
    tradeSide: 'burst_close_long',
    price: '54100',
    profit: '-590',
  });
  const types = (await bills(longer.client)).map((bill) => [bill.businessType, bill.amount]);
  assert.deepEqual(types.slice(0, 2), [
    ['force_close_long', '-6.754'],
    ['force_close_long', '-590'],
  ]);
  const [entry] = await closed(longer.client);
  // Net: −590 − 3.6 − 3.246 = −596.846.
  assert.deepEqual(pick(entry, ['holdSide', 'openAvgPrice', 'closeAvgPrice', 'pnl', 'netProfit']), {
    holdSide: 'long',
    openAvgPrice: '60000',
    closeAvgPrice: '54100',
    pnl: '-590',
    netProfit: '-596.846',
  });
  conserved(server);
});
