// @ts-check
// The Largest Contentful Paint of a first visit, with what it painted: the element, the font the
// stylesheet asks for, and the font Chromium actually rendered its text with (DevTools'
// CSS.getPlatformFontsForNode), so "LCP in the brand font" is a measurement, not a hope.
//
// readLargestPaint and the page.evaluate callback run in the browser, hence these globals:
/* global window */

/**
 * In the page: the last LCP entry, its element marked for DevTools, and its computed font.
 * @returns {Promise<{ ms: number, element: string, fontFamily: string, fontsLoaded: string[] }
 *   | null>}
 */
function readLargestPaint() {
  return new Promise((done) => {
    new PerformanceObserver((list) => {
      // The observer watches only 'largest-contentful-paint', so its entries are LCP entries.
      const entries = /** @type {LargestContentfulPaint[]} */ (list.getEntries());
      const entry = entries[entries.length - 1];
      const element = entry?.element;
      if (!entry || !element) {
        done(null);
        return;
      }
      element.setAttribute('data-bench-lcp', '');
      const classes = [...element.classList].slice(0, 3).join('.');
      const text = (element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
      done({
        ms: entry.startTime,
        element: `<${element.tagName.toLowerCase()}${classes ? `.${classes}` : ''}> "${text}"`,
        fontFamily: window.getComputedStyle(element).fontFamily,
        fontsLoaded: [...window.document.fonts]
          .filter((face) => face.status === 'loaded')
          .map((face) => `${face.family.replace(/"/g, '')} ${face.weight}`),
      });
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  });
}

/**
 * Opens `url` in a fresh phone-sized context (a first visit: empty cache) and reports its LCP.
 * @param {import('playwright-core').Browser} browser
 * @param {string} url
 * @param {import('playwright-core').BrowserContextOptions} contextOptions
 * @returns {Promise<{ ms: number, element: string, fontFamily: string, renderedWith: string[],
 *   fontsLoaded: string[] } | null>}
 */
export async function measureLcpFont(browser, url, contextOptions) {
  const context = await browser.newContext(contextOptions);
  try {
    const page = await context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    // LCP is final once the page is loaded and has had a frame or two; input would end it too.
    await page.evaluate(
      () => new Promise((done) => window.requestAnimationFrame(() => setTimeout(done, 500))),
    );
    const lcp = await page.evaluate(readLargestPaint);
    if (!lcp) return null;
    const cdp = await context.newCDPSession(page);
    await cdp.send('DOM.enable');
    await cdp.send('CSS.enable');
    const { root } = await cdp.send('DOM.getDocument', { depth: -1 });
    const { nodeId } = await cdp.send('DOM.querySelector', {
      nodeId: root.nodeId,
      selector: '[data-bench-lcp]',
    });
    const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId });
    const renderedWith = fonts.map(
      (font) => `${font.familyName}${font.isCustomFont ? ' (web font)' : ' (system)'}`,
    );
    return { ...lcp, renderedWith };
  } finally {
    await context.close();
  }
}
