/**
 * A bot's day, through the unmodified `bitget-api` SDK against a server at its defaults
 * (simulated price feed and liquidity provider on, real clock) with fixed demo credentials
 * (BOURSE_DEMO_*): it trades against the liquidity provider and leaves an order resting, the
 * operator resets the venue with `bourse-admin reset --yes`, and the same SDK client, with the
 * same configuration, works at once: demo funds again, no open order, no history, and the
 * liquidity provider quoting again from a new house account.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { RestClientV2 } from 'bitget-api';
import { runCli } from '../../src/admin/cli.ts';
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from '../support/server.ts';

const FIXED = {
  apiKey: 'bg_mybotkey000000000000000000001',
  secretKey: 'my-bot-secret-that-survives-resets-0123456789',
  passphrase: 'MyBotPass2026',
};

let server: TestServer;
let v2: RestClientV2;

before(async () => {
  server = await startTestServer({
    env: {
      // The defaults, which the test helper turns off unless asked.
      BOURSE_FEED: '*=sim',
      BOURSE_LIQUIDITY: 'on',
      BOURSE_DEMO_API_KEY: FIXED.apiKey,
      BOURSE_DEMO_SECRET_KEY: FIXED.secretKey,
      BOURSE_DEMO_PASSPHRASE: FIXED.passphrase,
    },
  });
  v2 = new RestClientV2({
    apiKey: FIXED.apiKey,
    apiSecret: FIXED.secretKey,
    apiPass: FIXED.passphrase,
    baseUrl: server.url,
  });
});

after(() => server.close());

/** Waits (bounded) until the liquidity provider quotes BTCUSDT; returns the best ask. */
async function bestAsk(): Promise<number> {
  for (let attempt = 0; attempt < 400; attempt += 1) {
    const [ask] = (await v2.getSpotOrderBookDepth({ symbol: 'BTCUSDT', limit: '1' })).data.asks;
    if (ask) return Number(ask[0]);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the liquidity provider never quoted BTCUSDT');
}

async function spotBalances(): Promise<Record<string, string>> {
  const assets = (await v2.getSpotAccountAssets()).data;
  return Object.fromEntries(assets.map((asset) => [asset.coin, `${asset.available}/${asset.frozen}`]));
}

test('reset when a bot has traded gives the same SDK credentials the demo funds back and no orders', async () => {
  assert.ok((await bestAsk()) > 0);
  const market = await v2.spotSubmitOrder({
    symbol: 'BTCUSDT',
    side: 'buy',
    orderType: 'market',
    force: 'gtc',
    size: '500',
  });
  assert.equal((await v2.getSpotOrder({ orderId: market.data.orderId })).data[0]?.status, 'filled');
  await v2.spotSubmitOrder({
    symbol: 'BTCUSDT',
    side: 'buy',
    orderType: 'limit',
    force: 'gtc',
    price: '30000',
    size: '0.01',
  });
  assert.equal((await v2.getSpotOpenOrders({ symbol: 'BTCUSDT' })).data.length, 1);
  assert.notEqual((await spotBalances()).USDT, '100000/0');
  const houseBefore = server.market.liquidity.accountUid;

  let stdout = '';
  let stderr = '';
  const code = await runCli(
    ['reset', '--yes'],
    { BOURSE_URL: server.url, BOURSE_OPERATOR_TOKEN: TEST_OPERATOR_TOKEN },
    {
      stdout: (text) => (stdout += text),
      stderr: (text) => (stderr += text),
    },
  );
  assert.equal(code, 0, stderr);
  const answer = JSON.parse(stdout) as {
    demo: { apiKey: string; fixed: boolean };
    liquidityProviderUid: string;
  };
  assert.deepEqual([answer.demo.apiKey, answer.demo.fixed], [FIXED.apiKey, true]);

  assert.deepEqual(await spotBalances(), {
    BTC: '2/0',
    ETH: '20/0',
    USDC: '100000/0',
    USDT: '100000/0',
  });
  const [futures] = (await v2.getFuturesAccountAssets({ productType: 'USDT-FUTURES' })).data;
  assert.equal(futures?.available, '100000');
  assert.deepEqual((await v2.getSpotOpenOrders({ symbol: 'BTCUSDT' })).data, []);
  assert.deepEqual((await v2.getSpotHistoricOrders({ symbol: 'BTCUSDT' })).data, []);
  assert.deepEqual((await v2.getSpotFills({ symbol: 'BTCUSDT' })).data, []);

  assert.equal(
    server.market.liquidity.accountUid,
    answer.liquidityProviderUid,
    'the house account was made again',
  );
  assert.equal(houseBefore, answer.liquidityProviderUid, 'with the uid a first start gives it');
  const ask = await bestAsk();
  const again = await v2.spotSubmitOrder({
    symbol: 'BTCUSDT',
    side: 'buy',
    orderType: 'market',
    force: 'gtc',
    size: '100',
  });
  const [filled] = (await v2.getSpotOrder({ orderId: again.data.orderId })).data;
  assert.equal(filled?.status, 'filled', 'the market trades again after the reset');
  assert.ok(Math.abs(Number(filled?.priceAvg) - ask) / ask < 0.02);
});
