/**
 * The operator's view of an account's ledger (src/admin/ledger-routes.ts): bills of every
 * wallet after real trades placed with the bitget-api SDK, plan orders, deposit records with
 * pending ones, paging, and the refusals.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { RestClientV2 } from 'bitget-api';
import { accountWithKey, OperatorClient } from '../support/operator.ts';
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from '../support/server.ts';

interface Page<T> {
  list: T[];
  cursor: string | null;
}

interface Bill {
  billId: string;
  wallet: string;
  coin: string;
  businessType: string;
  amount: string;
  fee: string;
  balanceAfter: string;
}

let server: TestServer;
let operator: OperatorClient;
let buyer: { uid: string; v2: RestClientV2 };

function client(key: { apiKey: string; secretKey: string; passphrase: string }): RestClientV2 {
  return new RestClientV2({
    apiKey: key.apiKey,
    apiSecret: key.secretKey,
    apiPass: key.passphrase,
    baseUrl: server.url,
  });
}

async function data<T>(path: string): Promise<T> {
  const answer = await operator.call<T>('GET', path);
  assert.equal(answer.body?.code, '00000', answer.text);
  return answer.body.data;
}

before(async () => {
  server = await startTestServer();
  operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  await operator.setPrice({ category: 'SPOT', symbol: 'BTCUSDT', indexPrice: '60000' });
  await operator.setPrice({ category: 'USDT-FUTURES', symbol: 'BTCUSDT', indexPrice: '60000' });
  const seller = await accountWithKey(operator, { funds: [['BTC', '1']] });
  const bought = await accountWithKey(operator, { funds: [['USDT', '10000']] });
  buyer = { uid: bought.uid, v2: client(bought.key) };
  await client(seller.key).spotSubmitOrder({
    symbol: 'BTCUSDT',
    side: 'sell',
    orderType: 'limit',
    force: 'gtc',
    price: '60000',
    size: '0.01',
  });
  await buyer.v2.spotSubmitOrder({
    symbol: 'BTCUSDT',
    side: 'buy',
    orderType: 'market',
    force: 'gtc',
    size: '600',
  });
});

after(() => server.close());

test('GET bills lists every wallet newest first when an account traded', async () => {
  const { list, cursor } = await data<Page<Bill>>(`/admin/v1/accounts/${buyer.uid}/bills`);
  assert.equal(cursor, null);
  assert.deepEqual(list.map((bill) => `${bill.businessType} ${bill.coin}`).sort(), [
    'buy BTC',
    'buy USDT',
    'deposit USDT',
  ]);
  assert.equal(list.at(-1)?.businessType, 'deposit');
  const btc = list.find((bill) => bill.coin === 'BTC');
  assert.equal(btc?.wallet, 'spot');
  assert.ok(Number(btc?.amount) > 0 && Number(btc?.balanceAfter) > 0, JSON.stringify(btc));
  const ids = list.map((bill) => BigInt(bill.billId));
  assert.deepEqual(
    ids,
    [...ids].sort((a, b) => (a > b ? -1 : a < b ? 1 : 0)),
  );
});

test('GET bills pages by cursor when limit is smaller than the list', async () => {
  const first = await data<Page<Bill>>(`/admin/v1/accounts/${buyer.uid}/bills?limit=2`);
  assert.equal(first.list.length, 2);
  assert.ok(first.cursor);
  const second = await data<Page<Bill>>(
    `/admin/v1/accounts/${buyer.uid}/bills?limit=2&cursor=${first.cursor}`,
  );
  assert.equal(second.list.length, 1);
  assert.equal(second.cursor, null);
  assert.equal(second.list[0]?.businessType, 'deposit');
  const coin = await data<Page<Bill>>(`/admin/v1/accounts/${buyer.uid}/bills?coin=btc`);
  assert.deepEqual(
    coin.list.map((bill) => bill.coin),
    ['BTC'],
  );
});

test('GET plan-orders lists live plans when the account placed one', async () => {
  const { uid, key } = await accountWithKey(operator, { funds: [['USDT', '10000']] });
  await operator.call('POST', `/admin/v1/accounts/${uid}/deposits`, {
    coin: 'USDT',
    amount: '10000',
    wallet: 'usdt_futures',
  });
  const placed = await client(key).futuresSubmitPlanOrder({
    planType: 'normal_plan',
    symbol: 'BTCUSDT',
    productType: 'USDT-FUTURES',
    marginMode: 'crossed',
    marginCoin: 'USDT',
    size: '0.01',
    side: 'buy',
    orderType: 'market',
    triggerPrice: '61000',
    triggerType: 'mark_price',
  });
  const live = await data<Page<{ planId: string; status: string; triggerPrice: string }>>(
    `/admin/v1/accounts/${uid}/plan-orders?status=live`,
  );
  assert.deepEqual(
    live.list.map((plan) => [plan.planId, plan.status, plan.triggerPrice]),
    [[placed.data.orderId, 'live', '61000']],
  );
  const cancelled = await data<Page<unknown>>(`/admin/v1/accounts/${uid}/plan-orders?status=cancelled`);
  assert.deepEqual(cancelled.list, []);
});

test('GET funding lists pending records until they are settled', async () => {
  const { uid } = await operator.createAccount();
  const pending = await operator.call<{ id: string }>('POST', `/admin/v1/accounts/${uid}/deposits`, {
    coin: 'USDT',
    amount: '5',
    status: 'pending',
  });
  const id = pending.body?.data.id ?? '';
  const before = await data<{ id: string; status: string; type: string; amount: string }[]>(
    `/admin/v1/accounts/${uid}/funding`,
  );
  assert.deepEqual(
    before.map((record) => [record.id, record.type, record.status, record.amount]),
    [[id, 'deposit', 'pending', '5']],
  );
  await operator.call('POST', `/admin/v1/funding/${id}/settle`, { status: 'success' });
  const after = await data<{ status: string }[]>(`/admin/v1/accounts/${uid}/funding`);
  assert.equal(after[0]?.status, 'success');
});

test('GET ledger routes refuse when the account is unknown or the paging is wrong', async () => {
  for (const path of ['bills', 'plan-orders', 'funding']) {
    const answer = await operator.call('GET', `/admin/v1/accounts/9999999999/${path}`);
    assert.equal(answer.body?.code, '40034', path);
  }
  assert.equal(
    (await operator.call('GET', `/admin/v1/accounts/${buyer.uid}/bills?limit=0`)).body?.code,
    '40020',
  );
  assert.equal(
    (await operator.call('GET', `/admin/v1/accounts/${buyer.uid}/bills?cursor=abc`)).body?.code,
    '40020',
  );
  assert.equal(
    (await operator.call('GET', `/admin/v1/accounts/${buyer.uid}/plan-orders?status=nope`)).body?.code,
    '40020',
  );
  const anonymous = new OperatorClient(server.url, null);
  assert.equal((await anonymous.call('GET', `/admin/v1/accounts/${buyer.uid}/bills`)).status, 401);
});
