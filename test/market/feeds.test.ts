/**
 * Price feeds: configuration, the seeded walk's reproducibility, replay parsing, and the
 * driver on a simulated clock (prices move only when the clock does, all BTC instruments
 * together, and an operator price is taken up).
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { feedGroups, parseFeedConfig } from '../../src/market/feed-config.ts';
import { RandomWalk } from '../../src/market/random-walk.ts';
import { parseReplay, priceAtElapsed } from '../../src/market/replay.ts';
import { defaultCatalogue } from '../../src/engine/instruments/catalogue.ts';
import { publicGet } from '../support/http.ts';
import { OperatorClient } from '../support/operator.ts';
import {
  makeTempDir,
  removeDir,
  serverFor,
  TEST_OPERATOR_TOKEN,
  type TestServer,
} from '../support/server.ts';

test('parseFeedConfig when rules name sources and options returns them', () => {
  assert.deepEqual(parseFeedConfig('off'), []);
  assert.deepEqual(parseFeedConfig('*=sim'), [
    { target: '*', source: { kind: 'sim', volatility: 1, seed: 1, intervalMs: 1000 } },
  ]);
  const rules = parseFeedConfig(
    'btc=sim:volatility=0.5,seed=7,interval=250;SPOT:ETHUSDT=replay:file=a.csv,speed=60,loop=false;*=operator',
  );
  assert.deepEqual(rules[0], {
    target: 'BTC',
    source: { kind: 'sim', volatility: 0.5, seed: 7, intervalMs: 250 },
  });
  assert.deepEqual(rules[1], {
    target: 'SPOT:ETHUSDT',
    source: { kind: 'replay', file: 'a.csv', speed: 60, loop: false },
  });
  assert.deepEqual(rules[2], { target: '*', source: { kind: 'operator' } });
});

test('parseFeedConfig when a rule is malformed names BOURSE_FEED', () => {
  for (const text of ['BTC', 'BTC=walk', 'BTC=sim:volatility=-1', 'BTC=sim:speed=2', 'BTC=replay']) {
    assert.throws(() => parseFeedConfig(text), /BOURSE_FEED/, text);
  }
});

test('feedGroups when rules overlap picks the most specific and groups by base coin', () => {
  const rules = parseFeedConfig('*=sim;ETH=sim:seed=2;SPOT:BTCUSDT=operator');
  const groups = feedGroups(rules, defaultCatalogue());
  const ids = groups.map((group) => group.id).sort();
  assert.deepEqual(ids, ['BTC', 'ETH', 'SBTC', 'SETH']);
  const btc = groups.find((group) => group.id === 'BTC');
  assert.ok(btc);
  assert.ok(!btc.instruments.some((i) => i.category === 'SPOT' && i.symbol === 'BTCUSDT'));
  assert.ok(btc.instruments.some((i) => i.category === 'MARGIN' && i.symbol === 'BTCUSDT'));
  assert.ok(btc.instruments.some((i) => i.symbol === 'BTCPERP'));
});

test('RandomWalk when polled in one jump or step by step lands on the same price', () => {
  const walk = new RandomWalk(42, 'BTC', 1.5, 1000);
  const jump = walk.advance(60000, 100, 160);
  let stepped = 60000;
  for (let step = 100; step < 160; step += 1) stepped = walk.advance(stepped, step, step + 1);
  assert.ok(Math.abs(jump - stepped) < 1e-6, `${jump} vs ${stepped}`);
  assert.equal(new RandomWalk(42, 'BTC', 1.5, 1000).advance(60000, 100, 160), jump);
  assert.notEqual(new RandomWalk(43, 'BTC', 1.5, 1000).advance(60000, 100, 160), jump);
  assert.notEqual(jump, 60000);
});

test('RandomWalk when volatility is 1 moves about 1/sqrt(steps per year) per step', () => {
  const walk = new RandomWalk(9, 'X', 1, 1000);
  let sum = 0;
  const steps = 20_000;
  for (let step = 0; step < steps; step += 1) sum += Math.log(walk.advance(100, step, step + 1) / 100) ** 2;
  const perStep = Math.sqrt(sum / steps);
  const expected = 1 / Math.sqrt(365 * 24 * 3600);
  assert.ok(Math.abs(perStep / expected - 1) < 0.05, `${perStep} vs ${expected}`);
});

test('parseReplay when given candles plays open, extremes and close across each interval', () => {
  const t0 = 1_700_000_000_000;
  const points = parseReplay(
    `ts,open,high,low,close\n${t0},100,110,95,105\n${t0 + 60000},105,106,90,92\n`,
    'csv',
  );
  assert.deepEqual(
    points.map((point) => [point.timeMs - t0, point.price]),
    [
      [0, 100],
      [15000, 95],
      [30000, 110],
      [45000, 105],
      [60000, 105],
      [75000, 106],
      [90000, 90],
      [105000, 92],
    ],
  );
  assert.equal(priceAtElapsed(points, 16_000, false), 95);
  assert.equal(priceAtElapsed(points, 1_000_000, false), 92);
  assert.equal(priceAtElapsed(points, 105_001 + 16_000, true), 95);
});

test('parseReplay when given JSON Lines trades in seconds reads them in ms', () => {
  const points = parseReplay('{"ts":1700000000,"price":"30000.5"}\n["1700000001000","30001"]\n', 'jsonl');
  assert.deepEqual(points, [
    { timeMs: 1_700_000_000_000, price: 30000.5 },
    { timeMs: 1_700_000_001_000, price: 30001 },
  ]);
  assert.throws(() => parseReplay('{"ts":1,"nope":2}\n', 'jsonl'), /line 1/);
});

test('price feed when the simulated clock advances moves every BTC instrument to one reproducible price', async (t) => {
  // A pinned start: the walk's steps are on the clock's grid, so both runs must start alike.
  const env = {
    BOURSE_CLOCK: 'simulated',
    BOURSE_CLOCK_START: '1793491200000',
    BOURSE_FEED: 'BTC=sim:seed=7,volatility=2;*=operator',
  };
  const runs: string[][] = [];
  for (let run = 0; run < 2; run += 1) {
    const server = await serverFor(t, { env });
    const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
    const state = server.services.sequencer.exchange.state;
    await server.market.feeds.poll();
    assert.equal(state.indexPrices.get('SPOT:BTCUSDT'), '60000');
    const seen: string[] = [];
    for (let step = 0; step < 3; step += 1) {
      await operator.call('POST', '/admin/v1/clock/advance', { ms: '10000' });
      await server.market.feeds.poll();
      const spot = state.indexPrices.get('SPOT:BTCUSDT') ?? '';
      assert.notEqual(spot, '60000');
      assert.equal(state.indexPrices.get('MARGIN:BTCUSDT'), spot);
      // One walk, printed at each instrument's precision (futures: 1 decimal, spot: 2).
      // Half a futures tick (0.1) at most; a float comparison needs a hair of slack.
      assert.ok(Math.abs(Number(state.indexPrices.get('USDT-FUTURES:BTCUSDT')) - Number(spot)) <= 0.0500001);
      assert.equal(state.indexPrices.get('SPOT:ETHUSDT'), '3000');
      seen.push(spot);
    }
    runs.push(seen);
    await server.close();
  }
  assert.deepEqual(runs[0], runs[1]);
});

test('price feed when the operator sets a price walks on from it', async (t) => {
  const server = await serverFor(t, { env: { BOURSE_CLOCK: 'simulated', BOURSE_FEED: 'BTC=sim:seed=3' } });
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const state = server.services.sequencer.exchange.state;
  await server.market.feeds.poll();
  await operator.call('PUT', '/admin/v1/prices', {
    category: 'SPOT',
    symbol: 'BTCUSDT',
    indexPrice: '50000',
  });
  await operator.call('POST', '/admin/v1/clock/advance', { ms: '1000' });
  await server.market.feeds.poll();
  const moved = Number(state.indexPrices.get('SPOT:BTCUSDT'));
  assert.ok(Math.abs(moved - 50000) < 500, String(moved));
  assert.equal(Number(state.indexPrices.get('MARGIN:BTCUSDT')), moved);
});

test('price feed when replaying a candle file at 60x follows the file on the simulated clock', async (t) => {
  const dir = makeTempDir('bourse-replay-');
  t.after(() => removeDir(dir));
  const file = join(dir, 'btc.csv');
  writeFileSync(
    file,
    'ts,open,high,low,close\n1700000000000,61000,62000,60500,61500\n1700000060000,61500,61600,61400,61450\n',
  );
  const server = await serverFor(t, {
    env: { BOURSE_CLOCK: 'simulated', BOURSE_FEED: `BTCUSDT=replay:file=${file},speed=60,loop=false` },
  });
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  const state = server.services.sequencer.exchange.state;
  await server.market.feeds.poll();
  assert.equal(state.indexPrices.get('SPOT:BTCUSDT'), '61000.00');
  assert.equal(state.indexPrices.get('USDT-FUTURES:BTCUSDT'), '61000.0');
  assert.equal(state.indexPrices.get('USDC-FUTURES:BTCPERP'), '60000');
  // 250 ms of clock at 60x = 15 s of file: the candle's low.
  await operator.call('POST', '/admin/v1/clock/advance', { ms: '250' });
  await server.market.feeds.poll();
  assert.equal(state.indexPrices.get('SPOT:BTCUSDT'), '60500.00');
  await operator.call('POST', '/admin/v1/clock/advance', { ms: '60000' });
  await server.market.feeds.poll();
  assert.equal(state.indexPrices.get('SPOT:BTCUSDT'), '61450.00');
});

/** Every instrument of the BTC stream, by key, with its index price. */
function btcIndexes(server: TestServer) {
  const prices = server.services.sequencer.exchange.state.indexPrices;
  return [...prices].filter(([key]) => /:BTC/.test(key)).map(([key, value]) => [key, Number(value)] as const);
}

for (const clock of ['real', 'simulated'] as const) {
  test(`price feed when the operator sets a futures index on the ${clock} clock keeps it and moves the stream there`, async (t) => {
    const server = await serverFor(t, { env: { BOURSE_CLOCK: clock, BOURSE_FEED: '*=sim' } });
    const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
    await server.market.feeds.poll();
    await operator.setPrice({ category: 'USDT-FUTURES', symbol: 'BTCUSDT', indexPrice: '50000' });
    for (let round = 0; round < 4; round += 1) {
      if (clock === 'simulated') await operator.advanceClock(1_000);
      else await new Promise((resolve) => setTimeout(resolve, 300));
      await server.market.feeds.poll();
    }
    const indexes = btcIndexes(server);
    assert.ok(indexes.length >= 6, JSON.stringify(indexes));
    for (const [key, price] of indexes) assert.ok(Math.abs(price / 50000 - 1) < 0.01, `${key} ${price}`);
  });
}

test('clock advance when a feed runs walks its path: minute candles drawn from it, no gap', async (t) => {
  const server = await serverFor(t, {
    env: { BOURSE_CLOCK: 'simulated', BOURSE_CLOCK_START: '1793491200000', BOURSE_FEED: '*=sim' },
  });
  const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
  await server.market.feeds.poll();
  await operator.advanceClock(3_600_000);
  const response = await publicGet<string[][]>(
    server.url,
    '/api/v2/mix/market/candles',
    'symbol=BTCUSDT&productType=USDT-FUTURES&granularity=1m&kLineType=INDEX&limit=60',
  );
  const candles = response.body?.data ?? [];
  assert.equal(candles.length, 60, response.text);
  const rows = candles.map((row) => row.slice(0, 5).map(Number) as [number, number, number, number, number]);
  // Every minute moved (a one-second walk; the last holds only the step at 1:00:00), and each
  // opens within a few steps of the last close.
  const flat = rows.filter(([, , high, low]) => high === low).map(([startMs]) => startMs);
  assert.deepEqual(flat, [1793491200000 + 3_600_000]);
  for (let index = 1; index < rows.length; index += 1) {
    const [, open] = rows[index]!;
    const close = rows[index - 1]![4];
    assert.ok(Math.abs(open / close - 1) < 0.001, `minute ${index}: open ${open} after close ${close}`);
  }
  const last = rows[rows.length - 1]![4];
  const index = Number(server.services.sequencer.exchange.state.indexPrices.get('USDT-FUTURES:BTCUSDT'));
  assert.equal(index, last);
});
