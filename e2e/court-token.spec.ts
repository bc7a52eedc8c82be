import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContextOptions, Page } from '@playwright/test';
import { parseSiteConfig } from '../src/config/site-config';
import { inSubsetRanges } from '../scripts/lib/font-subsets.mjs';
import { expect, test, waitForHydration } from './support/fixtures';
import { reviewShots } from './support/screenshot';

// The served site is the demo build (see playwright.config.ts): the same config it was built with.
const config = parseSiteConfig({ ...process.env, VITE_PEPA_DEMO: 'true' });
const MINT = config.tokenMint;

/** `goto` resolves once the page has hydrated (see support/fixtures.ts). */
async function openHome(page: Page) {
  await page.goto('/');
}

async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations).toEqual([]);
}

const shot = reviewShots('court', { animations: 'disabled' });

/**
 * A first visit at phone size: a fresh context has an empty cache. The context is closed after
 * `visit`, whatever it does.
 */
async function firstVisit(
  browser: Browser,
  options: BrowserContextOptions,
  visit: (page: Page) => Promise<void>,
) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, ...options });
  try {
    await visit(await context.newPage());
  } finally {
    await context.close();
  }
}

/** The font families Chromium rendered an element's text with (CSS.getPlatformFontsForNode). */
async function renderedFonts(page: Page, selector: string) {
  const cdp = await page.context().newCDPSession(page);
  try {
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    const { root } = await cdp.send('DOM.getDocument');
    const { nodeId } = await cdp.send('DOM.querySelector', { nodeId: root.nodeId, selector });
    const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
    return fonts.map((font) => font.familyName);
  } finally {
    await cdp.detach();
  }
}

/** Elements (not hidden from everyone) whose box leaves the viewport sideways. */
function elementsOutside(page: Page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const outside: string[] = [];
    for (const element of document.querySelectorAll('body *')) {
      const box = element.getBoundingClientRect();
      // Visually hidden text (1 px, clipped) and decoration hidden from assistive technology are
      // clipped by design; everything else must fit.
      if (box.width <= 1 || element.closest('[hidden], [aria-hidden="true"]')) continue;
      if (getComputedStyle(element).visibility === 'hidden') continue;
      if (box.left < -0.5 || box.right > width + 0.5) {
        outside.push(
          `${element.tagName.toLowerCase()} "${(element.textContent ?? '').trim().slice(0, 30)}" ` +
            `${Math.round(box.left)}–${Math.round(box.right)} of ${width}`,
        );
      }
    }
    return { scrollWidth: document.scrollingElement?.scrollWidth ?? Infinity, width, outside };
  });
}

test.describe("the court's token", () => {
  test('copies the contract address and announces it', async ({ page, context }, testInfo) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await openHome(page);
    const hero = page.locator('#home');
    await expect(hero.getByText('PEPA…pump')).toBeVisible();

    // The whole address on hover.
    const full = hero.getByTestId('full-address');
    await expect(full).toBeHidden();
    // Touch screens have no hover (the focus below is theirs: a tap focuses the button).
    if (testInfo.project.name !== 'phone') {
      await hero.getByText('PEPA…pump').hover();
      await expect(full).toBeVisible();
      await expect(full).toHaveText(MINT);
      await shot(page, testInfo, 'token-full-address');
      await page.mouse.move(0, 0);
      await expect(full).toBeHidden();
    }

    const copy = hero.getByRole('button', { name: 'Copy contract address' });
    // …and on the button's keyboard focus.
    await copy.focus();
    await expect(full).toBeVisible();
    await expect(full).toHaveText(MINT);
    if (testInfo.project.name === 'phone') await shot(page, testInfo, 'token-full-address');
    await copy.click();
    await expect(hero.getByRole('status')).toHaveText('Contract address copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(MINT);
    await shot(page, testInfo, 'token-copied');
    await expectNoAxeViolations(page);
    // 'Copied' goes back to 'Copy' on its own.
    await expect(copy).not.toContainText('Copied', { timeout: 5000 });
  });

  test('selects the address for the visitor when the clipboard is refused', async ({
    page,
  }, testInfo) => {
    await page.addInitScript(() => {
      Object.defineProperty(navigator, 'clipboard', {
        configurable: true,
        value: {
          writeText: () =>
            Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError')),
        },
      });
    });
    await openHome(page);
    const hero = page.locator('#home');
    await hero.getByRole('button', { name: 'Copy contract address' }).click();

    const field = hero.getByRole('textbox', { name: 'Contract address' });
    await expect(field).toBeFocused();
    await expect(field).toHaveValue(MINT);
    const selected = await field.evaluate((input: HTMLInputElement) =>
      input.value.slice(input.selectionStart ?? 0, input.selectionEnd ?? 0),
    );
    expect(selected).toBe(MINT);
    await expect(hero.getByRole('status')).toContainText('The address is selected');
    const layout = await elementsOutside(page);
    expect(layout.outside).toEqual([]);
    await shot(page, testInfo, 'token-copy-refused');
    await expectNoAxeViolations(page);
  });
});

test.describe('ways around the page', () => {
  test('a skip link is the first stop and moves focus past the navigation', async ({
    page,
  }, testInfo) => {
    await openHome(page);
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to content' });
    await expect(skip).toBeFocused();
    await expect(skip).toBeInViewport();
    await shot(page, testInfo, 'skip-link');
    await expectNoAxeViolations(page);

    await page.keyboard.press('Enter');
    await expect(page.getByRole('main')).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Join the Court NOW' })).toBeFocused();
  });

  test('Talk to Pepa is in the navigation and the footer', async ({ page }, testInfo) => {
    await openHome(page);
    const nav = page.getByRole('navigation', { name: 'Main' });
    // Phones: the shortcut beside the menu; from md up, the bar's list.
    const talk = nav.getByRole('link', { name: 'Talk to Pepa' }).filter({ visible: true });
    await expect(talk).toHaveCount(1);
    await expect(talk).toHaveAttribute('href', '#talk');
    await shot(page, testInfo, 'nav-talk');
    await talk.click();
    await expect(page).toHaveURL(/#talk$/);
    await expect(
      page.locator('#talk').getByRole('heading', { name: 'Talk to Pepa' }),
    ).toBeInViewport();

    const footerLinks = page
      .getByRole('contentinfo')
      .getByRole('navigation', { name: 'Quick Links' });
    await expect(footerLinks.getByRole('link', { name: 'Talk to Pepa' })).toHaveAttribute(
      'href',
      '#talk',
    );
    if (testInfo.project.name === 'phone') {
      await nav.getByRole('button', { name: 'Menu' }).click();
      await expect(
        page.locator('#mobile-menu').getByRole('link', { name: 'Talk to Pepa' }),
      ).toBeVisible();
    }
  });

  test('the RSVP buttons are disabled and say they are coming', async ({ page }, testInfo) => {
    await openHome(page);
    for (const event of ['Royal Fashion Show', 'Avatar Makeover Night', 'VIP Meet & Greet']) {
      const rsvp = page.getByRole('button', { name: `RSVP for ${event} (Coming Soon)` });
      await expect(rsvp).toBeDisabled();
      await expect(rsvp).toHaveText(/^RSVP\s*Coming Soon$/);
    }
    const lounge = page.locator('#lounge');
    await lounge.scrollIntoViewIfNeeded();
    await shot(lounge, testInfo, 'lounge-rsvp');
  });
});

test.describe('layout', () => {
  test('labels and headings wrap in balance: no short last line', async ({ page }) => {
    await openHome(page);
    await page.evaluate(() => document.fonts.ready);
    const orphans = await page.evaluate(() => {
      const found: string[] = [];
      const labels = document.querySelectorAll('main p.font-display, main h2, main h3');
      for (const label of labels) {
        // The top of each word's first box: words sharing a top share a line.
        const text = label.textContent ?? '';
        const lines = new Map<number, { words: string[]; left: number; right: number }>();
        const walker = document.createTreeWalker(label, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          for (const match of (node.textContent ?? '').matchAll(/\S+/g)) {
            const range = document.createRange();
            range.setStart(node, match.index);
            range.setEnd(node, match.index + match[0].length);
            const box = range.getClientRects()[0];
            if (!box) continue;
            const top = Math.round(box.top);
            const line = lines.get(top) ?? { words: [], left: box.left, right: box.right };
            line.words.push(match[0]);
            line.left = Math.min(line.left, box.left);
            line.right = Math.max(line.right, box.right);
            lines.set(top, line);
          }
        }
        const rows = [...lines.entries()].sort((a, b) => a[0] - b[0]).map(([, line]) => line);
        const last = rows.at(-1);
        const widest = Math.max(...rows.map((row) => row.right - row.left));
        // A last line under 40 % of the widest one reads as a word left behind ('QUEEN').
        if (rows.length > 1 && last && last.right - last.left < 0.4 * widest) {
          found.push(`"${text.trim()}" ends with "${last.words.join(' ')}" on a short line`);
        }
      }
      return found;
    });
    expect(orphans).toEqual([]);
  });

  // One viewport, measured once.
  test('no sideways scroll at 200 % zoom on a 320 px screen (a 160 CSS px viewport) @phone-only', async ({
    browser,
  }) => {
    // Browser zoom at 200 % on a 320 px wide window lays the page out in 160 CSS px with two
    // device pixels per CSS pixel: the same viewport, media queries included.
    const context = await browser.newContext({
      viewport: { width: 160, height: 284 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
    });
    const page = await context.newPage();
    try {
      await openHome(page);
      await page.evaluate(() => document.fonts.ready);
      let layout = await elementsOutside(page);
      expect(layout.width).toBe(160);
      expect(layout.outside).toEqual([]);
      expect(layout.scrollWidth).toBeLessThanOrEqual(160);
      // At the zoomed visitor's two device pixels per CSS pixel, unlike support/screenshot.ts.
      await page.screenshot({
        path: 'test-results/screenshots/zoom-200-home.png',
        fullPage: true,
        animations: 'disabled',
      });

      await page.getByRole('button', { name: 'Menu' }).click();
      layout = await elementsOutside(page);
      expect(layout.outside).toEqual([]);
      expect(layout.scrollWidth).toBeLessThanOrEqual(160);
      await page.screenshot({
        path: 'test-results/screenshots/zoom-200-menu.png',
        animations: 'disabled',
      });
      await expectNoAxeViolations(page);

      await page.goto('/no-such-page');
      layout = await elementsOutside(page);
      expect(layout.outside).toEqual([]);
      expect(layout.scrollWidth).toBeLessThanOrEqual(160);
    } finally {
      await context.close();
    }
  });
});

test.describe('brand fonts', () => {
  test('every character of the page is in the font subsets it ships @once', async ({ page }) => {
    await openHome(page);
    const text = await page.evaluate(() =>
      [...document.querySelectorAll('body *')]
        .map((element) =>
          [...element.childNodes]
            .filter((node) => node.nodeType === Node.TEXT_NODE)
            .map((node) => node.textContent)
            .join(''),
        )
        .join(''),
    );
    const missing = [...new Set(text.replace(/\s/g, ''))].filter(
      (char) => !inSubsetRanges(char.codePointAt(0) ?? 0),
    );
    expect(missing, 'characters to add to SUBSET_RANGES (scripts/lib/font-subsets.mjs)').toEqual(
      [],
    );
  });

  test('a first visit installs the display face from the page, and the title is painted in Cinzel in the first frame; the text face comes as a file', async ({
    browser,
  }) => {
    await firstVisit(browser, {}, async (page) => {
      const requested: string[] = [];
      page.on('request', (request) => requested.push(new URL(request.url()).pathname));
      // Recorded from the start of the page, so nothing depends on when the test looks.
      await page.addInitScript(() => {
        const paints: { name: string; at: number; element?: string }[] = [];
        Object.assign(window, { __paints: paints });
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries())
            paints.push({ name: entry.name, at: entry.startTime });
        }).observe({ type: 'paint', buffered: true });
        new PerformanceObserver((list) => {
          for (const entry of list.getEntries()) {
            const { element } = entry as PerformanceEntry & { element?: Element | null };
            paints.push({ name: 'lcp', at: entry.startTime, element: element?.id ?? '' });
          }
        }).observe({ type: 'largest-contentful-paint', buffered: true });
      });
      await page.goto('/', { waitUntil: 'load' });
      await waitForHydration(page);
      const recorded = () =>
        page.evaluate(
          () =>
            (window as unknown as { __paints: { name: string; at: number; element?: string }[] })
              .__paints,
        );
      // The observer added here may be told of the paint after the start script's own: wait for
      // the record, then read it.
      await expect
        .poll(async () =>
          (await recorded()).some((paint) => paint.name === 'first-contentful-paint'),
        )
        .toBe(true);
      const paints = await recorded();
      const fcp = paints.find((paint) => paint.name === 'first-contentful-paint');
      const title = paints.find((paint) => paint.name === 'lcp' && paint.element === 'home-title');
      expect(fcp).toBeDefined();
      expect(title?.at).toBe(fcp?.at);
      // Cinzel is never fetched; Inter is, once, as the stylesheet's file.
      expect(requested.filter((path) => path.endsWith('.woff2'))).toEqual([
        expect.stringMatching(/^\/assets\/inter-text-[\w-]+\.woff2$/),
      ]);
      await page.evaluate(() => document.fonts.ready);
      const loaded = await page.evaluate(() =>
        [...document.fonts]
          .filter((face) => face.status === 'loaded')
          .map((face) => `${face.family.replace(/"/g, '')} ${face.weight}`),
      );
      expect(loaded).toEqual(expect.arrayContaining(['Cinzel 700', 'Inter Variable 400 700']));
      expect(await renderedFonts(page, '#home-title + p')).toEqual(['Inter']);
    });
  });

  test('a phone lays out its first screen in at most eight font strikes', async ({ browser }) => {
    // A strike is one face at one size: each one the first layout meets asks the browser for its
    // rendering style, a synchronous round trip of about 2 ms before the first frame on Linux.
    // The type scale of the nav, the hero and Talk to Pepa is held to eight of them.
    await firstVisit(browser, {}, async (page) => {
      await page.goto('/', { waitUntil: 'load' });
      const strikes = await page.evaluate(() => {
        const talk = document.getElementById('talk');
        const end = talk ? talk.getBoundingClientRect().bottom + scrollY : 0;
        const found = new Map<string, string>();
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const element = node.parentElement;
          if (!element || !node.textContent?.trim() || element.getClientRects().length === 0)
            continue;
          if (element.getBoundingClientRect().top + scrollY > end) continue;
          const style = getComputedStyle(element);
          const family = style.fontFamily.split(',')[0]?.replace(/"/g, '') ?? '';
          const strike = `${family} ${style.fontWeight} ${style.fontSize}`;
          if (!found.has(strike)) found.set(strike, node.textContent.trim().slice(0, 24));
        }
        return [...found].map(([strike, example]) => `${strike} (${example})`);
      });
      expect(strikes.length, strikes.join('\n')).toBeGreaterThan(0);
      expect(strikes.length, strikes.join('\n')).toBeLessThanOrEqual(8);
    });
  });

  test("without script, the stylesheet's own font files set the hero in Cinzel and Inter", async ({
    browser,
  }) => {
    await firstVisit(browser, { javaScriptEnabled: false }, async (page) => {
      const fonts: string[] = [];
      page.on('response', (response) => {
        if (response.url().endsWith('.woff2') && response.ok()) fonts.push(response.url());
      });
      // Font requests made during parsing hold the load event until they finish.
      await page.goto('/', { waitUntil: 'load' });
      expect(fonts).toHaveLength(2);
      expect(await renderedFonts(page, '#home-title')).toEqual(['Cinzel']);
      expect(await renderedFonts(page, '#home-title + p')).toEqual(['Inter']);
    });
  });

  test('the first frame waits for the end of the first screen, which the home page has', async ({
    page,
  }) => {
    await openHome(page);
    const target = await page.evaluate(() => {
      const expectLink = document.querySelector('link[rel="expect"][blocking="render"]');
      const href = expectLink?.getAttribute('href') ?? '';
      return { href, found: href.startsWith('#') && document.querySelector(href) !== null };
    });
    expect(target).toEqual({ href: '#talk', found: true });
  });

  test('a first visit on a slow phone network paints the hero in Cinzel and Inter', async ({
    browser,
  }) => {
    // The network is Lighthouse's mobile profile (150 ms round trip, 1.6 Mbps down).
    await firstVisit(browser, {}, async (page) => {
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Network.enable');
      await cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 150,
        downloadThroughput: (1.6 * 1024 * 1024) / 8,
        uploadThroughput: (750 * 1024) / 8,
      });
      await page.goto('/', { waitUntil: 'load' });
      expect(await renderedFonts(page, '#home-title')).toEqual(['Cinzel']);
      expect(await renderedFonts(page, '#home-title + p')).toEqual(['Inter']);
    });
  });
});
