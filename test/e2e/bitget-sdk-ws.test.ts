/**
 * The `bitget-api` SDK's WebsocketClientV2 and WebsocketClientV3, unmodified, pointed at
 * bourse with `wsUrl`: they log in, subscribe, and receive for an order placed and filled
 * over REST the order events (live, partially filled, filled) and the fills, in order, with
 * the ids and figures REST reports; the books channel's checksum matches the REST depth.
 *
 * Figures: the maker sells 0.01 BTC at 60000. The taker buys 0.004 (partial: 0.006 left),
 * then 0.006 (filled). Maker fee 0.1 % of 240 USDT = 0.24 USDT (spot maker fees are charged
 * in the received coin, USDT), then 0.36 USDT; the order's total fee is 0.6.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { RestClientV2, RestClientV3, WebsocketClientV2, WebsocketClientV3 } from 'bitget-api';
import { bookChecksum } from '../../src/api/ws/checksum.ts';
import { OperatorClient } from '../support/operator.ts';
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from '../support/server.ts';

type Event = Record<string, unknown> & { arg?: Record<string, string>; data?: Record<string, unknown>[] };

const silent = { trace: () => undefined, info: () => undefined, error: () => undefined };

let server: TestServer;
let operator: OperatorClient;
const sockets: { closeAll(force?: boolean): void }[] = [];

before(async () => {
  server = await startTestServer();
  operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
});

after(async () => {
  for (const socket of sockets) socket.closeAll(true);
  await server.close();
});

async function account(mode: 'classic' | 'unified', funds: [string, string][]) {
  const { uid } = await operator.createAccount({ mode });
  for (const [coin, amount] of funds) await operator.deposit(uid, { coin, amount });
  const key = await operator.createApiKey(uid);
  const rest = { apiKey: key.apiKey, apiSecret: key.secretKey, apiPass: key.passphrase };
  return {
    uid,
    key,
    rest,
    v2: new RestClientV2({ ...rest, baseUrl: server.url }),
    v3: new RestClientV3({ ...rest, baseUrl: server.url }),
  };
}

/** Records an SDK client's updates and responses; `waitFor` polls them with a deadline. */
function recorder(client: WebsocketClientV2 | WebsocketClientV3) {
  const updates: Event[] = [];
  const responses: Event[] = [];
  client.on('update', (event: Event) => updates.push(event));
  client.on('response', (event: Event) => responses.push(event));
  client.on('exception', (event: Event) => responses.push(event));
  sockets.push(client);
  const waitFor = async <T>(find: () => T | undefined, what: string, timeoutMs = 4000): Promise<T> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = find();
      if (found !== undefined) return found;
      if (Date.now() > deadline)
        throw new Error(
          `timed out waiting for ${what}: ${JSON.stringify({ updates, responses }).slice(-2000)}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  };
  const rows = (channel: string) =>
    updates
      .filter((event) => event.arg?.channel === channel || event.arg?.topic === channel)
      .flatMap((event) => event.data ?? []);
  return { updates, responses, waitFor, rows };
}

function wsUrl(path: string): string {
  return `${server.url.replace(/^http/, 'ws')}${path}`;
}

test('WebsocketClientV2 sees a REST order live, partially filled and filled, with its fills and a matching book checksum', async () => {
  const maker = await account('classic', [['BTC', '1']]);
  const taker = await account('classic', [['USDT', '100000']]);
  const privateWs = new WebsocketClientV2({ ...maker.rest, wsUrl: wsUrl('/v2/ws/private') }, silent);
  const publicWs = new WebsocketClientV2({ wsUrl: wsUrl('/v2/ws/public') }, silent);
  const mine = recorder(privateWs);
  const market = recorder(publicWs);
  privateWs.subscribeTopic('SPOT', 'orders');
  privateWs.subscribeTopic('SPOT', 'fill' as never);
  privateWs.subscribeTopic('SPOT', 'account');
  publicWs.subscribeTopic('SPOT', 'books', 'BTCUSDT');
  publicWs.subscribeTopic('SPOT', 'trade', 'BTCUSDT');
  await mine.waitFor(() => mine.responses.find((r) => r.event === 'login'), 'login');
  await mine.waitFor(
    () => (mine.responses.filter((r) => r.event === 'subscribe').length >= 3 ? true : undefined),
    'acks',
  );
  await market.waitFor(() => market.rows('books')[0], 'books snapshot');
  await mine.waitFor(() => mine.rows('account').find((row) => row.coin === 'BTC'), 'account snapshot');

  const placed = await maker.v2.spotSubmitOrder({
    symbol: 'BTCUSDT',
    side: 'sell',
    orderType: 'limit',
    force: 'gtc',
    price: '60000',
    size: '0.01',
    clientOid: 'ws-v2-maker',
  });
  const orderId = placed.data.orderId;
  await maker.v2.spotSubmitOrder({
    symbol: 'BTCUSDT',
    side: 'sell',
    orderType: 'limit',
    force: 'gtc',
    price: '60010',
    size: '0.02',
  });
  await taker.v2.spotSubmitOrder({
    symbol: 'BTCUSDT',
    side: 'buy',
    orderType: 'limit',
    force: 'gtc',
    price: '59990',
    size: '0.003',
  });
  await taker.v2.spotSubmitOrder({
    symbol: 'BTCUSDT',
    side: 'buy',
    orderType: 'limit',
    force: 'ioc',
    price: '60000',
    size: '0.004',
  });
  await taker.v2.spotSubmitOrder({
    symbol: 'BTCUSDT',
    side: 'buy',
    orderType: 'limit',
    force: 'ioc',
    price: '60000',
    size: '0.006',
  });

  const ours = () => mine.rows('orders').filter((row) => row.orderId === orderId);
  await mine.waitFor(
    () => (ours().some((row) => row.status === 'filled') ? true : undefined),
    'filled order',
  );
  assert.deepEqual(
    ours().map((row) => [row.status, row.accBaseVolume]),
    [
      ['live', '0'],
      ['partially_filled', '0.004'],
      ['filled', '0.01'],
    ],
  );
  assert.equal(ours()[0]?.clientOid, 'ws-v2-maker');
  const [rest] = (await maker.v2.getSpotOrder({ orderId })).data;
  const last = ours().at(-1) as Record<string, unknown>;
  assert.equal(last.status, rest?.status);
  assert.equal(last.accBaseVolume, rest?.baseVolume);
  assert.equal(last.priceAvg, rest?.priceAvg);

  const fills = await mine.waitFor(() => {
    const rows = mine.rows('fill').filter((row) => row.orderId === orderId);
    return rows.length === 2 ? rows : undefined;
  }, 'two fills');
  const restFills = (await maker.v2.getSpotFills({ symbol: 'BTCUSDT', orderId })).data;
  assert.deepEqual(
    fills.map((row) => [row.tradeId, row.size, row.priceAvg]),
    [...restFills].reverse().map((fill) => [fill.tradeId, fill.size, fill.priceAvg]),
  );
  assert.deepEqual(
    fills.map((row) => row.size),
    ['0.004', '0.006'],
  );
  // The order row of a fill carries that fill (the venue's fillPrice/tradeId/baseVolume).
  assert.equal(ours()[1]?.tradeId, fills[0]?.tradeId);
  assert.equal(ours()[1]?.baseVolume, '0.004');

  // The account channel followed the BTC balance: 1 − 0.01 sold.
  await mine.waitFor(
    () =>
      mine
        .rows('account')
        .find((row) => row.coin === 'BTC' && row.available === '0.97' && row.frozen === '0.02'),
    'BTC balance after fills',
  );

  // Book checksum from the REST depth (top 25 each side) equals the last pushed checksum.
  const depth = (await maker.v2.getSpotOrderBookDepth({ symbol: 'BTCUSDT', limit: '150' })).data;
  await market.waitFor(() => {
    const books = market.rows('books');
    const latest = books.at(-1);
    return latest &&
      latest.checksum === bookChecksum(depth.bids.slice(0, 25) as never, depth.asks.slice(0, 25) as never)
      ? true
      : undefined;
  }, 'books checksum equal to REST depth');
  assert.deepEqual(depth.asks, [['60010', '0.02']]);
  assert.deepEqual(depth.bids, [['59990', '0.003']]);
  const trades = await market.waitFor(
    () => (market.rows('trade').length >= 2 ? market.rows('trade') : undefined),
    'trades',
  );
  assert.deepEqual(
    trades.map((row) => [row.price, row.size, row.side]),
    [
      ['60000', '0.004', 'buy'],
      ['60000', '0.006', 'buy'],
    ],
  );
});

test('WebsocketClientV3 sees a UTA order and its fill with REST figures', async () => {
  const maker = await account('unified', [['USDT', '100000']]);
  const taker = await account('unified', [['ETH', '1']]);
  const client = new WebsocketClientV3({ ...maker.rest, wsUrl: wsUrl('/v3/ws/private') }, silent);
  const mine = recorder(client);
  client.subscribe(
    [
      { topic: 'order', payload: { instType: 'UTA' } },
      { topic: 'fill', payload: { instType: 'UTA' } },
      { topic: 'account', payload: { instType: 'UTA' } },
    ] as never,
    'v3Private',
  );
  await mine.waitFor(
    () => (mine.responses.filter((r) => r.event === 'subscribe').length >= 3 ? true : undefined),
    'acks',
  );
  const placed = await maker.v3.submitNewOrder({
    category: 'SPOT',
    symbol: 'ETHUSDT',
    side: 'buy',
    orderType: 'limit',
    qty: '0.5',
    price: '3000',
    clientOid: 'ws-v3-maker',
  } as never);
  const orderId = placed.data.orderId;
  const sold = await taker.v3.submitNewOrder({
    category: 'SPOT',
    symbol: 'ETHUSDT',
    side: 'sell',
    orderType: 'limit',
    price: '3000',
    qty: '0.5',
  } as never);
  assert.equal(sold.code, '00000');
  const rows = () => mine.rows('order').filter((row) => row.orderId === orderId);
  await mine.waitFor(
    () => (rows().some((row) => row.orderStatus === 'filled') ? true : undefined),
    'filled v3 order',
  );
  assert.deepEqual(
    rows().map((row) => row.orderStatus),
    ['live', 'filled'],
  );
  const info = (await maker.v3.getOrderInfo({ orderId } as never)).data as unknown as Record<string, unknown>;
  const last = rows().at(-1) as Record<string, unknown>;
  for (const field of [
    'orderId',
    'clientOid',
    'qty',
    'cumExecQty',
    'cumExecValue',
    'avgPrice',
    'orderStatus',
  ])
    assert.equal(last[field], info[field], field);
  const fill = await mine.waitFor(() => mine.rows('fill').find((row) => row.orderId === orderId), 'v3 fill');
  assert.equal(fill.execQty, '0.5');
  assert.equal(fill.execPrice, '3000');
  await mine.waitFor(() => mine.rows('account')[0], 'account push');
});
