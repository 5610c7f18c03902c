/**
 * A console (/console) open in headless chromium on the market the order benchmark trades
 * (SPOT BTCUSDT: candles, depth, book and trades streaming over the public WebSocket), for
 * measuring the trading path with and without one watching (BENCH_CONSOLE=on). `show` opens
 * the market view and waits for its charts; `hide` leaves the page (about:blank), so nothing
 * streams. CHROMIUM_PATH overrides /usr/bin/chromium.
 */
import { chromium, type Browser, type Page } from 'playwright-core';

export interface ConsoleViewer {
  show(): Promise<void>;
  hide(): Promise<void>;
  close(): Promise<void>;
}

export async function openConsoleViewer(baseUrl: string, operatorToken: string): Promise<ConsoleViewer> {
  const browser: Browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox'],
  });
  const page: Page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  page.setDefaultTimeout(60_000);
  await page.goto(`${baseUrl}/console`);
  await page.fill('input[name=token]', operatorToken);
  await page.click('button[type=submit]');
  await page.waitForSelector('#markets-table');
  let shown = false;
  return {
    async show() {
      if (shown) return;
      await page.goto(`${baseUrl}/console#/markets/SPOT/BTCUSDT`);
      await page.waitForSelector('#candle-chart canvas');
      await page.waitForSelector('#depth-chart canvas');
      shown = true;
    },
    async hide() {
      if (!shown) return;
      await page.goto('about:blank');
      shown = false;
    },
    close: () => browser.close(),
  };
}
