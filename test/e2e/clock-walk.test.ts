/**
 * A backtest day on a server at its defaults (price feed and liquidity provider on), on the
 * simulated clock: the `bitget-api` SDK places trigger orders on both sides of the price, the
 * operator advances one day, and every trigger the index path crossed has fired, including
 * the ones the path crossed and left (the day's last price alone would not reach them),
 * while the ones the path never reached still wait.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RestClientV2 } from 'bitget-api';
import { OperatorClient } from '../support/operator.ts';
import { serverFor, TEST_OPERATOR_TOKEN } from '../support/server.ts';

const DAY_MS = 86_400_000;
/** Mark and index differ by the book's premium, clamped to ±0.5 %: margin around each trigger. */
const MARK_SLACK = 0.006;
const BASE = {
  symbol: 'BTCUSDT',
  productType: 'USDT-FUTURES',
  marginMode: 'crossed',
  marginCoin: 'USDT',
} as const;

test(
  'clock advance of a day at the defaults fires every trigger the path crossed',
  { timeout: 120_000 },
  async (t) => {
    const server = await serverFor(t, {
      env: {
        BOURSE_CLOCK: 'simulated',
        BOURSE_CLOCK_START: '2026-11-02T00:00:00Z',
        BOURSE_FEED: '*=sim',
        BOURSE_LIQUIDITY: 'on',
      },
    });
    const operator = new OperatorClient(server.url, TEST_OPERATOR_TOKEN);
    const { apiKey, secretKey: apiSecret, passphrase: apiPass } = server.credentials;
    const v2 = new RestClientV2({ apiKey, apiSecret, apiPass, baseUrl: server.url });

    const plans = new Map<string, { side: 'buy' | 'sell'; triggerPrice: number }>();
    for (let percent = 1; percent <= 12; percent += 1) {
      for (const side of ['buy', 'sell'] as const) {
        const triggerPrice = 60000 * (side === 'buy' ? 1 + percent / 100 : 1 - percent / 100);
        const placed = await v2.futuresSubmitPlanOrder({
          ...BASE,
          planType: 'normal_plan',
          size: '0.001',
          side,
          orderType: 'market',
          triggerPrice: triggerPrice.toFixed(1),
          triggerType: 'mark_price',
        });
        plans.set(placed.data.orderId, { side, triggerPrice });
      }
    }

    // An hour per call: each answers well within the test client's 10-second timeout, even on
    // a loaded machine.
    for (let hour = 0; hour < 24; hour += 1) await operator.advanceClock(DAY_MS / 24);

    const candles = await v2.getFuturesCandles({
      ...BASE,
      granularity: '5m',
      kLineType: 'INDEX',
      limit: '1000',
    });
    const rows = candles.data.map((row) => row.map(Number));
    assert.ok(rows.length >= 288, `a day of 5-minute index candles, got ${rows.length}`);
    const high = Math.max(...rows.map((row) => row[2] ?? 0));
    const low = Math.min(...rows.map((row) => row[3] ?? Infinity));
    const close = rows[rows.length - 1]?.[4] ?? 0;

    const pending = await v2.getFuturesPlanOrders({ productType: 'USDT-FUTURES', planType: 'normal_plan' });
    const waiting = new Set(pending.data.entrustedList?.map((plan) => plan.orderId) ?? []);
    let firedOnTheWay = 0;
    for (const [planId, { side, triggerPrice }] of plans) {
      const reached = side === 'buy' ? high : low;
      const beyond = side === 'buy' ? triggerPrice / reached - 1 : 1 - triggerPrice / reached;
      if (beyond < -MARK_SLACK) {
        assert.ok(
          !waiting.has(planId),
          `${side} at ${triggerPrice} was crossed (extreme ${reached}) yet waits`,
        );
        const pastClose =
          side === 'buy' ? triggerPrice > close * (1 + MARK_SLACK) : triggerPrice < close * (1 - MARK_SLACK);
        if (pastClose) firedOnTheWay += 1;
      }
      if (beyond > MARK_SLACK)
        assert.ok(waiting.has(planId), `${side} at ${triggerPrice} was never reached yet fired`);
    }
    assert.ok(
      firedOnTheWay > 0,
      `some trigger crossed and left behind (high ${high}, low ${low}, close ${close})`,
    );
  },
);
