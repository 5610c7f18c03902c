/**
 * Driving the console (/console) in Debian's chromium through playwright-core, for the
 * browser tests (test/e2e/console*.test.ts): the browser's path, screenshots into
 * test-results/console/ (git-ignored; docs/console/ holds copies), and bounded waits on what
 * the page shows. Without a chromium the tests are skipped, except in CI, where they fail.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SHOTS = join('test-results', 'console');
export const WAIT_MS = 30_000;
export const chromiumMissing = !existsSync(CHROMIUM);
/** The `skip` option of a browser test. */
export const skipWithoutChromium = chromiumMissing && !process.env.CI ? `no chromium at ${CHROMIUM}` : false;

export async function openBrowser(): Promise<{ browser: Browser; page: Page }> {
  if (chromiumMissing && process.env.CI) throw new Error(`no chromium at ${CHROMIUM}: .ci/run installs it`);
  mkdirSync(SHOTS, { recursive: true });
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  page.setDefaultTimeout(WAIT_MS);
  return { browser, page };
}

// What the functions below see when they run in the page (the test itself has no DOM types).
interface PageElement {
  textContent: string | null;
  getAttribute(name: string): string | null;
}
declare const document: {
  querySelector(selector: string): PageElement | null;
  activeElement: PageElement | null;
  documentElement: { scrollWidth: number; clientWidth: number };
};
declare const location: { hash: string };

/** Drives one page of the console. */
export class ConsolePage {
  constructor(readonly page: Page) {}

  /** A screenshot of the view from its top (test-results/console/NAME.png). */
  async shot(name: string): Promise<void> {
    await this.page.locator('body').evaluate((body) => body.scrollIntoView());
    await this.page.screenshot({ path: join(SHOTS, `${name}.png`) });
  }

  /** A screenshot of one element (test-results/console/NAME.png). */
  async shotOf(selector: string, name: string): Promise<void> {
    await this.page.locator(selector).screenshot({ path: join(SHOTS, `${name}.png`) });
  }

  go(hash: string): Promise<void> {
    return this.page.evaluate((target) => {
      location.hash = target;
    }, hash);
  }

  activeText(): Promise<string | null | undefined> {
    return this.page.evaluate(() => document.activeElement?.textContent);
  }

  /** Whether the page is wider than the window (a phone would scroll sideways). */
  overflowsSideways(): Promise<boolean> {
    return this.page.evaluate(
      () => document.documentElement.scrollWidth > document.documentElement.clientWidth + 1,
    );
  }

  /** Waits until the text of `selector` includes `text` (or, with `absent`, no longer does). */
  async untilText(selector: string, text: string, absent = false): Promise<void> {
    await this.page.waitForFunction(
      ([where, what, not]) => (document.querySelector(where)?.textContent ?? '').includes(what) !== not,
      [selector, text, absent] as const,
    );
  }

  /** Waits until the text of `selector` (or its `attribute`) is a number below `limit`. */
  async untilBelow(selector: string, attribute: string | null, limit: number): Promise<void> {
    await this.page.waitForFunction(
      ([where, name, below]) => {
        const element = document.querySelector(where);
        const value = name === null ? element?.textContent : element?.getAttribute(name);
        return value !== null && value !== undefined && value !== '' && Number(value) < below;
      },
      [selector, attribute, limit] as const,
    );
  }

  /** Fills and submits an operator form; the answer box's text and whether it is a success. */
  async submit(formId: string, values: Record<string, string>): Promise<{ ok: boolean; text: string }> {
    const form = this.page.locator(`#action-${formId}`);
    for (const [name, value] of Object.entries(values)) {
      const field = form.locator(`[name="${name}"]`);
      if ((await field.evaluate((element) => element.tagName)) === 'SELECT') await field.selectOption(value);
      else await field.fill(value);
    }
    const answer = form.locator('pre.answer');
    const before = (await answer.count()) > 0 ? await answer.textContent() : null;
    await form.locator('button[type=submit]').click();
    await this.page.waitForFunction(
      ([where, previous]) => {
        const box = document.querySelector(where);
        return box !== null && box.textContent !== previous;
      },
      [`#action-${formId} pre.answer`, before] as const,
    );
    const text = (await answer.textContent()) ?? '';
    return { ok: /\bok\b/.test((await answer.getAttribute('class')) ?? ''), text };
  }

  /** An operator form that must succeed: the JSON it answered. */
  async submitAction(formId: string, values: Record<string, string>): Promise<Record<string, string>> {
    const { ok, text } = await this.submit(formId, values);
    assert.ok(ok, `${formId} refused: ${text}`);
    return JSON.parse(text) as Record<string, string>;
  }
}
