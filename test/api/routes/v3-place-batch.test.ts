/**
 * v3 place-batch over real HTTP: an item that does not parse is answered in its place while
 * the others are placed in order; a batch naming two categories is refused whole.
 */
import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { OperatorClient } from '../../support/operator.ts';
import { data } from '../../support/scenario.ts';
import { serverFor, TEST_OPERATOR_TOKEN } from '../../support/server.ts';
import { SigningClient } from '../../support/signing.ts';

const spotBuy = (clientOid: string, price: string) => ({
  category: 'SPOT',
  symbol: 'BTCUSDT',
  side: 'buy',
  orderType: 'limit',
  qty: '0.01',
  price,
  clientOid,
});

/** A new account with 10,000 USDT in spot, and a client signing with its key. */
async function fundedTrader(t: TestContext, env: Record<string, string> = {}): Promise<SigningClient> {
  const server = await serverFor(t, { env });
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const { uid } = await operator.createAccount();
  await operator.deposit(uid, { coin: 'USDT', amount: '10000', wallet: 'spot' });
  return new SigningClient(server.url, await operator.createApiKey(uid));
}

test('v3 place-batch answers a malformed item in its place and places the rest in order', async (t) => {
  const client = await fundedTrader(t);

  const { side: _omitted, ...sideless } = spotBuy('bad', '50000');
  const answers = data<{ orderId: string | null; clientOid: string; code?: string }[]>(
    await client.post('/api/v3/trade/place-batch', {
      body: [spotBuy('first', '50000'), sideless, spotBuy('third', '50001')],
    }),
  );
  assert.deepEqual(
    answers.map((answer) => [answer.clientOid, answer.orderId === null, answer.code ?? 'placed']),
    [
      ['first', false, 'placed'],
      ['bad', true, '40019'],
      ['third', false, 'placed'],
    ],
  );
  const open = data<{ list: { clientOid: string }[] }>(
    await client.get('/api/v3/trade/unfilled-orders', { query: { category: 'SPOT' } }),
  );
  assert.deepEqual(open.list.map((order) => order.clientOid).sort(), ['first', 'third']);
});

test('v3 place-batch reads the preset, position and trigger fields of an item that carries any', async (t) => {
  const client = await fundedTrader(t);

  // Items with only the plain fields skip those reads; these carry one each, so each must be read.
  const answers = data<{ orderId: string | null; clientOid: string; code?: string; msg?: string }[]>(
    await client.post('/api/v3/trade/place-batch', {
      body: [
        spotBuy('plain', '50000'),
        { ...spotBuy('trigger-by-alone', '50000'), tpTriggerBy: 'mark' },
        { ...spotBuy('trigger', '50000'), triggerPrice: '49000' },
        { ...spotBuy('pos-side', '50000'), posSide: 'middle' },
        { ...spotBuy('limit-alone', '50000'), slLimitPrice: '48000' },
      ],
    }),
  );
  assert.deepEqual(
    answers.map((answer) => [answer.clientOid, answer.orderId === null, answer.code ?? 'placed', answer.msg]),
    [
      ['plain', false, 'placed', undefined],
      ['trigger-by-alone', true, '40019', 'Parameter takeProfit cannot be empty'],
      [
        'trigger',
        true,
        '40020',
        'Parameter triggerPrice error: a trigger order is placed alone, with place-order or place-strategy-order',
      ],
      ['pos-side', true, '40020', 'Parameter posSide error'],
      ['limit-alone', true, '40019', 'Parameter stopLoss cannot be empty'],
    ],
  );
});

test('v3 place-batch reads a category in any case, items spelling it differently naming one category', async (t) => {
  const client = await fundedTrader(t);

  const answers = data<{ orderId: string | null; clientOid: string; code?: string }[]>(
    await client.post('/api/v3/trade/place-batch', {
      body: [
        spotBuy('upper', '50000'),
        { ...spotBuy('lower', '50000'), category: 'spot' },
        { ...spotBuy('mixed', '50000'), category: 'Spot' },
      ],
    }),
  );
  assert.deepEqual(
    answers.map((answer) => [answer.clientOid, answer.orderId === null, answer.code ?? 'placed']),
    [
      ['upper', false, 'placed'],
      ['lower', false, 'placed'],
      ['mixed', false, 'placed'],
    ],
  );
});

test('v3 place-batch naming two categories is refused whole', async (t) => {
  const client = await fundedTrader(t);

  const response = await client.post('/api/v3/trade/place-batch', {
    body: [spotBuy('a', '50000'), { ...spotBuy('b', '50000'), category: 'USDT-FUTURES' }],
  });
  assert.deepEqual([response.body?.code, response.body?.msg], ['40020', 'Parameter category error']);
  const open = data<{ list: unknown[] }>(
    await client.get('/api/v3/trade/unfilled-orders', { query: { category: 'SPOT' } }),
  );
  assert.equal(open.list.length, 0, 'nothing of a refused batch is placed');
});

test('v3 place-batch when an item is not an object or its clientOid is not a string answers that item in its place', async (t) => {
  // At the server's defaults: the price feed and the liquidity provider run meanwhile.
  const client = await fundedTrader(t, { BOURSE_FEED: '*=sim', BOURSE_LIQUIDITY: 'on' });

  const answers = data<{ orderId: string | null; clientOid: string; code?: string }[]>(
    await client.post('/api/v3/trade/place-batch', {
      body: [
        spotBuy('first', '50000'),
        42,
        null,
        ['SPOT'],
        { ...spotBuy('x', '50000'), clientOid: { nested: true } },
        { ...spotBuy('y', '50000'), clientOid: ['a'] },
        spotBuy('last', '50001'),
      ],
    }),
  );
  assert.deepEqual(
    answers.map((answer) => [answer.clientOid, answer.orderId === null, answer.code ?? 'placed']),
    [
      ['first', false, 'placed'],
      ['', true, '40017'],
      ['', true, '40017'],
      ['', true, '40017'],
      ['', true, '40020'],
      ['', true, '40020'],
      ['last', false, 'placed'],
    ],
  );
  const open = data<{ list: { clientOid: string }[] }>(
    await client.get('/api/v3/trade/unfilled-orders', { query: { category: 'SPOT' } }),
  );
  assert.deepEqual(open.list.map((order) => order.clientOid).sort(), ['first', 'last']);
});

test('v3 place-batch when it has more than 20 items is refused whole with 40306', async (t) => {
  const client = await fundedTrader(t);

  const items = Array.from({ length: 21 }, (_, index) => spotBuy(`big-${index}`, '50000'));
  const response = await client.post('/api/v3/trade/place-batch', { body: items });
  assert.equal(response.body?.code, '40306', response.text);
  const open = data<{ list: unknown[] }>(
    await client.get('/api/v3/trade/unfilled-orders', { query: { category: 'SPOT' } }),
  );
  assert.equal(open.list.length, 0, 'nothing of a refused batch is placed');
});
