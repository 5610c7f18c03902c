/**
 * The v2 margin routes over real HTTP: bad input is refused with the venue's codes and changes
 * nothing; limits, ownership between the crossed and isolated wallets, account mode and
 * permissions.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { conservationImbalances } from '../../../src/engine/invariants.ts';
import {
  availableOf,
  data,
  harness,
  mainAccount,
  refusal,
  type Harness,
  type Rows,
} from './broker-helpers.ts';

const CROSSED = '/api/v2/margin/crossed';
const ISOLATED = '/api/v2/margin/isolated';

async function priced(h: Harness): Promise<void> {
  for (const category of ['SPOT', 'MARGIN'])
    await h.operator.setPrice({ category, symbol: 'BTCUSDT', indexPrice: '60000' });
}

test('margin borrow when the input is bad or over the limit is refused and borrows nothing', async (t) => {
  const h = await harness(t);
  await priced(h);
  const trader = await mainAccount(h, { funds: [['crossed_margin', 'USDT', '100']] });
  const borrow = (body: Record<string, unknown>, path = CROSSED) =>
    trader.client.post(`${path}/account/borrow`, { body });
  assert.deepEqual(refusal(await borrow({ borrowAmount: '1' })), ['40019', 'Parameter coin cannot be empty']);
  assert.equal(refusal(await borrow({ coin: 'USDT', borrowAmount: 'abc' }))[0], '40020');
  assert.equal(refusal(await borrow({ coin: 'USDT', borrowAmount: '-1' }))[0], '40020');
  // Equity 100 × (3 − 1) = 200 USDT at most.
  const most = data<Record<string, string>>(
    await trader.client.get(`${CROSSED}/account/max-borrowable-amount`, { query: { coin: 'USDT' } }),
  );
  assert.equal(most.maxBorrowableAmount, '200');
  assert.deepEqual(refusal(await borrow({ coin: 'USDT', borrowAmount: '200.00000001' })), [
    '40020',
    'Parameter borrowAmount error',
  ]);
  assert.equal(refusal(await borrow({ coin: '__proto__', borrowAmount: '1' }))[0], '40034');
  assert.equal(refusal(await borrow({ coin: 'USDT', borrowAmount: '1' }, ISOLATED))[0], '40019');
  assert.equal(
    refusal(await borrow({ symbol: 'NOPEUSDT', coin: 'USDT', borrowAmount: '1' }, ISOLATED))[0],
    '40034',
  );
  // An isolated wallet holds only its symbol's coins.
  assert.deepEqual(refusal(await borrow({ symbol: 'BTCUSDT', coin: 'ETH', borrowAmount: '1' }, ISOLATED)), [
    '40020',
    'Parameter coin error',
  ]);
  const repay = await trader.client.post(`${CROSSED}/account/repay`, {
    body: { coin: 'USDT', repayAmount: '1' },
  });
  assert.deepEqual(refusal(repay), ['40020', 'Parameter USDT error']);
  assert.deepEqual(await availableOf(h.operator, trader.uid), { 'crossed_margin:USDT': '100' });
  const assets = data<Rows>(await trader.client.get(`${CROSSED}/account/assets`));
  assert.deepEqual(
    assets.map((row) => [row.coin, row.totalAmount, row.borrow, row.interest, row.net]),
    [['USDT', '100', '0', '0', '100']],
  );
  assert.deepEqual(conservationImbalances(h.server.services.sequencer.exchange.state), []);
});

test('margin orders when refused, or cancelled from the other wallet, change nothing', async (t) => {
  const h = await harness(t);
  await priced(h);
  const trader = await mainAccount(h, { funds: [['crossed_margin', 'USDT', '1000']] });
  const order = {
    symbol: 'BTCUSDT',
    side: 'buy',
    orderType: 'limit',
    force: 'gtc',
    price: '59000',
    baseSize: '0.01',
  };
  const place = (body: Record<string, unknown>, path = CROSSED) =>
    trader.client.post(`${path}/place-order`, { body });
  assert.deepEqual(refusal(await place(order)), ['40019', 'Parameter loanType cannot be empty']);
  assert.equal(refusal(await place({ ...order, loanType: 'sometimes' }))[0], '40020');
  assert.deepEqual(refusal(await place({ ...order, loanType: 'normal', quoteSize: '590' })), [
    '40020',
    'Parameter quoteSize error',
  ]);
  // The isolated wallet is empty and a normal order may not borrow.
  assert.equal(refusal(await place({ ...order, loanType: 'normal' }, ISOLATED))[0], '43012');
  const placed = data<{ orderId: string }>(await place({ ...order, loanType: 'normal' }));
  // The crossed order is not the isolated wallet's: not found there, still open.
  const wrong = await trader.client.post(`${ISOLATED}/cancel-order`, {
    body: { symbol: 'BTCUSDT', orderId: placed.orderId },
  });
  assert.equal(refusal(wrong)[0], '43001');
  const since = String(Date.now() - 60_000);
  const open = data<{ orderList: Rows }>(
    await trader.client.get(`${CROSSED}/open-orders`, { query: { symbol: 'BTCUSDT', startTime: since } }),
  );
  assert.deepEqual(
    open.orderList.map((row) => [row.orderId, row.loanType, row.baseSize, row.quoteSize, row.status]),
    [[placed.orderId, 'normal', '0.01', '590', 'live']],
  );
  const isolatedOpen = data<{ orderList: Rows }>(
    await trader.client.get(`${ISOLATED}/open-orders`, { query: { symbol: 'BTCUSDT', startTime: since } }),
  );
  assert.deepEqual(isolatedOpen.orderList, []);
  const cancelled = data<{ successList: Rows; failureList: Rows }>(
    await trader.client.post(`${CROSSED}/batch-cancel-order`, {
      body: { symbol: 'BTCUSDT', orderIdList: [{ orderId: placed.orderId }, { orderId: '123' }] },
    }),
  );
  assert.deepEqual(
    cancelled.successList.map((row) => row.orderId),
    [placed.orderId],
  );
  assert.deepEqual(
    cancelled.failureList.map((row) => [row.orderId, row.errorCode]),
    [['123', '43001']],
  );
  assert.deepEqual(await availableOf(h.operator, trader.uid), { 'crossed_margin:USDT': '1000' });
});

test('margin routes when the account is unified (modes enforced) or the key lacks margin permission are refused', async (t) => {
  const h = await harness(t, { BOURSE_ENFORCE_ACCOUNT_MODE: 'true' });
  const { uid } = await h.operator.createAccount({ mode: 'unified' });
  const key = await h.operator.createApiKey(uid);
  const { SigningClient } = await import('../../support/signing.ts');
  const unified = new SigningClient(h.server.url, key);
  assert.equal(refusal(await unified.get(`${CROSSED}/account/assets`))[0], '40085');
  const reader = await mainAccount(h, { permissions: ['read'] });
  assert.equal(
    refusal(
      await reader.client.post(`${CROSSED}/account/borrow`, { body: { coin: 'USDT', borrowAmount: '1' } }),
    )[0],
    '40014',
  );
  // Reading needs only read.
  assert.deepEqual(data<Rows>(await reader.client.get(`${CROSSED}/account/assets`)), []);
});
