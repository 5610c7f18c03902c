/**
 * What an operator's scraper sees of a server at its defaults (simulated feed and liquidity
 * provider on) while the unmodified `bitget-api` SDK trades on it: /health and /ready answer,
 * and /metrics counts the SDK's requests by route and code, the orders and fills they made,
 * and its WebSocket connection while it is open.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { RestClientV2, WebsocketClientV2 } from 'bitget-api';
import { send } from '../support/http.ts';
import { startTestServer, type TestServer } from '../support/server.ts';

const silent = { trace: () => undefined, info: () => undefined, error: () => undefined };

let server: TestServer;
let v2: RestClientV2;

before(async () => {
  // The documented defaults for the market (startTestServer turns them off unless asked).
  server = await startTestServer({ env: { BOURSE_FEED: '*=sim', BOURSE_LIQUIDITY: 'on' } });
  const { apiKey, secretKey, passphrase } = server.credentials;
  v2 = new RestClientV2({ apiKey, apiSecret: secretKey, apiPass: passphrase, baseUrl: server.url });
  await server.market.liquidity.requote();
});

after(() => server.close());

/** Every sample of /metrics by series (name and labels as printed). */
async function scrape(): Promise<Map<string, number>> {
  const response = await send(`${server.url}/metrics`);
  assert.equal(response.status, 200);
  const samples = new Map<string, number>();
  for (const line of response.text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    samples.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return samples;
}

async function until<T>(find: () => Promise<T | undefined>, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const PLACE = 'method="POST",route="/api/v2/spot/trade/place-order"';

test('GET /health and /ready when the server runs at its defaults answer 200', async () => {
  assert.deepEqual(JSON.parse((await send(`${server.url}/health`)).text), { status: 'ok' });
  const ready = await send(`${server.url}/ready`);
  assert.equal(ready.status, 200);
  assert.deepEqual(JSON.parse(ready.text), { status: 'ready' });
});

test('GET /metrics when the SDK places orders counts its requests by route and code, and the orders and fills', async () => {
  const before = await scrape();
  const market = await v2.spotSubmitOrder({
    symbol: 'BTCUSDT',
    side: 'buy',
    orderType: 'market',
    force: 'gtc',
    size: '100',
  });
  assert.equal((await v2.getSpotOrder({ orderId: market.data.orderId })).data[0]?.status, 'filled');
  const [bestBid] = (await v2.getSpotOrderBookDepth({ symbol: 'BTCUSDT', limit: '1' })).data.bids;
  await v2.spotSubmitOrder({
    symbol: 'BTCUSDT',
    side: 'buy',
    orderType: 'limit',
    force: 'gtc',
    price: (Number(bestBid?.[0]) - 5).toFixed(2),
    size: '0.001',
  });
  const refused = await v2
    .spotSubmitOrder({ symbol: 'NOSUCHUSDT', side: 'buy', orderType: 'market', force: 'gtc', size: '1' })
    .then(
      () => null,
      (error: { body?: { code?: string } }) => error.body?.code,
    );
  assert.ok(refused, 'an order for an unknown symbol is refused');

  const after = await scrape();
  const moved = (series: string) => (after.get(series) ?? 0) - (before.get(series) ?? 0);
  assert.equal(moved(`bourse_http_requests_total{${PLACE},status="200",code="00000"}`), 2);
  const refusedSeries = [...after.keys()].find(
    (series) =>
      series.startsWith(`bourse_http_requests_total{${PLACE}`) && series.includes(`code="${refused}"`),
  );
  assert.ok(refusedSeries, `the refusal is counted under its code ${refused}`);
  assert.equal(moved(refusedSeries), 1);
  assert.equal(moved(`bourse_http_request_duration_seconds_count{${PLACE}}`), 3);
  // The liquidity provider places orders too, so the SDK's two are at least part of the rise.
  assert.ok(moved('bourse_orders_total{category="SPOT"}') >= 2, 'the orders are counted');
  assert.ok(
    moved('bourse_fills_total{category="SPOT"}') >= 2,
    'the market order filled: a fill on each side',
  );
  assert.ok(moved('bourse_trades_total{category="SPOT"}') >= 1);
  assert.ok((after.get('bourse_journal_append_duration_seconds_count') ?? 0) > 0);
  // Projections are written behind by default: the projector's lag is exposed (a number of
  // entries, small at this load; the liquidity provider keeps it moving).
  const lag = after.get('bourse_projector_lag_entries');
  assert.ok(lag !== undefined && lag >= 0 && Number.isInteger(lag), `projector lag ${lag}`);
  assert.ok((after.get('bourse_projector_lag_seconds') ?? -1) >= 0);
});

test('bourse_websocket_connections when an SDK WebSocket client connects counts it while it is open', async () => {
  const gauge = async () => (await scrape()).get('bourse_websocket_connections');
  assert.equal(await gauge(), 0);
  const socket = new WebsocketClientV2(
    { wsUrl: `${server.url.replace(/^http/, 'ws')}/v2/ws/public` },
    silent,
  );
  const updates: unknown[] = [];
  socket.on('update', (event: unknown) => updates.push(event));
  socket.subscribeTopic('SPOT', 'ticker', 'BTCUSDT');
  try {
    await until(async () => (updates.length > 0 ? true : undefined), 'a ticker push');
    assert.equal(await gauge(), 1);
  } finally {
    socket.closeAll(true);
  }
  await until(async () => ((await gauge()) === 0 ? true : undefined), 'the connection to be uncounted');
});

test('bourse_store_bytes when the SDK places orders grows with the store', async () => {
  const bytes = async () => (await scrape()).get('bourse_store_bytes') ?? 0;
  const first = await bytes();
  // SQLite pages of 4 KiB: an empty store already holds its tables and the first-start state.
  assert.ok(first >= 4096, `${first}`);
  const order = {
    symbol: 'BTCUSDT',
    side: 'buy',
    orderType: 'limit',
    price: '1000',
    size: '0.001',
    force: 'gtc',
  };
  await until(async () => {
    await v2.spotSubmitOrder(order as never);
    return (await bytes()) > first ? true : undefined;
  }, 'the store to grow');
});
