import type { Page } from '@playwright/test';
import { installCallProbe } from './support/call-probe';
import { expect, test, waitForHydration } from './support/fixtures';
import { holdRequests } from './support/held-requests';

/** The simulated room, twice as fast. */
const FAST = 0.5;
const CONNECTED = /^(Listening\.\.\.|Pepa is speaking\.\.\.)$/;

interface TapTimeline {
  domContentLoaded: number | null;
  firstPaint: number | null;
  taps: { name: string; at: number; appStarted: boolean; pressedShown: boolean }[];
  hydrated: number | null;
}

declare global {
  interface Window {
    __tapTimeline?: TapTimeline;
  }
}

/**
 * Records, in the page's clock: DOMContentLoaded, the first contentful paint, each tap (whether
 * the app had started, and whether the control showed itself pressed right after), and the
 * moment the app took over the kept taps.
 */
async function recordTimeline(page: Page) {
  await page.addInitScript(() => {
    const timeline: TapTimeline = {
      domContentLoaded: null,
      firstPaint: null,
      taps: [],
      hydrated: null,
    };
    window.__tapTimeline = timeline;
    document.addEventListener('DOMContentLoaded', () => {
      timeline.domContentLoaded = performance.now();
    });
    new PerformanceObserver((list) => {
      const paint = list.getEntriesByName('first-contentful-paint')[0];
      if (paint) timeline.firstPaint = paint.startTime;
    }).observe({ type: 'paint', buffered: true });
    addEventListener(
      'click',
      (event) => {
        // The visitor's taps, not the app's replay of them.
        const control = (event.target as Element).closest('[data-early]');
        if (!control || !event.isTrusted) return;
        const tap = {
          name: control.getAttribute('aria-label') ?? control.textContent?.trim() ?? '',
          at: performance.now(),
          appStarted: window.__pepaEarlyTaps === undefined,
          pressedShown: false,
        };
        timeline.taps.push(tap);
        // As soon as the page's own listeners have run (they stop the click from going further,
        // so this looks in the next task): the press shows before anything else happens.
        setTimeout(() => {
          tap.pressedShown = control.hasAttribute('data-pressed');
        });
      },
      true,
    );
    const watch = setInterval(() => {
      const root = document.getElementById('root');
      if (root && Object.keys(root).some((key) => key.startsWith('__reactContainer'))) {
        timeline.hydrated = performance.now();
        clearInterval(watch);
      }
    }, 5);
  });
}

/**
 * Holds the app's entry script until `release` is called: the page paints and waits, as it
 * does on a slow phone, for as long as the test needs to tap.
 */
function holdTheApp(page: Page) {
  return holdRequests(page, /\/assets\/index-[^/]+\.js$/);
}

/** A CPU four times slower, as a mid-range phone's. */
async function throttleCpu(page: Page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
}

async function firstPaint(page: Page) {
  await page.waitForFunction(() => window.__tapTimeline?.firstPaint !== null);
}

async function timeline(page: Page, title: string) {
  const recorded = await page.evaluate(() => window.__tapTimeline);
  test
    .info()
    .annotations.push({ type: 'timeline', description: `${title}: ${JSON.stringify(recorded)}` });
  return recorded;
}

test.describe('a tap before the app starts', () => {
  test.beforeEach(async ({ page }) => {
    await recordTimeline(page);
    await throttleCpu(page);
  });

  test('on Copy at DOMContentLoaded: pressed at once, copied once when the app starts', async ({
    page,
    context,
  }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.addInitScript(() => {
      const writes: string[] = [];
      (window as unknown as { __writes: string[] }).__writes = writes;
      const original = navigator.clipboard.writeText.bind(navigator.clipboard);
      navigator.clipboard.writeText = (text: string) => {
        writes.push(text);
        return original(text);
      };
    });
    const release = await holdTheApp(page);
    await page.goto('/', { waitUntil: 'domcontentloaded' });
    const copy = page.locator('#home').getByRole('button', { name: 'Copy contract address' });
    // Twice: a visitor who sees nothing happen taps again; it is still one press.
    await copy.click();
    await copy.click();
    await expect(copy).toHaveAttribute('data-pressed', '');
    release();
    await waitForHydration(page);

    await expect(page.locator('#home').getByRole('status')).toHaveText('Contract address copied');
    await expect(copy).not.toHaveAttribute('data-pressed');
    expect(
      await page.evaluate(() => (window as unknown as { __writes: string[] }).__writes),
    ).toHaveLength(1);
    const recorded = await timeline(page, 'Copy at DOMContentLoaded');
    expect(recorded?.taps.map((tap) => [tap.appStarted, tap.pressedShown])).toEqual([
      [false, true],
      [false, true],
    ]);
  });

  // The menu button is for narrow screens.
  test('on the menu button at the first paint: the menu opens once @phone-only', async ({
    page,
  }) => {
    const release = await holdTheApp(page);
    await page.goto('/', { waitUntil: 'commit' });
    await firstPaint(page);
    const menu = page.getByRole('button', { name: 'Menu' });
    await menu.click();
    release();
    await waitForHydration(page);

    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    await expect(page.locator('#mobile-menu')).toBeVisible();
    const recorded = await timeline(page, 'Menu at first paint');
    expect(recorded?.taps.map((tap) => tap.appStarted)).toEqual([false]);
  });

  test('on Start Talking at the first paint: one call starts when the app does', async ({
    page,
  }) => {
    await installCallProbe(page);
    const calls: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/calls') {
        calls.push(request.url());
      }
    });
    const release = await holdTheApp(page);
    await page.goto(`/?simScale=${FAST}`, { waitUntil: 'commit' });
    await firstPaint(page);
    const start = page.locator('#talk').getByRole('button', { name: 'Start Talking' });
    await start.click();
    await expect(start).toHaveAttribute('data-pressed', '');
    release();
    await waitForHydration(page);

    await expect(page.locator('#talk').getByRole('status')).toHaveText(CONNECTED, {
      timeout: 20_000,
    });
    expect(calls).toHaveLength(1);
    const recorded = await timeline(page, 'Start Talking at first paint');
    expect(recorded?.taps.map((tap) => tap.appStarted)).toEqual([false]);
    await page.locator('#talk').getByRole('button', { name: 'End Call' }).click();
  });

  test('is dropped when the visitor scrolled the control away before the app started', async ({
    page,
  }) => {
    const calls: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/calls') {
        calls.push(request.url());
      }
    });
    const release = await holdTheApp(page);
    await page.goto(`/?simScale=${FAST}`, { waitUntil: 'domcontentloaded' });
    const start = page.locator('#talk').getByRole('button', { name: 'Start Talking' });
    await start.click();
    await page.evaluate(() => window.scrollTo({ top: 0, behavior: 'instant' }));
    release();
    await waitForHydration(page);
    // The app has taken the taps (and dropped this one) once its effects have run.
    await expect.poll(() => page.evaluate(() => window.__pepaEarlyTaps === undefined)).toBe(true);

    await expect(start).not.toHaveAttribute('data-pressed');
    await expect(page.locator('#talk').getByRole('status')).toHaveText('Ready to chat');
    expect(calls).toEqual([]);
  });
});
