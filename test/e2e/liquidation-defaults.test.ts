/**
 * A liquidation at a server on its defaults (moving prices, the liquidity provider quoting
 * every book) as the bitget-api SDK sees it: a thin crossed long opened at market against the
 * house is liquidated when the index falls 15 %; its liquidation order fills through the
 * house's bids, and the SDK reads the order (orderSource `liquidation`, a burst tradeSide), its
 * fills, the liquidation bills and the position history row.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { RestClientV2 } from 'bitget-api';
import { DEFAULT_FEED } from '../../src/market/feed-config.ts';
import { OperatorClient } from '../support/operator.ts';
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from '../support/server.ts';

type Row = Record<string, string>;
const PRODUCT = 'USDT-FUTURES';

let server: TestServer;
let operator: OperatorClient;

before(async () => {
  // Only what the test support turns off (feed, liquidity) is set back to its default.
  server = await startTestServer({ env: { BOURSE_FEED: DEFAULT_FEED, BOURSE_LIQUIDITY: 'on' } });
  operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  await server.market.liquidity.requote();
});

after(() => server.close());

test('a thin long at a default server is liquidated through the book and the SDK sees the records', async () => {
  const { uid } = await operator.createAccount();
  await operator.deposit(uid, { coin: 'USDT', amount: '400', wallet: 'usdt_futures' });
  const key = await operator.createApiKey(uid);
  const rest = new RestClientV2({
    apiKey: key.apiKey,
    apiSecret: key.secretKey,
    apiPass: key.passphrase,
    baseUrl: server.url,
  });
  // A 0.1 long at market, 20x crossed (tradeSide for hedge mode; one-way ignores it).
  await rest.futuresSubmitOrder({
    productType: PRODUCT,
    symbol: 'BTCUSDT',
    marginMode: 'crossed',
    marginCoin: 'USDT',
    side: 'buy',
    tradeSide: 'open',
    orderType: 'market',
    size: '0.1',
  } as never);
  const opened = (await rest.getFuturesPositions({ productType: PRODUCT, marginCoin: 'USDT' } as never))
    .data as unknown as Row[];
  assert.equal(opened[0]?.total, '0.1');
  const entry = Number(opened[0]?.openPriceAvg);
  // The venue's spellings: hedge burst_close_long / force_close_long, one-way burst_sell_single /
  // burst_sell (the test support may start accounts in either mode).
  const hedge = opened[0]?.posMode === 'hedge_mode';
  const [burstSide, burstBill] = hedge
    ? ['burst_close_long', 'force_close_long']
    : ['burst_sell_single', 'burst_sell'];
  // 15 % down: a loss near 0.1 × 0.15 × 60000 ≈ 900 against 400 of equity.
  await operator.setPrice({
    category: PRODUCT,
    symbol: 'BTCUSDT',
    indexPrice: String(Math.floor(entry * 0.85)),
  });
  await server.market.feeds.poll();
  await server.market.liquidity.requote();
  const left = (await rest.getFuturesPositions({ productType: PRODUCT, marginCoin: 'USDT' } as never))
    .data as unknown as Row[];
  assert.deepEqual(left, []);

  const orders = (await rest.getFuturesHistoricOrders({ productType: PRODUCT } as never)).data as unknown as {
    entrustedList: Row[];
  };
  const liquidation = orders.entrustedList.find((order) => order.orderSource === 'liquidation');
  assert.ok(liquidation, JSON.stringify(orders.entrustedList));
  assert.equal(liquidation.tradeSide, burstSide);
  assert.equal(liquidation.state ?? liquidation.status, 'filled');
  assert.equal(liquidation.baseVolume, '0.1');
  const fills = (await rest.getFuturesFills({ productType: PRODUCT } as never)).data as unknown as {
    fillList: Row[];
  };
  const burst = fills.fillList.filter((fill) => fill.orderId === liquidation.orderId);
  assert.ok(burst.length > 0);
  assert.ok(burst.every((fill) => fill.tradeSide === burstSide));
  const bills = (await rest.getFuturesAccountBills({ productType: PRODUCT } as never)).data as unknown as {
    bills: Row[];
  };
  assert.ok(bills.bills.some((bill) => bill.businessType === burstBill));
  const history = (await rest.getFuturesHistoricPositions({ productType: PRODUCT } as never))
    .data as unknown as { list: Row[] };
  assert.equal(history.list[0]?.closeTotalPos, '0.1');
});
