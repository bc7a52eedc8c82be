import type { Page, Route } from '@playwright/test';
import { callResources, installCallProbe } from './support/call-probe';
import { expect, test } from './support/fixtures';
import { talk } from './support/talk';

/** The simulated room, twice as fast. */
const FAST = 0.5;
const CONNECTED = /^(Listening\.\.\.|Pepa is speaking\.\.\.)$/;
const LOAD_FAILED = "The voice chat didn't load.";

const CHUNKS = [
  ['the call view', /\/assets\/call-view-[^/]+\.js/],
  ['the room', /\/assets\/room-simulator-[^/]+\.js/],
] as const;

/** The section's controls, and the message a failed load of the voice code leaves. */
function talkWithFailure(page: Page) {
  const controls = talk(page);
  return { ...controls, failed: controls.section.getByText(LOAD_FAILED, { exact: false }) };
}

/** Counts the page's documents: each load of the page itself is one. */
function countDocuments(page: Page) {
  const documents = { count: 0 };
  // Not framenavigated, which a change of the address's hash fires too.
  page.on('domcontentloaded', () => {
    documents.count += 1;
  });
  return documents;
}

/**
 * Presses Start Talking until the call connects (at most three presses), each after the last
 * one's outcome: connected, or the chat said it didn't load. A reload the page makes on its own
 * starts the call itself, so the outcome is awaited across it.
 */
async function pressUntilConnected(page: Page) {
  for (let press = 0; press < 3; press += 1) {
    await talk(page).start.click();
    const outcome = await Promise.race([
      talk(page)
        .status.filter({ hasText: CONNECTED })
        .waitFor({ timeout: 20_000 })
        .then(() => 'connected'),
      talkWithFailure(page)
        .failed.waitFor({ timeout: 20_000 })
        .then(() => 'failed'),
    ]);
    if (outcome === 'connected') return;
    // Past the double-tap window, so the next press is a press of its own.
    await page.clock.fastForward(500);
  }
}

async function open(page: Page) {
  await installCallProbe(page);
  await page.clock.install();
  await page.goto(`/?simScale=${FAST}`);
  await talk(page).start.scrollIntoViewIfNeeded();
}

test.describe('a chunk that failed is loaded on the next press, in every engine @once', () => {
  test.use({
    allowedProblems:
      /Failed to fetch dynamically imported module|ERR_|net::|Importing a module|SyntaxError|Unexpected end|expected expression/i,
  });

  for (const [chunk, pattern] of CHUNKS) {
    test(`${chunk}, in a browser that keeps a failed import for the page's life`, async ({
      page,
    }) => {
      // The engines before whatwg/html#10327 (Chromium before 2026, Firefox ESR 153, the iPhones
      // that have not updated) answer every later import of a failed module with the first
      // failure, without a request, until the page is loaded again: emulated here by failing
      // every request for the chunk from the document whose first request failed.
      const documents = countDocuments(page);
      let failedIn: number | null = null;
      const requestedAfterReload: string[] = [];
      await page.route(pattern, (route: Route) => {
        if (failedIn === null) failedIn = documents.count;
        if (failedIn === documents.count) return route.abort('internetdisconnected');
        requestedAfterReload.push(route.request().url());
        return route.continue();
      });
      await open(page);

      await pressUntilConnected(page);

      await expect(talk(page).status).toHaveText(CONNECTED);
      // Loaded again from a new document, which the page opened at Talk to Pepa.
      expect(requestedAfterReload.length).toBeGreaterThanOrEqual(1);
      expect(documents.count).toBe(2);
      expect(new URL(page.url()).hash).toBe('#talk');
      await talk(page).end.click();
      await expect(talk(page).status).toHaveText('Ready to chat');
      expect((await callResources(page)).liveTracks).toBe(0);
    });

    test(`${chunk}, arriving cut off (a 200 with half a body), which every engine keeps`, async ({
      page,
    }) => {
      let served = 0;
      await page.route(pattern, async (route: Route) => {
        served += 1;
        if (served > 1) return route.continue();
        const response = await route.fetch();
        const body = await response.text();
        return route.fulfill({ response, body: body.slice(0, Math.floor(body.length / 2)) });
      });
      const documents = countDocuments(page);
      await open(page);

      await pressUntilConnected(page);

      await expect(talk(page).status).toHaveText(CONNECTED);
      expect(served).toBeGreaterThanOrEqual(2);
      expect(documents.count).toBeLessThanOrEqual(2);
      await talk(page).end.click();
      await expect(talk(page).status).toHaveText('Ready to chat');
    });
  }

  test('a visitor who is really offline keeps the page and is told it did not load', async ({
    page,
  }) => {
    const documents = countDocuments(page);
    await page.route(/\/assets\/call-view-[^/]+\.js/, (route) =>
      route.abort('internetdisconnected'),
    );
    await open(page);
    // The page itself does not answer either, from now on.
    await page.route(
      (url) => url.pathname === '/',
      (route) => route.abort('internetdisconnected'),
    );
    for (let press = 0; press < 2; press += 1) {
      await talk(page).start.click();
      await expect(talkWithFailure(page).failed).toBeVisible();
      await page.clock.fastForward(500);
    }
    expect(documents.count).toBe(1);
  });
});
