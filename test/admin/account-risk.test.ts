/**
 * The risk part of GET /admin/v1/accounts/{uid}: a crossed-margin wallet's risk ratio as the
 * engine's margin risk control reads it (figures by hand), and a futures wallet's crossed
 * risk rate, the same figure the account's own key reads from the venue API.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { admin, data, harness, mainAccount } from '../api/routes/broker-helpers.ts';

interface Risk {
  margin: { wallet: string; assetsUsdt: string; liabilitiesUsdt: string; riskRatio: string }[];
  futures: {
    wallet: string;
    marginCoin: string;
    accountEquity: string;
    unrealizedPL: string;
    crossedRiskRate: string;
  }[];
}

test('account risk: margin debt gives the engine risk ratio, futures the crossed risk rate', async (t) => {
  const h = await harness(t);
  const seller = await mainAccount(h, {
    funds: [
      ['crossed_margin', 'BTC', '1'],
      ['usdt_futures', 'USDT', '1000'],
    ],
  });
  const buyer = await mainAccount(h, {
    funds: [
      ['crossed_margin', 'USDT', '1000'],
      ['usdt_futures', 'USDT', '1000'],
    ],
  });
  const riskOf = async (uid: string) =>
    (await admin<{ risk: Risk }>(h.operator, 'GET', `/admin/v1/accounts/${uid}`)).risk;
  // No debt yet: ratio 0; the futures wallet holds 1000 USDT and no position.
  assert.deepEqual(await riskOf(buyer.uid), {
    margin: [{ wallet: 'crossed_margin', assetsUsdt: '1000', liabilitiesUsdt: '0', riskRatio: '0' }],
    futures: [
      {
        wallet: 'usdt_futures',
        marginCoin: 'USDT',
        accountEquity: '1000',
        unrealizedPL: '0',
        crossedRiskRate: '0',
      },
    ],
  });

  const place = (client: typeof seller.client, category: string, side: string, qty: string) =>
    client.post('/api/v3/trade/place-order', {
      body: { category, symbol: 'BTCUSDT', side, orderType: 'limit', qty, price: '60000' },
    });
  data(await place(seller.client, 'MARGIN', 'sell', '0.03'));
  data(await place(buyer.client, 'MARGIN', 'buy', '0.03'));
  data(await place(seller.client, 'USDT-FUTURES', 'sell', '0.1'));
  data(await place(buyer.client, 'USDT-FUTURES', 'buy', '0.1'));
  const risk = await riskOf(buyer.uid);
  // The buyer borrowed 800 USDT (1800 − 1000) plus 0.0042093 interest for the first hour,
  // and holds 0.02997 BTC (0.03 less the 0.1 % fee) at 60000 = 1798.2 USDT:
  // risk = 800.0042093 × 0.1 ÷ (1798.2 − 800.0042093) = 80.00042093 ÷ 998.1957907
  //      = 0.080145019… → 0.08014502 (rounded up).
  assert.deepEqual(risk.margin, [
    {
      wallet: 'crossed_margin',
      assetsUsdt: '1798.2',
      liabilitiesUsdt: '800.0042093',
      riskRatio: '0.08014502',
    },
  ]);
  // The futures figure is the venue's own: what the account's key reads.
  const accounts = data<{ marginCoin: string; crossedRiskRate: string; accountEquity: string }[]>(
    await buyer.client.get('/api/v2/mix/account/accounts', { query: { productType: 'USDT-FUTURES' } }),
  );
  const usdt = accounts.find((row) => row.marginCoin === 'USDT');
  assert.equal(risk.futures.length, 1);
  assert.ok(Number(risk.futures[0]?.crossedRiskRate) > 0);
  assert.deepEqual(
    [risk.futures[0]?.crossedRiskRate, risk.futures[0]?.accountEquity],
    [usdt?.crossedRiskRate, usdt?.accountEquity],
  );
});
