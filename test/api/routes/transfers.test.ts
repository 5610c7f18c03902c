/**
 * Wallet transfers over real HTTP: v2 spot wallet transfer in every account-type spelling,
 * bills on both sides (spot transfer-in/out, futures trans_from/to_exchange), transfer
 * records, clientOid idempotency, the margin-debt rule, v3 transfer and `uta`, permissions.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { conservationImbalances } from '../../../src/engine/invariants.ts';
import { availableOf, data, harness, mainAccount, refusal, type Rows } from './broker-helpers.ts';

const TRANSFER = '/api/v2/spot/wallet/transfer';

test('spot wallet transfer when moving USDT to futures and back writes bills on both sides', async (t) => {
  const h = await harness(t);
  const trader = await mainAccount(h, { funds: [['spot', 'USDT', '1000']] });
  // ccxt sends the amount as a JSON number and the older type spelling.
  const first = data<{ transferId: string; clientOid: string }>(
    await trader.client.post(TRANSFER, {
      body: { fromType: 'spot', toType: 'usdt_m_futures', amount: 250.5, coin: 'usdt', clientOid: 'x1' },
    }),
  );
  assert.match(first.transferId, /^\d{18}$/);
  assert.equal(first.clientOid, 'x1');
  data(
    await trader.client.post(TRANSFER, {
      body: { fromType: 'USDT-FUTURES', toType: 'spot', amount: '50.25', coin: 'USDT' },
    }),
  );
  // 1000 − 250.5 + 50.25 = 799.75 in spot; 250.5 − 50.25 = 200.25 in the futures wallet.
  assert.deepEqual(await availableOf(h.operator, trader.uid), {
    'spot:USDT': '799.75',
    'usdt_futures:USDT': '200.25',
  });
  const spotBills = data<Rows>(
    await trader.client.get('/api/v2/spot/account/bills', { query: { groupType: 'transfer' } }),
  );
  assert.deepEqual(
    spotBills.map((bill) => [bill.groupType, bill.businessType, bill.size, bill.balance]),
    [
      ['transfer', 'transfer-in', '50.25', '799.75'],
      ['transfer', 'transfer-out', '-250.5', '749.5'],
    ],
  );
  const futuresBills = data<{ bills: Rows }>(
    await trader.client.get('/api/v2/mix/account/bill', { query: { productType: 'USDT-FUTURES' } }),
  );
  assert.deepEqual(
    futuresBills.bills.map((bill) => [bill.businessType, bill.amount, bill.balance]),
    [
      ['trans_to_exchange', '-50.25', '200.25'],
      ['trans_from_exchange', '250.5', '250.5'],
    ],
  );
  const records = data<Rows>(
    await trader.client.get('/api/v2/spot/account/transferRecords', {
      query: { coin: 'USDT', fromType: 'spot' },
    }),
  );
  assert.equal(records.length, 1);
  assert.deepEqual(records[0], {
    coin: 'USDT',
    status: 'Successful',
    toType: 'usdt_futures',
    toSymbol: '',
    fromType: 'spot',
    fromSymbol: '',
    size: '250.5',
    ts: records[0]?.ts,
    clientOid: 'x1',
    transferId: first.transferId,
  });
  const back = data<Rows>(
    await trader.client.get('/api/v2/spot/account/transferRecords', {
      query: { coin: 'USDT', fromType: 'usdt-futures' },
    }),
  );
  assert.deepEqual(
    back.map((row) => [row.fromType, row.toType, row.size]),
    [['usdt_futures', 'spot', '50.25']],
  );
  assert.deepEqual(conservationImbalances(h.server.services.sequencer.exchange.state), []);
});

test('spot wallet transfer when the clientOid repeats returns the first transfer and moves once', async (t) => {
  const h = await harness(t);
  const trader = await mainAccount(h, { funds: [['spot', 'USDT', '100']] });
  const body = { fromType: 'spot', toType: 'cross_margin', amount: '10', coin: 'USDT', clientOid: 'same' };
  const first = data<{ transferId: string }>(await trader.client.post(TRANSFER, { body }));
  const again = data<{ transferId: string }>(await trader.client.post(TRANSFER, { body }));
  assert.equal(again.transferId, first.transferId);
  assert.deepEqual(await availableOf(h.operator, trader.uid), {
    'spot:USDT': '90',
    'crossed_margin:USDT': '10',
  });
  const other = await trader.client.post(TRANSFER, { body: { ...body, amount: '11' } });
  assert.deepEqual(refusal(other), ['43118', 'clientOrderId duplicate']);
});

test('spot wallet transfer when the request is wrong answers the venue codes and moves nothing', async (t) => {
  const h = await harness(t);
  const trader = await mainAccount(h, {
    funds: [
      ['spot', 'USDT', '100'],
      ['spot', 'BTC', '1'],
    ],
  });
  const send = (body: Record<string, unknown>) => trader.client.post(TRANSFER, { body });
  const base = { fromType: 'spot', toType: 'usdt_futures', amount: '1', coin: 'USDT' };
  assert.deepEqual(refusal(await send({ ...base, amount: '1000' })), ['43012', 'Insufficient balance']);
  assert.deepEqual(refusal(await send({ ...base, coin: 'BTC' })), ['40020', 'Parameter coin error']);
  assert.deepEqual(refusal(await send({ ...base, coin: 'DOGE' })), [
    '40034',
    'Parameter DOGE does not exist',
  ]);
  assert.deepEqual(refusal(await send({ ...base, toType: 'p2p' })), ['40020', 'Parameter toType error']);
  assert.deepEqual(refusal(await send({ ...base, fromType: 'constructor' })), [
    '40020',
    'Parameter fromType error',
  ]);
  assert.deepEqual(refusal(await send({ ...base, toType: '__proto__' })), [
    '40020',
    'Parameter toType error',
  ]);
  assert.deepEqual(refusal(await send({ ...base, toType: 'spot' })), ['40020', 'Parameter toType error']);
  assert.deepEqual(refusal(await send({ ...base, toType: 'uta' })), ['40020', 'Parameter toType error']);
  assert.deepEqual(refusal(await send({ ...base, amount: '-1' })), ['40020', 'Parameter amount error']);
  assert.deepEqual(refusal(await send({ ...base, amount: '0.000000001' })), [
    '40020',
    'Parameter amount error',
  ]);
  assert.deepEqual(refusal(await send({ ...base, amount: undefined })), [
    '40019',
    'Parameter amount cannot be empty',
  ]);
  assert.deepEqual(refusal(await send({ ...base, toType: 'isolated_margin' })), [
    '40019',
    'Parameter symbol cannot be empty',
  ]);
  assert.deepEqual(refusal(await send({ ...base, toType: 'isolated_margin', symbol: 'DOGEUSDT' })), [
    '40020',
    'Parameter symbol error',
  ]);
  assert.deepEqual(
    refusal(await send({ ...base, toType: 'isolated_margin', symbol: 'ETHUSDT', coin: 'BTC' })),
    ['40020', 'Parameter coin error'],
  );
  assert.deepEqual(await availableOf(h.operator, trader.uid), { 'spot:BTC': '1', 'spot:USDT': '100' });
  data(await send({ ...base, toType: 'isolated_margin', symbol: 'btcusdt', coin: 'BTC', amount: '0.5' }));
  assert.deepEqual(await availableOf(h.operator, trader.uid), {
    'spot:BTC': '0.5',
    'spot:USDT': '100',
    'isolated_margin:BTCUSDT:BTC': '0.5',
  });
  const isolated = data<Rows>(
    await trader.client.get('/api/v2/spot/account/transferRecords', {
      query: { coin: 'BTC', fromType: 'spot' },
    }),
  );
  assert.deepEqual(
    isolated.map((row) => [row.toType, row.toSymbol]),
    [['isolated_margin', 'BTCUSDT']],
  );
});

test('spot wallet transfer when an account type is a prototype name answers 40020 and moves nothing', async (t) => {
  const h = await harness(t, { BOURSE_FEED: '*=sim', BOURSE_LIQUIDITY: 'on' });
  const trader = await mainAccount(h, { funds: [['spot', 'USDT', '100']] });
  const base = { fromType: 'spot', toType: 'usdt_futures', amount: '1', coin: 'USDT' };
  for (const name of ['__proto__', 'constructor', 'toString', 'valueOf', 'prototype', '__PROTO__']) {
    for (const field of ['fromType', 'toType'] as const) {
      const response = await trader.client.post(TRANSFER, { body: { ...base, [field]: name } });
      assert.deepEqual(refusal(response), ['40020', `Parameter ${field} error`], `${field}=${name}`);
      assert.equal(response.status, 400);
    }
    const v3 = await trader.client.post('/api/v3/account/transfer', {
      body: { fromType: name, toType: 'spot', amount: '1', coin: 'USDT' },
    });
    assert.deepEqual(refusal(v3), ['40020', 'Parameter fromType error'], `v3 fromType=${name}`);
  }
  assert.deepEqual(await availableOf(h.operator, trader.uid), { 'spot:USDT': '100' });
});

test('spot wallet transfer when the margin wallet has debt refuses what would reach the warning ratio', async (t) => {
  const h = await harness(t);
  const seller = await mainAccount(h, { funds: [['crossed_margin', 'BTC', '1']] });
  const buyer = await mainAccount(h, { funds: [['crossed_margin', 'USDT', '1000']] });
  const order = (client: typeof seller.client, side: string) =>
    client.post('/api/v3/trade/place-order', {
      body: { category: 'MARGIN', symbol: 'BTCUSDT', side, orderType: 'limit', qty: '0.03', price: '60000' },
    });
  data(await order(seller.client, 'sell'));
  data(await order(buyer.client, 'buy'));
  // The buyer borrowed 800 USDT (plus 0.0042093 interest for the first hour) and holds
  // 0.02997 BTC (0.03 less the 0.1 % fee) = 1798.2 USDT. Risk = liabilities × 0.1 ÷ net:
  // taking 0.015 BTC (900 USDT) out leaves net 98.1957907 → 80.00042093 ÷ 98.1957907 ≈ 0.815,
  // at or over the 0.8 warning ratio; 0.014 BTC (840 USDT) leaves net 158.1957907 → ≈ 0.506.
  const out = (amount: string) =>
    buyer.client.post(TRANSFER, {
      body: { fromType: 'crossed_margin', toType: 'spot', amount, coin: 'BTC' },
    });
  assert.deepEqual(refusal(await out('0.015')), [
    '43117',
    'Exceeds the maximum amount that can be transferred',
  ]);
  data(await out('0.014'));
  assert.deepEqual(await availableOf(h.operator, buyer.uid), {
    'crossed_margin:USDT': '0',
    'crossed_margin:BTC': '0.01597',
    'spot:BTC': '0.014',
  });
  assert.deepEqual(conservationImbalances(h.server.services.sequencer.exchange.state), []);
});

test('v3 account transfer when the account is classic refuses uta and moves between classic wallets', async (t) => {
  const h = await harness(t);
  const trader = await mainAccount(h, { funds: [['spot', 'USDC', '20']] });
  const transfer = (body: Record<string, unknown>) =>
    trader.client.post('/api/v3/account/transfer', { body });
  assert.deepEqual(refusal(await transfer({ fromType: 'spot', toType: 'uta', coin: 'USDC', amount: 0.1 })), [
    '40020',
    'Parameter toType error',
  ]);
  const moved = data<{ transferId: string }>(
    await transfer({ fromType: 'spot', toType: 'usdc-futures', coin: 'USDC', amount: '5' }),
  );
  assert.match(moved.transferId, /^\d{18}$/);
  assert.deepEqual(
    refusal(await transfer({ fromType: 'spot', toType: 'usdc_futures', coin: 'USDC', amount: '50' })),
    ['25202', 'Insufficient balance'],
  );
  assert.deepEqual(await availableOf(h.operator, trader.uid), {
    'spot:USDC': '15',
    'usdc_futures:USDC': '5',
  });
});

test('v3 account transfer when the account is unified and asks uta to uta or a classic wallet refuses it', async (t) => {
  const h = await harness(t);
  const { uid } = await h.operator.createAccount({ mode: 'unified' });
  await h.operator.deposit(uid, { coin: 'USDT', amount: '10' });
  const key = await h.operator.createApiKey(uid);
  const { SigningClient } = await import('../../support/signing.ts');
  const client = new SigningClient(h.server.url, key);
  const answer = await client.post('/api/v3/account/transfer', {
    body: { fromType: 'uta', toType: 'uta', coin: 'USDT', amount: '1' },
  });
  assert.deepEqual(refusal(answer), ['40020', 'Parameter toType error']);
  const futures = await client.post('/api/v3/account/transfer', {
    body: { fromType: 'usdt_futures', toType: 'uta', coin: 'USDT', amount: '1' },
  });
  assert.deepEqual(refusal(futures), ['40020', 'Parameter fromType error']);
  // `spot` is the unified account's funding wallet (docs/wallet.md), empty here.
  const spot = await client.post('/api/v3/account/transfer', {
    body: { fromType: 'spot', toType: 'uta', coin: 'USDT', amount: '1' },
  });
  assert.deepEqual(refusal(spot), ['25202', 'Insufficient balance']);
});

test('spot wallet transfer when the key lacks the transfer permission answers 40014', async (t) => {
  const h = await harness(t);
  const trader = await mainAccount(h, { permissions: ['spot_trade'], funds: [['spot', 'USDT', '10']] });
  const answer = await trader.client.post(TRANSFER, {
    body: { fromType: 'spot', toType: 'usdt_futures', amount: '1', coin: 'USDT' },
  });
  assert.deepEqual(refusal(answer), ['40014', 'Incorrect permissions, need read and write permissions']);
  const records = await trader.client.get('/api/v2/spot/account/transferRecords', {
    query: { coin: 'USDT', fromType: 'spot' },
  });
  assert.deepEqual(refusal(records), ['40014', 'Incorrect permissions, need read permissions']);
});

test('transfer records when paged with idLessThan and limit list each transfer once', async (t) => {
  const h = await harness(t);
  const trader = await mainAccount(h, { funds: [['spot', 'USDT', '100']] });
  for (let index = 1; index <= 5; index += 1) {
    data(
      await trader.client.post(TRANSFER, {
        body: { fromType: 'spot', toType: 'crossed_margin', amount: String(index), coin: 'USDT' },
      }),
    );
  }
  const seen: string[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 5; page += 1) {
    const rows = data<Rows>(
      await trader.client.get('/api/v2/spot/account/transferRecords', {
        query: { coin: 'USDT', fromType: 'spot', limit: '2', ...(cursor ? { idLessThan: cursor } : {}) },
      }),
    );
    if (rows.length === 0) break;
    seen.push(...rows.map((row) => row.size ?? ''));
    cursor = rows.at(-1)?.transferId;
  }
  assert.deepEqual(seen, ['5', '4', '3', '2', '1']);
});
