/**
 * The console's market controls and risk in a real browser (Debian's chromium through
 * playwright-core, headless) against a server at its defaults (moving prices, the liquidity
 * provider quoting): the operator pauses the BTC price stream with the keyboard and its index
 * stands still while ETH's moves, resumes it by instrument, and sees a refusal's code; changes
 * the liquidity provider's ladder from its form (the house re-quotes by it) and sees a range
 * refused; credits a deposit address; a bot opens a futures position with the bitget-api SDK
 * and its account page shows the crossed risk rate; the System view shows the store's size and
 * growth. Operate and an account at a phone's width do not scroll sideways.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { RestClientV2 } from 'bitget-api';
import type { Browser } from 'playwright-core';
import { depositAddress } from '../../src/domain/funding.ts';
import { DEFAULT_FEED } from '../../src/market/feed-config.ts';
import { ConsolePage, chromiumMissing, openBrowser, skipWithoutChromium } from '../support/console-page.ts';
import { startTestServer, TEST_OPERATOR_TOKEN, type TestServer } from '../support/server.ts';

let server: TestServer;
let browser: Browser;
let view: ConsolePage;

before(async () => {
  if (chromiumMissing && !process.env.CI) return;
  server = await startTestServer({ env: { BOURSE_FEED: DEFAULT_FEED, BOURSE_LIQUIDITY: 'on' } });
  const opened = await openBrowser();
  browser = opened.browser;
  view = new ConsolePage(opened.page);
});

after(async () => {
  await browser?.close();
  await server?.close();
});

const index = (key: string) => server.services.sequencer.exchange.state.indexPrices.get(key);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

test(
  'console pauses a feed, sets the liquidity provider, shows risk and the store when driven in a browser',
  { skip: skipWithoutChromium, timeout: 300_000 },
  async () => {
    const { page } = view;
    await page.goto(`${server.url}/console#/operate`);
    await page.fill('input[name=token]', TEST_OPERATOR_TOKEN);
    await page.click('button[type=submit]');
    await page.waitForSelector('#feed-streams');

    // Keyboard: the Pause button of the BTC stream, focused and pressed with Enter.
    await page.locator('button[aria-label="Pause BTC"]').focus();
    await page.keyboard.press('Enter');
    await page.waitForSelector('button[aria-label="Resume BTC"]');
    const btc = index('SPOT:BTCUSDT');
    const eth = index('SPOT:ETHUSDT');
    // The feed polls every 250 ms and steps every second: 3 s moves ETH, never BTC.
    for (let tries = 0; tries < 20 && index('SPOT:ETHUSDT') === eth; tries += 1) await pause(250);
    await pause(1_000);
    assert.notEqual(index('SPOT:ETHUSDT'), eth);
    assert.equal(index('SPOT:BTCUSDT'), btc);
    await view.shotOf('#feeds', 'feeds');

    const refused = await view.submit('feed-instrument', {
      category: 'SPOT',
      symbol: 'NOPEUSDT',
      paused: 'resume',
    });
    assert.deepEqual(refused, { ok: false, text: '40020 Parameter symbol error' });
    await view.submitAction('feed-instrument', {
      category: 'USDT-FUTURES',
      symbol: 'BTCUSDT',
      paused: 'resume',
    });
    await page.waitForSelector('button[aria-label="Pause BTC"]');

    // The liquidity provider: 4 levels a side, then the house's SPOT BTCUSDT ladder has 8.
    const settings = await view.submitAction('liquidity-settings', { levels: '4' });
    assert.equal(settings.levels, '4');
    const houseUid = settings.uid ?? '';
    await server.market.liquidity.requote();
    const houseOrders = [...server.services.sequencer.exchange.state.orders.values()].filter(
      (order) => order.uid === houseUid && order.category === 'SPOT' && order.symbol === 'BTCUSDT',
    );
    assert.equal(houseOrders.length, 8);
    const tooWide = await view.submit('liquidity-settings', { spread: '0.5' });
    assert.deepEqual(tooWide, { ok: false, text: '40020 Parameter spread error' });
    await view.untilText('#house-balances', 'USDT');
    await view.shotOf('#liquidity', 'liquidity');

    // A deposit address: whose it is, then a chain deposit credited to it.
    const { apiKey, secretKey, passphrase, uid } = server.credentials;
    const address = depositAddress(uid, 'USDT', 'TRC20');
    assert.equal((await view.submitAction('address-get', { address })).uid, uid);
    const credited = await view.submitAction('address-deposit', { address, amount: '5', txId: '0xfeed' });
    assert.deepEqual([credited.uid, credited.amount, credited.txId], [uid, '5', '0xfeed']);

    // A bot opens a futures position; its account page shows the crossed risk rate.
    const v2 = new RestClientV2({ apiKey, apiSecret: secretKey, apiPass: passphrase, baseUrl: server.url });
    await v2.futuresSubmitOrder({
      productType: 'USDT-FUTURES',
      symbol: 'BTCUSDT',
      marginMode: 'crossed',
      marginCoin: 'USDT',
      side: 'buy',
      orderType: 'market',
      size: '0.05',
    } as never);
    await view.go(`#/accounts/${uid}`);
    await view.untilText('#risk-futures', 'usdt_futures USDT');
    const rate = await page
      .locator('#risk-futures tr', { hasText: 'usdt_futures USDT' })
      .locator('[data-ratio]')
      .getAttribute('data-ratio');
    assert.ok(Number(rate) > 0, `crossed risk rate ${rate}`);
    await view.shotOf('#risk', 'account-risk');

    // System: the store's size, then its growth once two readings are in.
    await view.go('#/system');
    await view.untilText('[data-field=store-bytes]', 'iB');
    await view.untilText('[data-field=store-growth]', '—', true);
    assert.match((await page.textContent('[data-field=store-growth]')) ?? '', /^[+−][\d.]+ (B|KiB|MiB)$/);

    // A phone's width: Operate and the account fit (their tables scroll inside their box).
    await page.setViewportSize({ width: 390, height: 844 });
    await view.go('#/operate');
    await page.waitForSelector('#feed-streams');
    assert.equal(await view.overflowsSideways(), false, 'Operate scrolls sideways on a phone');
    await view.shot('operate-phone');
    await view.go(`#/accounts/${uid}`);
    await page.waitForSelector('#risk-futures');
    assert.equal(await view.overflowsSideways(), false, 'the account scrolls sideways on a phone');
  },
);
