/**
 * The console (/console) in a real browser (Debian's chromium through playwright-core,
 * headless) against a server at its defaults (moving prices, the liquidity provider quoting):
 * a wrong token is refused; the operator signs in, creates an account, deposits and sees the
 * balance, issues a key; a bot places an order with the bitget-api SDK and the order shows in
 * the book and in the account's open orders without a reload; the operator's index price
 * moves the market so the house fills it, and the fill, the bill, the chart and the mark
 * follow. Each view is screenshotted into test-results/console/ (git-ignored; the copies in
 * docs/console/ come from here).
 *
 * One browser and one page for the whole file; every wait is bounded.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { RestClientV2 } from 'bitget-api';
import type { Browser, Page } from 'playwright-core';
import { DEFAULT_FEED } from '../../src/market/feed-config.ts';
import { ConsolePage, chromiumMissing, openBrowser, skipWithoutChromium } from '../support/console-page.ts';
import { publicGet } from '../support/http.ts';
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from '../support/server.ts';

let server: TestServer;
let browser: Browser;
let page: Page;
let view: ConsolePage;

before(async () => {
  if (chromiumMissing && !process.env.CI) return;
  server = await startTestServer({ env: { BOURSE_FEED: DEFAULT_FEED, BOURSE_LIQUIDITY: 'on' } });
  ({ browser, page } = await openBrowser());
  view = new ConsolePage(page);
});

after(async () => {
  await browser?.close();
  await server?.close();
});

const shot = (name: string) => view.shot(name);
const go = (hash: string) => view.go(hash);
const untilText = (selector: string, text: string, absent = false) => view.untilText(selector, text, absent);
const untilBelow = (selector: string, attribute: string | null, limit: number) =>
  view.untilBelow(selector, attribute, limit);
const submitAction = (formId: string, values: Record<string, string>) => view.submitAction(formId, values);

async function spotIndexPrice(): Promise<number> {
  const answer = await publicGet<{ lastPr: string }[]>(
    server.url,
    '/api/v2/spot/market/tickers',
    'symbol=BTCUSDT',
  );
  return Number(answer.body?.data[0]?.lastPr);
}

test(
  'console works end to end when driven in a browser against a default server',
  { skip: skipWithoutChromium, timeout: 300_000 },
  async () => {
    // Served with its content type, and the first paint's cost written down.
    const response = await page.goto(`${server.url}/console`);
    assert.equal(response?.status(), 200);
    assert.match(response?.headers()['content-type'] ?? '', /^text\/html/);

    // A wrong token is refused with the operator API's own code and message.
    await page.fill('input[name=token]', 'not-the-token');
    await page.click('button[type=submit]');
    await untilText('#sign-in-error', '40001');
    assert.match((await page.textContent('#sign-in-error')) ?? '', /40001 operator token missing or wrong/);
    await shot('sign-in');

    await page.fill('input[name=token]', TEST_OPERATOR_TOKEN);
    await page.click('button[type=submit]');
    await page.waitForSelector(
      '#markets-table tr[data-category="SPOT"][data-symbol="BTCUSDT"] td[data-field=last]:not(:empty)',
    );
    await page.waitForSelector(
      '#markets-table tr[data-category="USDT-FUTURES"][data-symbol="BTCUSDT"] td[data-field=mark]:not(:empty)',
    );
    const paint = await page.evaluate(`({
    firstContentfulPaintMs: performance.getEntriesByName('first-contentful-paint')[0]?.startTime,
    pageTransferBytes: performance
      .getEntriesByType('navigation')
      .concat(performance.getEntriesByType('resource').filter((entry) => entry.name.includes('/console/')))
      .reduce((sum, entry) => sum + entry.transferSize, 0),
  })`);
    console.log('console first paint', JSON.stringify(paint));
    await shot('markets');

    // Keyboard: Tab reaches the navigation, Enter follows it.
    for (let presses = 0; presses < 20; presses += 1) {
      await page.keyboard.press('Tab');
      if ((await view.activeText()) === 'Operate') break;
    }
    await page.keyboard.press('Enter');
    await page.waitForSelector('#action-account-create');

    // Operate: an account and a deposit.
    const created = await submitAction('account-create', { mode: 'classic', label: 'console-bot' });
    const uid = created.uid ?? '';
    assert.match(uid, /^\d+$/);
    await submitAction('deposit', { uid, coin: 'USDT', amount: '10000' });
    await shot('operate');

    // The account: its balance, then a key issued from its page.
    await go(`#/accounts/${uid}`);
    await untilText('#balances', '10000');
    const key = await submitAction('key-create', { label: 'console' });
    const v2 = new RestClientV2({
      apiKey: key.apiKey,
      apiSecret: key.secretKey,
      apiPass: key.passphrase,
      baseUrl: server.url,
    });

    // A bid below the house's ladder (10 levels within 0.5 % of the index), at a price of its own.
    const index = await spotIndexPrice();
    const price = `${Math.floor(index * 0.993)}.37`;
    const placed = await v2.spotSubmitOrder({
      symbol: 'BTCUSDT',
      side: 'buy',
      orderType: 'limit',
      force: 'gtc',
      price,
      size: '0.0123',
    });
    const orderId = String(placed.data.orderId);
    await untilText('#open-orders', orderId);
    await shot('account');

    await go('#/markets/SPOT/BTCUSDT');
    await untilText('#order-book', price);
    await page.waitForSelector('#candle-chart canvas');
    await page.waitForSelector('#depth-chart canvas');

    // The futures mark before the operator moves the BTC stream.
    await go('#/markets/USDT-FUTURES/BTCUSDT');
    await untilBelow('#market-head dd[data-field=mark]', null, Number.MAX_VALUE);
    const markBefore = Number(await page.textContent('#market-head dd[data-field=mark]'));

    // The operator sets the index under the bid: the stream follows, the house's asks come down
    // and trade with it.
    const lower = (Number(price) * 0.985).toFixed(2);
    await go('#/operate');
    await submitAction('price', { category: 'SPOT', symbol: 'BTCUSDT', indexPrice: lower });

    await go('#/markets/USDT-FUTURES/BTCUSDT');
    await untilBelow('#market-head dd[data-field=mark]', null, Number(price));
    const markAfter = Number(await page.textContent('#market-head dd[data-field=mark]'));
    assert.ok(markAfter < markBefore, `mark ${markBefore} -> ${markAfter}`);
    await untilBelow('#candle-chart', 'data-mark', Number(price));

    await go('#/markets/SPOT/BTCUSDT');
    await untilBelow('#candle-chart', 'data-last-close', Number(price) + 0.01);
    await page.waitForSelector('#recent-trades tbody tr');
    await shot('market');

    // The fill and its bills on the account's page, the order gone from its open orders.
    await go(`#/accounts/${uid}`);
    await untilText('#fills', orderId);
    await untilText('#open-orders', orderId, true);
    await page.locator('#bills td', { hasText: /^buy$/ }).first().waitFor();
    await shot('account-filled');

    await go('#/system');
    await untilText('[data-field=health]', 'ok');
    await untilText('[data-field=rates]', '—', true);
    await untilText('[data-field=store-growth]', '—', true);
    await shot('system');

    // A phone's width: the same market, one column.
    await page.setViewportSize({ width: 390, height: 844 });
    await go('#/markets/SPOT/BTCUSDT');
    await page.waitForSelector('#candle-chart[data-last-close] canvas');
    await page.waitForSelector('#order-book tbody tr');
    await shot('market-phone');

    // A second visit: the hashed files come from the cache, the page revalidates (304).
    await page.setViewportSize({ width: 1280, height: 860 });
    await page.reload();
    await page.waitForSelector('#candle-chart canvas');
    const again = await page.evaluate(`performance.getEntriesByName('first-contentful-paint')[0]?.startTime`);
    console.log('console first paint on a second visit', JSON.stringify({ firstContentfulPaintMs: again }));
  },
);
