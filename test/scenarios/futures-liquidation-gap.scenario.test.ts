/**
 * Liquidations the book cannot absorb, over HTTP (v2 mix): a gap through the bankruptcy price
 * the insurance fund absorbs, and one the empty fund cannot cover that deleverages a named
 * counterparty; the records both sides see. Figures by hand (BTCUSDT, taker 0.0006).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { INSURANCE_FUND_UID } from '../../src/domain/account.ts';
import { parseMoney } from '../../src/domain/money.ts';
import { ensureInsuranceFund } from '../../src/engine/futures/insurance.ts';
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

test('a gap through bankruptcy with an empty book is absorbed by the insurance fund at the bankruptcy price', async (t) => {
  const { server, operator, trader, index } = await setup(t);
  const longer = await trader('400');
  const seller = await trader('100000');
  await place(seller.client, { side: 'sell', price: '60000', size: '0.1' });
  await place(longer.client, { side: 'buy', price: '60000', size: '0.1' });
  // The fund holds 1000 USDT (the operator tops it up, as a venue's fund is funded).
  const state = server.services.sequencer.exchange.state;
  ensureInsuranceFund(state, Number((await operator.getClock()).nowMs));
  await operator.deposit(INSURANCE_FUND_UID, { coin: 'USDT', amount: '1000', wallet: 'usdt_futures' });
  // 60000 → 55000 at once: equity 396.4 − 500 = −103.6. Bankruptcy 55000 + 103.6 ÷ 0.1 = 56036.
  // No bid: the fund buys the 0.1 at 56036, losing (56036 − 55000) × 0.1 = 103.6 at the mark,
  // which its 1000 covers; no ADL, the seller's profitable short stays whole.
  await index('55000');
  assert.deepEqual(await positions(longer.client), []);
  const fund = state.positions.get(`${INSURANCE_FUND_UID}|USDT-FUTURES|BTCUSDT|long`);
  assert.equal(fund?.entryValue, parseMoney('5603.6'));
  const [short] = await positions(seller.client);
  assert.equal(short?.total, '0.1');
  // The trader: PnL 5603.6 − 6000 = −396.4 takes the 396.4, the fee 5603.6 × 0.0006 = 3.36216
  // is beyond it and the fund pays it: 1000 − 3.36216 = 996.63784.
  assert.equal(await available(longer.client), '0');
  assert.equal(fundUsdt(server), parseMoney('996.63784'));
  const [liquidation] = await history(longer.client);
  assert.deepEqual(pick(liquidation, ['orderSource', 'tradeSide', 'status', 'price', 'priceAvg']), {
    orderSource: 'liquidation',
    tradeSide: 'burst_sell_single',
    status: 'filled',
    price: '56036',
    priceAvg: '56036',
  });
  const types = (await bills(longer.client)).map((bill) => [bill.businessType, bill.amount]);
  // Newest first: the close's bill, after the fund's cover that came before it.
  assert.deepEqual(types.slice(0, 2), [
    ['burst_sell', '-396.4'],
    ['risk_captital_user_transfer', '3.36216'],
  ]);
  const [entry] = await closed(longer.client);
  assert.deepEqual(pick(entry, ['closeAvgPrice', 'pnl']), { closeAvgPrice: '56036', pnl: '-396.4' });
  conserved(server);
});

test('a gap the empty fund cannot cover deleverages the top-ranked short at the bankruptcy price', async (t) => {
  const { server, trader, index } = await setup(t);
  const longer = await trader('400');
  const first = await trader('10000');
  const second = await trader('10000');
  const holder = await trader('10000');
  await post(second.client, '/api/v2/mix/account/set-leverage', { leverage: '10' });
  // Two shorts of 0.1 at 60000: `first` at 20x against the thin long, `second` at 10x against
  // a well-funded long.
  await place(first.client, { side: 'sell', price: '60000', size: '0.1' });
  await place(longer.client, { side: 'buy', price: '60000', size: '0.1' });
  await place(second.client, { side: 'sell', price: '60000', size: '0.1' });
  await place(holder.client, { side: 'buy', price: '60000', size: '0.1' });
  // At 55000 each short has uPnL 500, PnL ratio 500 ÷ 6000; score × leverage: first 1.667,
  // second 0.833. The thin long is bankrupt at 56036 (as above); the fund is empty, it would
  // lose 103.6 at the mark: ADL, and `first` is first in line.
  await index('55000');
  assert.deepEqual(await positions(longer.client), []);
  assert.deepEqual(await positions(first.client), [], 'first is deleveraged whole');
  const [untouched] = await positions(second.client);
  assert.equal(untouched?.total, '0.1');
  // first: closed at 56036 with no fee: PnL 6000 − 5603.6 = 396.4; before it 10000 − 1.2
  // maker fee = 9998.8, now 10395.2.
  assert.equal(await available(first.client), '10395.2');
  const [adlOrder] = await history(first.client);
  assert.deepEqual(pick(adlOrder, ['tradeSide', 'status', 'priceAvg', 'fee']), {
    tradeSide: 'dte_sys_adl_buy_in_single_side_mode',
    status: 'filled',
    priceAvg: '56036',
    fee: '0',
  });
  const [adlFill] = await fills(first.client);
  assert.deepEqual(pick(adlFill, ['tradeSide', 'price', 'profit', 'tradeScope']), {
    tradeSide: 'dte_sys_adl_buy_in_single_side_mode',
    price: '56036',
    profit: '396.4',
    tradeScope: 'maker',
  });
  const [adlBill] = await bills(first.client);
  assert.deepEqual(pick(adlBill, ['businessType', 'amount', 'fee']), {
    businessType: 'adl_close_short',
    amount: '396.4',
    fee: '0',
  });
  const [entry] = await closed(first.client);
  assert.deepEqual(pick(entry, ['holdSide', 'closeAvgPrice', 'pnl']), {
    holdSide: 'short',
    closeAvgPrice: '56036',
    pnl: '396.4',
  });
  // The liquidated long: −396.4 and the fee 3.36216 the fund pays; the fund holds no position.
  const [fill] = await fills(longer.client);
  assert.deepEqual(pick(fill, ['tradeSide', 'price', 'profit']), {
    tradeSide: 'burst_sell_single',
    price: '56036',
    profit: '-396.4',
  });
  assert.equal(fundUsdt(server), parseMoney('-3.36216'));
  conserved(server);
});
