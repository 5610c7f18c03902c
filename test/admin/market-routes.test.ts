/**
 * The operator's market routes: pausing and resuming a price stream (the index stands still
 * but for operator prices, by poll and by clock walk, and goes on from where it stands), the
 * liquidity provider's settings changed at run time (the next round quotes by them; off
 * cancels its ladder) and its inventory seen after a client trades with it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RestClientV2 } from 'bitget-api';
import { runCli } from '../../src/admin/cli.ts';
import { OperatorClient } from '../support/operator.ts';
import { serverFor, TEST_OPERATOR_TOKEN } from '../support/server.ts';

interface Stream {
  feed: string;
  source: string;
  instruments: string[];
  paused: boolean;
}

async function data<T>(operator: OperatorClient, method: string, path: string, body?: unknown) {
  const answer = await operator.call<T>(method, path, body);
  assert.equal(answer.body?.code, '00000', answer.text);
  return answer.body.data;
}

async function refused(operator: OperatorClient, method: string, path: string, body: unknown) {
  const answer = await operator.call(method, path, body);
  return [answer.status, answer.body?.code, answer.body?.msg];
}

test('feeds: a paused stream stands still but for operator prices and resumes from where it stands', async (t) => {
  const server = await serverFor(t, {
    env: { BOURSE_CLOCK: 'simulated', BOURSE_FEED: '*=sim', BOURSE_SEED_DEMO: 'false' },
  });
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const index = (key: string) => Number(server.services.sequencer.exchange.state.indexPrices.get(key));

  const streams = await data<Stream[]>(operator, 'GET', '/admin/v1/feeds');
  const btc = streams.find((stream) => stream.feed === 'BTC');
  assert.ok(btc && btc.source === 'sim' && !btc.paused);
  assert.ok(btc.instruments.includes('SPOT:BTCUSDT') && btc.instruments.includes('USDT-FUTURES:BTCUSDT'));

  const paused = await data<Stream[]>(operator, 'PUT', '/admin/v1/feeds', { feed: 'btc', paused: true });
  assert.deepEqual(
    paused.filter((stream) => stream.paused).map((stream) => stream.feed),
    ['BTC'],
  );
  const btcBefore = index('SPOT:BTCUSDT');
  const ethBefore = index('SPOT:ETHUSDT');
  // Ten minutes of one-second steps: ETH walks, BTC does not, by walk or by poll.
  await operator.advanceClock(600_000);
  await server.market.feeds.poll();
  assert.equal(index('SPOT:BTCUSDT'), btcBefore);
  assert.notEqual(index('SPOT:ETHUSDT'), ethBefore);

  await operator.setPrice({ category: 'SPOT', symbol: 'BTCUSDT', indexPrice: '50000' });
  await operator.advanceClock(600_000);
  await server.market.feeds.poll();
  assert.equal(index('SPOT:BTCUSDT'), 50000);
  assert.notEqual(index('USDT-FUTURES:BTCUSDT'), 50000, 'a paused stream does not carry the price over');

  // Resumed by one of its instruments; it walks on from 50000: ten minutes at 100 %/year
  // volatility is a standard deviation of sqrt(600 / 31_536_000) ≈ 0.44 %, so within 5 %.
  const resumed = await data<Stream[]>(operator, 'PUT', '/admin/v1/feeds', {
    category: 'usdt-futures',
    symbol: 'btcusdt',
    paused: false,
  });
  assert.ok(resumed.every((stream) => !stream.paused));
  await operator.advanceClock(600_000);
  const after = index('SPOT:BTCUSDT');
  assert.notEqual(after, 50000);
  assert.ok(Math.abs(after / 50000 - 1) < 0.05, `${after}`);
  // Every instrument of the stream follows, at its own precision (0.01 spot, 0.1 futures).
  assert.ok(Math.abs(index('USDT-FUTURES:BTCUSDT') - after) < 0.1);

  const all = await data<Stream[]>(operator, 'PUT', '/admin/v1/feeds', { feed: '*', paused: true });
  assert.ok(all.length > 1 && all.every((stream) => stream.paused));

  const path = '/admin/v1/feeds';
  assert.deepEqual(await refused(operator, 'PUT', path, { feed: 'NOPE', paused: true }), [
    400,
    '40020',
    'Parameter feed error',
  ]);
  assert.deepEqual((await refused(operator, 'PUT', path, { feed: 'BTC' }))[1], '40019');
  assert.deepEqual(
    (await refused(operator, 'PUT', path, { feed: 'BTC', paused: 'yes' }))[2],
    'Parameter paused error',
  );
  assert.deepEqual((await refused(operator, 'PUT', path, { paused: true }))[2], 'Parameter feed error');
  assert.deepEqual(
    (await refused(operator, 'PUT', path, { feed: 'BTC', symbol: 'BTCUSDT', paused: true }))[2],
    'Parameter feed error',
  );
  assert.deepEqual(
    (await refused(operator, 'PUT', path, { category: 'SPOT', symbol: 'NOPEUSDT', paused: false }))[2],
    'Parameter symbol error',
  );
  assert.deepEqual(
    (await refused(operator, 'PUT', path, '{"feed":"BTC","paused":false,"__proto__":{"x":1}}'))[2],
    'Parameter __proto__ error',
  );
  // Every refusal changed nothing: all still paused.
  assert.ok((await data<Stream[]>(operator, 'GET', path)).every((stream) => stream.paused));
  assert.equal((await operator.call('GET', path.replace('feeds', 'feed'))).status, 404);
  assert.equal((await new OperatorClient(server.url, 'wrong').call('GET', path)).body?.code, '40001');
});

interface Settings {
  enabled: boolean;
  uid: string | null;
  markets: string[];
  levels: string;
  spread: string;
  step: string;
  notional: string;
  intervalMs: string;
  maxPosition: string;
  leverage: string;
}

interface OpenOrder {
  side: string;
  price: string;
  qty: string;
}

test('liquidity: settings change the next round, off cancels the ladder, the inventory shows a client trade', async (t) => {
  const server = await serverFor(t, {
    env: {
      BOURSE_LIQUIDITY: 'on',
      BOURSE_LIQUIDITY_MARKETS: 'SPOT:BTCUSDT,USDT-FUTURES:BTCUSDT',
      BOURSE_LIQUIDITY_INTERVAL: '60000',
    },
  });
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const path = '/admin/v1/liquidity';
  const first = await data<Settings>(operator, 'GET', path);
  assert.deepEqual(
    { ...first, uid: null },
    {
      enabled: true,
      uid: null,
      markets: ['SPOT:BTCUSDT', 'USDT-FUTURES:BTCUSDT'],
      levels: '10',
      spread: '0.0005',
      step: '0.0005',
      notional: '5000',
      intervalMs: '60000',
      maxPosition: '100000',
      leverage: '5',
    },
  );
  const uid = first.uid ?? '';
  assert.match(uid, /^\d+$/);
  const spotOrders = () =>
    data<{ list: OpenOrder[] }>(
      operator,
      'GET',
      `/admin/v1/accounts/${uid}/orders?status=open&category=SPOT&symbol=BTCUSDT`,
    ).then((page) => page.list);
  await server.market.liquidity.requote();
  assert.equal((await spotOrders()).length, 20);

  const changed = await data<Settings>(operator, 'PATCH', path, {
    levels: '3',
    spread: '0.004',
    step: 0.001,
    notional: '1000',
  });
  assert.deepEqual(
    [changed.levels, changed.spread, changed.step, changed.notional],
    ['3', '0.004', '0.001', '1000'],
  );
  await server.market.liquidity.requote();
  const ladder = await spotOrders();
  assert.deepEqual(ladder.map((order) => order.side).sort(), ['buy', 'buy', 'buy', 'sell', 'sell', 'sell']);
  const index = Number(server.services.sequencer.exchange.state.indexPrices.get('SPOT:BTCUSDT'));
  const bestBid = Math.max(...ladder.filter((o) => o.side === 'buy').map((o) => Number(o.price)));
  // The best bid is 0.4 % under the index, on a grid of 0.1 % steps: within one step of it.
  assert.ok(bestBid <= index * 0.996 && bestBid >= index * 0.995, `${bestBid} vs ${index}`);
  for (const order of ladder) {
    // 1000 USDT a level in whole lots of 0.000001 BTC (≈ 0.06 USDT): within a lot of 1000.
    const value = Number(order.qty) * Number(order.price);
    assert.ok(value <= 1000 && value > 999, `${order.qty} × ${order.price}`);
  }

  const off = await data<Settings>(operator, 'PATCH', path, { enabled: false });
  assert.equal(off.enabled, false);
  assert.deepEqual(await spotOrders(), []);
  await server.market.liquidity.requote();
  assert.deepEqual(await spotOrders(), []);
  await data<Settings>(operator, 'PATCH', path, { enabled: 'on' });
  await server.market.liquidity.requote();
  assert.equal((await spotOrders()).length, 6);

  // A client (the bitget-api SDK, the demo account) buys 0.01 BTC of the house's futures
  // ladder: the house is short 0.01 in its inventory.
  const { apiKey, secretKey, passphrase } = server.credentials;
  const v2 = new RestClientV2({ apiKey, apiSecret: secretKey, apiPass: passphrase, baseUrl: server.url });
  await v2.futuresSubmitOrder({
    productType: 'USDT-FUTURES',
    symbol: 'BTCUSDT',
    marginMode: 'crossed',
    marginCoin: 'USDT',
    side: 'buy',
    orderType: 'market',
    size: '0.01',
  } as never);
  const inventory = await data<{
    uid: string;
    balances: { wallet: string; coin: string; available: string }[];
    positions: { category: string; symbol: string; posSide: string; total: string }[];
  }>(operator, 'GET', `${path}/inventory`);
  assert.equal(inventory.uid, uid);
  assert.deepEqual(
    inventory.positions.map((p) => [p.category, p.symbol, p.posSide, p.total]),
    [['USDT-FUTURES', 'BTCUSDT', 'short', '0.01']],
  );
  assert.ok(inventory.balances.some((row) => row.wallet === 'spot' && row.coin === 'BTC'));
  assert.ok(inventory.balances.some((row) => row.wallet === 'usdt_futures' && row.coin === 'USDT'));

  const before = await data<Settings>(operator, 'GET', path);
  const refusals: [unknown, string][] = [
    [{ spread: '0.5' }, 'Parameter spread error'],
    // 0.0005 + 0.001 × 49 = 0.0495: past the 0.02 band.
    [{ levels: '50' }, 'Parameter spread error'],
    [{ levels: '2.5' }, 'Parameter levels error'],
    [{ leverage: 'ten' }, 'Parameter leverage error'],
    [{ intervalMs: '10' }, 'Parameter intervalMs error'],
    [{ maxPosition: '-1' }, 'Parameter maxPosition error'],
    [{ markets: ['*'] }, 'Parameter markets error'],
    [{ enabled: 'maybe' }, 'Parameter enabled error'],
    [{ levels: '4', colour: 'red' }, 'Parameter colour error'],
    ['{"levels":"4","__proto__":{"enabled":false}}', 'Parameter __proto__ error'],
  ];
  for (const [body, message] of refusals) {
    assert.deepEqual(
      await refused(operator, 'PATCH', path, body),
      [400, '40020', message],
      JSON.stringify(body),
    );
  }
  assert.deepEqual(await data<Settings>(operator, 'GET', path), before, 'a refused change changes nothing');
});

async function cli(args: string[], env: NodeJS.ProcessEnv) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, env, {
    stdout: (text) => (stdout += text),
    stderr: (text) => (stderr += text),
  });
  return { code, stderr, json: () => JSON.parse(stdout) as unknown };
}

test('bourse-admin feeds and liquidity call the market routes', async (t) => {
  const server = await serverFor(t, {
    env: { BOURSE_FEED: '*=sim', BOURSE_LIQUIDITY: 'on', BOURSE_LIQUIDITY_MARKETS: 'SPOT:BTCUSDT' },
  });
  const env = { BOURSE_URL: server.url, BOURSE_OPERATOR_TOKEN: TEST_OPERATOR_TOKEN };
  const pausedFeeds = async (args: string[]) => {
    const run = await cli(args, env);
    assert.equal(run.code, 0, run.stderr);
    return (run.json() as Stream[]).filter((stream) => stream.paused).map((stream) => stream.feed);
  };
  assert.deepEqual(await pausedFeeds(['feeds', 'pause', 'ETH']), ['ETH']);
  assert.deepEqual(await pausedFeeds(['feeds', 'pause', 'SPOT', 'BTCUSDT']), ['BTC', 'ETH']);
  assert.deepEqual(await pausedFeeds(['feeds', 'resume', '*']), []);
  assert.deepEqual(await pausedFeeds(['feeds', 'list']), []);

  const set = await cli(['liquidity', 'set', 'levels=4', 'enabled=off'], env);
  assert.equal(set.code, 0, set.stderr);
  assert.deepEqual([(set.json() as Settings).levels, (set.json() as Settings).enabled], ['4', false]);
  assert.equal(((await cli(['liquidity', 'get'], env)).json() as Settings).levels, '4');
  // Run-time state: a reset starts again from the settings (every stream running, 10 levels).
  await cli(['feeds', 'pause', '*'], env);
  assert.equal((await cli(['reset', '--yes'], env)).code, 0);
  assert.deepEqual(await pausedFeeds(['feeds', 'list']), []);
  const afterReset = (await cli(['liquidity', 'get'], env)).json() as Settings;
  assert.deepEqual([afterReset.levels, afterReset.enabled], ['10', true]);
  await cli(['liquidity', 'set', 'levels=4', 'enabled=off'], env);
  const inventory = await cli(['liquidity', 'inventory'], env);
  assert.equal(inventory.code, 0, inventory.stderr);
  assert.deepEqual((inventory.json() as { positions: unknown[] }).positions, []);
  const refused = await cli(['liquidity', 'set', 'levels=0'], env);
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /Parameter levels error/);
  assert.equal((await cli(['liquidity', 'set', 'levels'], env)).code, 2);
  assert.equal((await cli(['feeds', 'stop', 'BTC'], env)).code, 2);
});
