/**
 * ccxt.pro's bitget class, unmodified, on a unified account (`uta`): watchTrades reads the v3
 * `publicTrade` rows (price from `P`, time from `T`) and watchMyTrades the v3 `fill` rows (time
 * from `execTime`), for a USDT-M trade placed over REST. Figures: 0.01 BTC at 60000, the
 * taker pays 0.06 % of 600 = 0.36 USDT.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import ccxt from 'ccxt';
import { OperatorClient } from '../support/operator.ts';
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from '../support/server.ts';

let server: TestServer;
let operator: OperatorClient;
const exchanges: { close(): Promise<unknown> }[] = [];

before(async () => {
  server = await startTestServer();
  operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
});

after(async () => {
  for (const exchange of exchanges) await exchange.close();
  await server.close();
});

/** A unified account with USDT in its wallet, and ccxt.pro pointed at bourse (REST and WebSocket). */
async function proFor(usdt: string) {
  const { uid } = await operator.createAccount({ mode: 'unified' });
  await operator.deposit(uid, { coin: 'USDT', amount: usdt, wallet: 'unified' });
  const key = await operator.createApiKey(uid);
  const exchange = new ccxt.pro.bitget({
    apiKey: key.apiKey,
    secret: key.secretKey,
    password: key.passphrase,
  });
  exchange.options.uta = true;
  const urls = exchange.urls as { api: Record<string, unknown> };
  const ws = server.url.replace(/^http/, 'ws');
  urls.api = Object.fromEntries(
    Object.keys(urls.api).map((section) => [
      section,
      section === 'ws'
        ? {
            public: `${ws}/v2/ws/public`,
            private: `${ws}/v2/ws/private`,
            utaPublic: `${ws}/v3/ws/public`,
            utaPrivate: `${ws}/v3/ws/private`,
          }
        : server.url,
    ]),
  );
  exchanges.push(exchange);
  // ccxt needs this once for plain ws:// URLs (docs/clients.md).
  await exchange.loadHttpProxyAgent();
  await exchange.loadMarkets();
  return exchange;
}

type Ack = { arg?: { topic?: string } };
type Trade = Awaited<ReturnType<InstanceType<typeof ccxt.pro.bitget>['watchTrades']>>[number];

/** Polls `find` every 20 ms, at most 250 times. */
async function until<T>(find: () => T | undefined | false, what: string): Promise<T> {
  for (let attempt = 0; attempt < 250; attempt += 1) {
    const found = find();
    if (found) return found;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no ${what}`);
}

test('watchTrades and watchMyTrades when the account is unified read price and time', async () => {
  const maker = await proFor('100000');
  const taker = await proFor('10000');
  const symbol = 'BTC/USDT:USDT';
  // Subscribe (the futures resolve on the first push, possibly an empty snapshot), wait for the
  // server's acknowledgements, trade, then read what ccxt.pro parsed from its caches.
  const acked: string[] = [];
  const pro = taker as unknown as { handleSubscriptionStatus(client: unknown, message: Ack): unknown };
  const handle = pro.handleSubscriptionStatus.bind(taker);
  pro.handleSubscriptionStatus = (client, message) => {
    acked.push(String(message.arg?.topic));
    return handle(client, message);
  };
  void taker.watchTrades(symbol).catch(() => undefined);
  void taker.watchMyTrades(symbol).catch(() => undefined);
  await until(() => acked.includes('publicTrade') && acked.includes('fill'), 'subscription acks');
  await maker.createOrder(symbol, 'limit', 'sell', 0.01, 60000);
  const order = await taker.createOrder(symbol, 'limit', 'buy', 0.01, 60000);

  const cache = taker as unknown as { trades: Record<string, Trade[]>; myTrades?: Trade[] };
  const trade = await until(() => cache.trades[symbol]?.at(-1), 'a public trade');
  assert.equal(trade?.price, 60000);
  assert.equal(trade?.amount, 0.01);
  assert.equal(trade?.side, 'buy');
  assert.ok(Number.isInteger(trade?.timestamp) && (trade?.timestamp ?? 0) > 0, 'timestamp from T');

  const fill = await until(() => cache.myTrades?.at(-1), 'a fill');
  assert.equal(fill?.order, order.id);
  assert.equal(fill?.price, 60000);
  assert.equal(fill?.amount, 0.01);
  assert.equal(fill?.symbol, symbol);
  assert.equal(fill?.fee?.cost, 0.36);
  assert.ok(Number.isInteger(fill?.timestamp) && (fill?.timestamp ?? 0) > 0, 'timestamp from execTime');
});
