/**
 * The `bitget-api` SDK, unmodified, against a server at its defaults (simulated price feed
 * and liquidity provider on): a key allowed only `spot_trade` cannot place, cancel, modify,
 * read or list the futures orders of its own account, however the request is shaped
 * (docs/security.md). Each refusal is 25620 and changes nothing.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { RestClientV3 } from 'bitget-api';
import { OperatorClient } from '../support/operator.ts';
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from '../support/server.ts';

let server: TestServer;

before(async () => {
  server = await startTestServer({ env: { BOURSE_FEED: '*=sim', BOURSE_LIQUIDITY: 'on' } });
});

after(() => server.close());

async function sdkCode(call: () => Promise<unknown>): Promise<string> {
  try {
    const answer = (await call()) as { code: string };
    return answer.code;
  } catch (error) {
    return String((error as { body?: { code?: string } }).body?.code ?? error);
  }
}

test('RestClientV3 with a spot_trade key when acting on futures orders is refused with 25620', async () => {
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const { uid } = await operator.createAccount({ mode: 'unified' });
  await operator.deposit(uid, { coin: 'USDT', amount: '100000' });
  const client = async (permissions?: string[]) => {
    const key = await operator.createApiKey(uid, permissions ? { permissions } : {});
    return new RestClientV3({
      apiKey: key.apiKey,
      apiSecret: key.secretKey,
      apiPass: key.passphrase,
      baseUrl: server.url,
    });
  };
  const full = await client();
  const spot = await client(['spot_trade']);
  const [ticker] = (await full.getTickers({ category: 'USDT-FUTURES', symbol: 'BTCUSDT' } as never)).data;
  const price = (Math.floor(Number(ticker?.lastPrice) * 0.95 * 10) / 10).toFixed(1);
  const futuresBuy = {
    category: 'USDT-FUTURES',
    symbol: 'BTCUSDT',
    side: 'buy',
    orderType: 'limit',
    qty: '0.01',
    price,
  } as const;
  const placed = await full.submitNewOrder({ ...futuresBuy, clientOid: 'futures-1' } as never);
  const { orderId } = placed.data;

  const smuggled = () => spot.placeBatchOrders([{ category: 'SPOT' } as never, futuresBuy as never]);
  assert.equal(await sdkCode(smuggled), '25620');
  assert.equal(await sdkCode(() => spot.cancelOrder({ orderId } as never)), '25620');
  assert.equal(await sdkCode(() => spot.modifyOrder({ orderId, price: '1000.0' } as never)), '25620');
  assert.equal(await sdkCode(() => spot.getOrderInfo({ orderId })), '25620');
  const batch = await spot.cancelBatchOrders([{ orderId } as never]);
  assert.equal((batch.data[0] as { code?: string }).code, '25620');
  const listed = await spot.getUnfilledOrders({});
  assert.deepEqual(listed.data.list, []);

  const open = await full.getUnfilledOrders({ category: 'USDT-FUTURES' });
  assert.deepEqual(
    open.data.list.map((order) => [order.orderId, Number(order.price)]),
    [[orderId, Number(price)]],
  );
});
