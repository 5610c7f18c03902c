/**
 * Liquidation as the trader sees it over HTTP (v2 mix): a partial liquidation by tier, a full
 * one filled by the book, one the insurance fund takes, and one that deleverages a named
 * counterparty; each with the orders, fills, bills and position history the venue shows.
 * Feed and liquidity provider off: the book holds only what the tests place, and with one
 * side quoted the mark is the index. BTCUSDT: taker 0.0006, maker 0.0002, tier 1 up to
 * 200,000 USDT (MMR 0.004), tier 2 up to 1,000,000 (0.005). Figures by hand.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { INSURANCE_FUND_UID } from '../../src/domain/account.ts';
import { parseMoney } from '../../src/domain/money.ts';
import { ensureInsuranceFund } from '../../src/engine/futures/insurance.ts';
import { conservationImbalances } from '../../src/engine/invariants.ts';
import { OperatorClient } from '../support/operator.ts';
import { serverFor, TEST_OPERATOR_TOKEN, type TestServer } from '../support/server.ts';
import { SigningClient } from '../support/signing.ts';
import { data, mixOrder as order, type Row } from '../support/scenario.ts';

const USDT_M = { productType: 'USDT-FUTURES' };

async function setup(t: Parameters<typeof serverFor>[0]) {
  const server = await serverFor(t, { env: { BOURSE_CLOCK: 'simulated' } });
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const trader = async (usdt: string) => {
    const { uid } = await operator.createAccount();
    await operator.deposit(uid, { coin: 'USDT', amount: usdt, wallet: 'usdt_futures' });
    return { uid, client: new SigningClient(server.url, await operator.createApiKey(uid)) };
  };
  const index = (indexPrice: string) =>
    operator.setPrice({ category: 'USDT-FUTURES', symbol: 'BTCUSDT', indexPrice });
  return { server, operator, trader, index };
}

async function place(client: SigningClient, fields: Row) {
  return data<Row>(await client.post('/api/v2/mix/order/place-order', { body: order(fields) }));
}

async function post(client: SigningClient, path: string, body: Row) {
  return data<Row>(
    await client.post(path, { body: { symbol: 'BTCUSDT', ...USDT_M, marginCoin: 'USDT', ...body } }),
  );
}

const get = async <T>(client: SigningClient, path: string, key: string) =>
  data<Record<string, T>>(await client.get(path, { query: USDT_M }))[key] as T;

const history = (client: SigningClient) =>
  get<Row[]>(client, '/api/v2/mix/order/orders-history', 'entrustedList');
const fills = (client: SigningClient) => get<Row[]>(client, '/api/v2/mix/order/fills', 'fillList');
const bills = (client: SigningClient) => get<Row[]>(client, '/api/v2/mix/account/bill', 'bills');
const closed = (client: SigningClient) => get<Row[]>(client, '/api/v2/mix/position/history-position', 'list');
const positions = async (client: SigningClient) =>
  data<Row[]>(await client.get('/api/v2/mix/position/all-position', { query: USDT_M }));

async function available(client: SigningClient): Promise<string> {
  const [row] = data<Row[]>(await client.get('/api/v2/mix/account/accounts', { query: USDT_M }));
  return String(row?.available);
}

function fundUsdt(server: TestServer): bigint {
  const state = server.services.sequencer.exchange.state;
  return state.balances.get(`${INSURANCE_FUND_UID}|usdt_futures|USDT`)?.available ?? 0n;
}

function conserved(server: TestServer) {
  assert.deepEqual(conservationImbalances(server.services.sequencer.exchange.state), []);
}

const pick = (row: Row | undefined, keys: string[]) =>
  Object.fromEntries(keys.map((key) => [key, row?.[key]]));

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
