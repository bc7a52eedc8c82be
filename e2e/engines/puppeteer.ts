// Chromium and Gecko through puppeteer-core, which downloads nothing: one page and one session
// class for both (./chromium.ts and ./firefox.ts launch them), since Puppeteer gives the two the
// same API, over the DevTools protocol and over WebDriver BiDi.
import type { Browser, BrowserContext, ElementHandle, Page } from 'puppeteer-core';
import { appStarted } from '../support/app-started';
import { findControl, type ControlQuery } from './controls';
import {
  CONTROL_TIMEOUT_MS,
  HYDRATION_TIMEOUT_MS,
  pollUntil,
  savePng,
  WAIT_TIMEOUT_MS,
  type EnginePage,
  type EngineSession,
} from './engine';

type PuppeteerEngine = 'chromium' | 'firefox';

/**
 * Runs in the page: brings `node` to the middle of the screen and answers where a press at its
 * middle lands, once its box has held still from one frame to the next and the node (or a part
 * of it) is what the page shows there; null while it still moves or something covers it.
 */
async function pressPoint(node: Element): Promise<{ x: number; y: number } | null> {
  node.scrollIntoView({ block: 'center', behavior: 'instant' });
  const box = () => node.getBoundingClientRect();
  const before = box();
  // A frame, or a tenth of a second where the page draws none.
  await new Promise<void>((done) => {
    requestAnimationFrame(() => done());
    setTimeout(done, 100);
  });
  const after = box();
  const moved =
    before.x !== after.x ||
    before.y !== after.y ||
    before.width !== after.width ||
    before.height !== after.height;
  if (moved || after.width === 0 || after.height === 0) return null;
  const x = after.left + after.width / 2;
  const y = after.top + after.height / 2;
  const shown = document.elementFromPoint(x, y);
  return shown !== null && node.contains(shown) ? { x, y } : null;
}

class PuppeteerPage implements EnginePage {
  private readonly seen: string[] = [];

  constructor(
    readonly engine: PuppeteerEngine,
    private readonly context: BrowserContext,
    private page: Page,
    private readonly baseUrl: string,
    private readonly onClose: () => Promise<void>,
  ) {
    this.listen(page);
  }

  private listen(page: Page) {
    page.on('console', (message) => {
      if (message.type() === 'error') this.seen.push(`console error: ${message.text()}`);
    });
    page.on('pageerror', (error) => {
      this.seen.push(`page error: ${error instanceof Error ? error.message : String(error)}`);
    });
  }

  async navigate(path: string) {
    const url = new URL(path, this.baseUrl).href;
    await this.page.evaluate((href: string) => window.location.assign(href), url);
  }

  async reload() {
    await this.page.reload({ waitUntil: 'load' });
  }

  async back() {
    await this.page.evaluate(() => window.history.back());
  }

  async openHidden(path: string) {
    const front = this.page;
    const hidden = await this.context.newPage({ background: true });
    const viewport = front.viewport();
    if (viewport) await hidden.setViewport(viewport);
    this.listen(hidden);
    this.page = hidden;
    await front.bringToFront();
    await hidden.goto(new URL(path, this.baseUrl).href, { waitUntil: 'load' });
  }

  async show() {
    await this.page.bringToFront();
  }

  watch() {
    return Promise.resolve();
  }

  async goto(path: string, { hydrated = true } = {}) {
    await this.page.goto(new URL(path, this.baseUrl).href, { waitUntil: 'load' });
    if (hydrated) await this.waitFor('hydration', appStarted, [], HYDRATION_TIMEOUT_MS);
  }

  evaluate<A extends unknown[], R>(fn: (...args: A) => R | Promise<R>, ...args: A) {
    return this.page.evaluate(fn as (...args: unknown[]) => R, ...args) as Promise<R>;
  }

  waitFor<A extends unknown[], R>(
    what: string,
    fn: (...args: A) => R | Promise<R>,
    args: A,
    timeoutMs = WAIT_TIMEOUT_MS,
  ) {
    return pollUntil(what, () => this.evaluate(fn, ...args), timeoutMs);
  }

  async inject(source: string) {
    await this.page.evaluate(`${source};undefined`);
  }

  private async control(query: ControlQuery): Promise<ElementHandle<Element>> {
    return pollUntil(
      `the control ${JSON.stringify(query)}`,
      async () => {
        const handle = await this.page.evaluateHandle(findControl, query);
        const element = handle.asElement() as ElementHandle<Element> | null;
        if (!element) await handle.dispose();
        return element;
      },
      CONTROL_TIMEOUT_MS,
    );
  }

  /**
   * Found, checked and clicked as one step, asked again while it fails: the page may draw the
   * control anew between the two (a status change, a reload), move it (a section drawn or grown
   * as the page settles) or draw something over it (a toast). Puppeteer's own click presses a
   * point it measured earlier with no look at what is there, so a press could land beside the
   * control and nobody would know; here nothing is sent until the point is the control's, and a
   * retry never presses twice.
   */
  async click(query: ControlQuery) {
    await pollUntil(
      `a click on ${JSON.stringify(query)}`,
      async () => {
        const element = await this.control(query);
        try {
          const point = await element.evaluate(pressPoint);
          if (!point) return null;
          await this.page.mouse.click(point.x, point.y);
        } finally {
          await element.dispose().catch(() => undefined);
        }
        return true;
      },
      CONTROL_TIMEOUT_MS,
    );
  }

  async type(query: ControlQuery, text: string, { enter = false } = {}) {
    const element = await this.control(query);
    await element.type(text);
    if (enter) await element.press('Enter');
    await element.dispose();
  }

  async resize(width: number, height: number) {
    await this.page.setViewport({ width, height });
  }

  viewportWidth() {
    return this.evaluate(() => window.innerWidth);
  }

  async screenshot(path: string) {
    await savePng(path, await this.page.screenshot({ encoding: 'base64' }));
  }

  problems() {
    return Promise.resolve([...this.seen]);
  }

  close() {
    return this.onClose();
  }
}

/**
 * A Puppeteer browser whose pages each open in a browser context of their own; `prepare` readies
 * a new context for the site before its page opens (an engine's permissions).
 */
export class PuppeteerSession implements EngineSession {
  constructor(
    readonly engine: PuppeteerEngine,
    private readonly browser: Browser,
    private readonly prepare: (context: BrowserContext, origin: string) => Promise<void> = () =>
      Promise.resolve(),
  ) {}

  async newPage(baseUrl: string): Promise<EnginePage> {
    const context = await this.browser.createBrowserContext();
    try {
      await this.prepare(context, new URL(baseUrl).origin);
      const page = await context.newPage();
      // The page in front and focused, as the one a visitor is looking at: the browser's other
      // pages (its first blank one, pages of cases before) are not.
      await page.bringToFront();
      return new PuppeteerPage(this.engine, context, page, baseUrl, () =>
        context.close().catch(() => undefined),
      );
    } catch (error) {
      await context.close().catch(() => undefined);
      throw error;
    }
  }

  async close() {
    await this.browser.close();
  }
}
