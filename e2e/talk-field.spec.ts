import type { Page } from '@playwright/test';
import { callResources, installCallProbe, statusHistory } from './support/call-probe';
import { routeClosedCourt } from './support/court-answers';
import { expect, test } from './support/fixtures';
import { talk } from './support/talk';
import { LATE_ANSWER_MS } from '../src/api/late-answer';

/** The demo's simulated room, twice as fast as a real one. */
const FAST = 0.5;

const CONNECTED = /^(Listening\.\.\.|Pepa is speaking\.\.\.)$/;

declare global {
  interface Window {
    __fieldRecord?: {
      toasts: { title: string; overlaps: string[] }[];
      wakeLocks: { requested: number; released: number };
    };
  }
}

/**
 * Records, as they happen: every toast that appears, with the call controls it covers at that
 * moment, and every screen wake lock the page takes and releases.
 */
async function installFieldRecorder(page: Page) {
  await page.addInitScript(() => {
    const record = {
      toasts: [] as { title: string; overlaps: string[] }[],
      wakeLocks: { requested: 0, released: 0 },
    };
    window.__fieldRecord = record;

    // A wake lock the page can always take, counted, so the test sees requests and releases.
    const held = new Set<{ release(): Promise<void> }>();
    // Browsers drop a screen wake lock when the page is hidden; so does this stand-in.
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState !== 'hidden') return;
      for (const sentinel of held) void sentinel.release();
    });
    Object.defineProperty(navigator, 'wakeLock', {
      configurable: true,
      value: {
        request: async () => {
          record.wakeLocks.requested += 1;
          const sentinel = new EventTarget() as EventTarget & {
            released: boolean;
            type: string;
            release(): Promise<void>;
          };
          sentinel.released = false;
          sentinel.type = 'screen';
          held.add(sentinel);
          sentinel.release = async () => {
            if (sentinel.released) return;
            sentinel.released = true;
            held.delete(sentinel);
            record.wakeLocks.released += 1;
            sentinel.dispatchEvent(new Event('release'));
          };
          return sentinel;
        },
      },
    });

    // Sampled every frame while a toast is on screen, so a toast that slides over a control at
    // any moment of its life is caught, whatever the machine's speed.
    const byToast = new Map<Element, { title: string; overlaps: string[] }>();
    const intersects = (a: DOMRect, b: DOMRect) =>
      a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const sample = () => {
      for (const toast of document.querySelectorAll('[data-sonner-toast]')) {
        if (toast.getAttribute('data-removed') === 'true') continue;
        const box = toast.getBoundingClientRect();
        if (box.width === 0 || Number(getComputedStyle(toast).opacity) < 0.05) continue;
        let entry = byToast.get(toast);
        if (!entry) {
          const title = toast.querySelector('[data-title]')?.textContent?.trim() ?? '';
          entry = { title, overlaps: [] };
          byToast.set(toast, entry);
          record.toasts.push(entry);
        }
        const controls = document.querySelectorAll<HTMLElement>(
          '#talk button, #talk [role="note"], #talk [role="status"], #talk [data-testid="volume-bars"], #talk [data-call-timer]',
        );
        for (const control of controls) {
          const label = control.textContent?.trim() || control.tagName;
          const rect = control.getBoundingClientRect();
          if (rect.width > 0 && intersects(box, rect) && !entry.overlaps.includes(label)) {
            entry.overlaps.push(label);
          }
        }
      }
      requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
    addEventListener('scroll', () => {
      (window as never as { __scrolls: string[] }).__scrolls ??= [];
      (window as never as { __scrolls: string[] }).__scrolls.push(
        `${Math.round(performance.now())}:${scrollY}:${document.querySelector('#talk [role=status]')?.textContent}:${document.activeElement?.tagName}`,
      );
    });
  });
}

async function open(page: Page, query = '', options: { denyMicrophone?: boolean } = {}) {
  await installCallProbe(page, options);
  await installFieldRecorder(page);
  await page.goto(`/?${[`simScale=${FAST}`, query].filter(Boolean).join('&')}`);
  await talk(page).start.scrollIntoViewIfNeeded();
  await expect(talk(page).status).toHaveText('Ready to chat');
}

async function connect(page: Page) {
  await talk(page).start.click();
  await expect(talk(page).status).toHaveText(CONNECTED, { timeout: 15_000 });
}

async function recorded(page: Page) {
  return page.evaluate(() => window.__fieldRecord!);
}

/** Every scenario that ends a call ends here: idle, microphone released, nothing playing. */
async function expectReleased(page: Page) {
  await expect(talk(page).status).toHaveText('Ready to chat');
  await expect
    .poll(async () => {
      const resources = await callResources(page);
      return { liveTracks: resources.liveTracks, playingAudio: resources.playingAudio };
    })
    .toEqual({ liveTracks: 0, playingAudio: 0 });
}

test.describe('Talk to Pepa in the field', () => {
  // The menu toggle exists below the md width only.
  test('Escape that closes the phone menu leaves the call running @phone-only', async ({
    page,
  }) => {
    await open(page);
    await connect(page);
    const menu = page.getByRole('button', { name: 'Menu' });
    await menu.click();
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Escape');
    await expect(menu).toHaveAttribute('aria-expanded', 'false');

    // The call goes on: Pepa still answers after the menu closed.
    const connectedSince = (await statusHistory(page)).length;
    await expect
      .poll(async () => (await statusHistory(page)).slice(connectedSince - 1), { timeout: 15_000 })
      .toContain('Pepa is speaking...');
    const afterMenu = (await statusHistory(page)).slice(connectedSince - 1);
    expect(afterMenu).not.toContain('Ready to chat');
    await expect(talk(page).end).toBeVisible();

    await talk(page).end.click();
    await expectReleased(page);
  });

  test("muting shows in the status area that Pepa can't hear the visitor @once", async ({
    page,
  }) => {
    await open(page);
    await connect(page);
    await talk(page).section.getByRole('button', { name: 'Mute' }).click();
    await expect(talk(page).section.getByText("Muted: Pepa can't hear you")).toBeVisible();
    await expect(talk(page).status).toHaveText(CONNECTED);
    expect((await callResources(page)).enabledTracks).toBe(0);
    await talk(page).section.getByRole('button', { name: 'Unmute' }).click();
    await expect(talk(page).section.getByText("Muted: Pepa can't hear you")).toBeHidden();
    await talk(page).end.click();
    await expectReleased(page);
  });

  test('End Call keeps the focus on the main button @once', async ({ page }) => {
    await open(page);
    await connect(page);
    await talk(page).end.focus();
    await page.keyboard.press('Enter');
    await expectReleased(page);
    await expect(talk(page).start).toBeFocused();
  });

  test('hiding the page keeps the call; the screen stays awake until it ends @once', async ({
    page,
  }) => {
    await open(page);
    await connect(page);
    await expect.poll(async () => (await recorded(page)).wakeLocks.requested).toBe(1);

    const connectedSince = (await statusHistory(page)).length;
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, value: 'hidden' });
      Object.defineProperty(document, 'hidden', { configurable: true, value: true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    // Pepa keeps talking while the tab is hidden.
    await expect
      .poll(async () => (await statusHistory(page)).slice(connectedSince), { timeout: 15_000 })
      .toContain('Pepa is speaking...');
    expect((await statusHistory(page)).slice(connectedSince - 1)).not.toContain('Ready to chat');
    expect((await callResources(page)).liveTracks).toBeGreaterThan(0);

    // Back in view: the browser dropped the lock while hidden, so it is taken again.
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, value: 'visible' });
      Object.defineProperty(document, 'hidden', { configurable: true, value: false });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await expect.poll(async () => (await recorded(page)).wakeLocks.requested).toBe(2);

    await talk(page).end.click();
    await expectReleased(page);
    const { wakeLocks } = await recorded(page);
    expect(wakeLocks.released).toBe(wakeLocks.requested);
  });

  test.describe('when the visitor was offline as the voice chat loaded @once', () => {
    test.use({
      allowedProblems: /Failed to fetch dynamically imported module|ERR_|net::|Importing a module/i,
    });

    test('coming back online, the next press loads it and connects', async ({ page }) => {
      const fetched: string[] = [];
      page.on('request', (request) => {
        if (/\/assets\/voice-chat-[^/]+\.js/.test(request.url())) fetched.push(request.url());
      });
      // Offline for the voice chat from the first moment, so that loading it on intent (the
      // section coming near the viewport) fails too, however soon after the page load it runs.
      let offline = true;
      await page.route(/\/assets\/voice-chat-[^/]+\.js/, (route) =>
        offline ? route.abort('internetdisconnected') : route.fallback(),
      );
      await installCallProbe(page);
      await installFieldRecorder(page);
      await page.clock.install();
      await page.goto(`/?simScale=${FAST}`);
      await talk(page).start.scrollIntoViewIfNeeded();
      await talk(page).start.click();
      await expect(
        talk(page).section.getByText("The voice chat didn't load.", { exact: false }),
      ).toBeVisible();
      offline = false;
      // Past the double-tap window, so the next press is a press of its own.
      await page.clock.fastForward(500);
      await talk(page).start.click();
      await expect(talk(page).status).toHaveText(CONNECTED, { timeout: 15_000 });
      // The chunk was asked for again once the network was back, not served from a failure.
      expect(fetched.length).toBeGreaterThanOrEqual(2);
      await talk(page).end.click();
      await expectReleased(page);
    });
  });

  test.describe('when the room misbehaves @once', () => {
    test.use({ allowedProblems: /lost|connection|network|unreachable/i });

    test('a connection blip shows Reconnecting, then the call goes on', async ({ page }) => {
      await open(page, 'sim=network-interruption');
      await connect(page);
      await expect
        .poll(async () => statusHistory(page), { timeout: 15_000 })
        .toContain('Reconnecting to Pepa...');
      await expect(talk(page).status).toHaveText(CONNECTED, { timeout: 15_000 });
      const statuses = await statusHistory(page);
      const after = statuses.slice(statuses.indexOf('Reconnecting to Pepa...'));
      expect(after).not.toContain('Ready to chat');
      await talk(page).end.click();
      await expectReleased(page);
    });

    test('a connection lost for good ends the call with a reason, microphone released', async ({
      page,
    }) => {
      await open(page, 'sim=network-failure');
      await connect(page);
      await expect(talk(page).section.getByRole('alert')).toHaveText(
        'The connection to Pepa was lost. Press Start Talking to call her again.',
        { timeout: 20_000 },
      );
      await expectReleased(page);
      expect(await statusHistory(page)).toContain('Reconnecting to Pepa...');
    });

    test("Pepa leaving ends the call within 2 s, with one 'Call ended'", async ({ page }) => {
      await open(page, 'sim=assistant-leaves');
      await connect(page);
      await expect(talk(page).status).toHaveText('Ready to chat', { timeout: 15_000 });
      await expectReleased(page);
      await expect
        .poll(async () => (await recorded(page)).toasts.map((toast) => toast.title))
        .toContain('Call ended');
      const titles = (await recorded(page)).toasts.map((toast) => toast.title);
      expect(titles.filter((title) => title === 'Call ended')).toHaveLength(1);
    });

    test('someone posing as Pepa is not shown as Pepa', async ({ page }) => {
      await page.addInitScript(() => {
        (window as unknown as { __captions: string[] }).__captions = [];
        document.addEventListener('DOMContentLoaded', () => {
          new MutationObserver(() => {
            const log = document.querySelector('#talk [role="log"]');
            const text = log?.textContent ?? '';
            const seen = (window as unknown as { __captions: string[] }).__captions;
            if (text && seen[seen.length - 1] !== text) seen.push(text);
          }).observe(document.body, { subtree: true, childList: true, characterData: true });
        });
      });
      await open(page, 'sim=intruder');
      await connect(page);
      // The intruder speaks after Pepa's greeting and before her first reply: once the reply's
      // caption is in, the intruder's message has come and gone.
      const pepaLines = async () => {
        const seen = await page.evaluate(
          () => (window as unknown as { __captions: string[] }).__captions,
        );
        return (seen.at(-1) ?? '').split('Pepa:').length - 1;
      };
      await expect.poll(pepaLines, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
      const captions = await page.evaluate(
        () => (window as unknown as { __captions: string[] }).__captions,
      );
      expect(captions.join('\n')).not.toContain('seed phrase');
      await talk(page).end.click();
      await expectReleased(page);
    });
  });

  test.describe('when the provider names a room elsewhere @once', () => {
    test.use({ allowedProblems: /room|refused/i });

    for (const url of ['https://evil.example/room', 'javascript:alert(1)']) {
      test(`${url} is refused before the room is joined, the microphone asked for at the tap released`, async ({
        page,
      }) => {
        await page.route('**/api/calls', (route) =>
          route.fulfill({
            status: 201,
            contentType: 'application/json',
            body: JSON.stringify({
              status: 'admitted',
              call: { id: 'call-evil', webCallUrl: url, maxDurationSeconds: 180 },
            }),
          }),
        );
        await installCallProbe(page);
        await installFieldRecorder(page);
        // Not scrolled near the section: nothing is prefetched before the press.
        await page.goto(`/?simScale=${FAST}`);
        await talk(page).start.click();
        await expect(talk(page).section.getByRole('alert')).toHaveText(
          "The call's room isn't one Pepa uses, so it wasn't joined.",
        );
        await expectReleased(page);
        // The start asks for the microphone at the tap, beside the call request: asked once at
        // most, and given back once the room is refused.
        const resources = await callResources(page);
        expect(resources.tracks).toBeLessThanOrEqual(1);
        expect(resources.liveTracks).toBe(0);
      });
    }
  });

  test.describe('when a chunk fails to download @once', () => {
    test.use({
      allowedProblems:
        /Failed to fetch dynamically imported module|ERR_FAILED|net::|Importing a module/i,
    });

    for (const [chunk, pattern] of [
      ['the voice chat', /\/assets\/voice-chat-[^/]+\.js/],
      ['the room', /\/assets\/room-simulator-[^/]+\.js/],
    ] as const) {
      test(`${chunk} is fetched again on the next press`, async ({ page }) => {
        const fetched: string[] = [];
        let failures = 0;
        await page.route(pattern, (route) => {
          fetched.push(new URL(route.request().url()).search);
          if (failures === 0) {
            failures += 1;
            return route.abort('internetdisconnected');
          }
          return route.continue();
        });
        await page.clock.install();
        await open(page);
        const start = talk(page).start;
        // Pressed until the call connects: a loader that replays its failure never gets there.
        for (let press = 0; press < 3; press += 1) {
          await start.click();
          const outcome = await Promise.race([
            talk(page)
              .status.filter({ hasText: CONNECTED })
              .waitFor({ timeout: 15_000 })
              .then(() => 'connected'),
            talk(page)
              .section.getByText("The voice chat didn't load.", { exact: false })
              .waitFor({ timeout: 15_000 })
              .then(() => 'failed'),
          ]);
          if (outcome === 'connected') break;
          await expect(talk(page).start).toBeVisible();
          // Past the double-tap window, so the next press is a press of its own.
          await page.clock.fastForward(500);
        }
        await expect(talk(page).status).toHaveText(CONNECTED);
        expect(failures).toBe(1);
        expect(fetched.length).toBeGreaterThanOrEqual(2);
        await talk(page).end.click();
        await expectReleased(page);
      });
    }
  });

  test.describe('when the gate says no @once', () => {
    test.use({ allowedProblems: /status of (403|429|503)|HTTP (403|429|503)|api\/calls/i });

    test("a visitor over their limit: the gate's Retry-After is counted down, and presses make no calls", async ({
      page,
    }) => {
      let requests = 0;
      // Same origin: the page reads the gate's Retry-After without any CORS exposure.
      await page.route('**/api/calls', (route) => {
        requests += 1;
        return route.fulfill({
          status: 429,
          headers: { 'retry-after': '7' },
          contentType: 'application/problem+json',
          body: JSON.stringify({ code: 'rate-limited', title: 'Too many', status: 429 }),
        });
      });
      await page.clock.install();
      await open(page);
      await talk(page).start.click();
      const alert = talk(page).section.getByRole('alert');
      await expect(alert).toHaveText(
        "You've asked for Pepa several times in a short while. Try again in 7 s.",
      );
      await expect(talk(page).start).toHaveAttribute('aria-disabled', 'true');
      for (let press = 0; press < 10; press += 1) {
        await page.clock.fastForward(450);
        // A real press on the resting button (Playwright would wait for it to be enabled).
        await talk(page).start.click({ force: true });
      }
      expect(requests).toBe(1);
      await page.clock.fastForward(3_000);
      await expect(talk(page).start).not.toHaveAttribute('aria-disabled');
      await talk(page).start.click();
      await expect.poll(() => requests).toBe(2);
      const toasts = (await recorded(page)).toasts.map((toast) => toast.title);
      expect(toasts).not.toContain('Failed to connect');
    });

    test("a closed court (the day's budget spent) is said in the panel with when it opens, and the microphone isn't blamed", async ({
      page,
    }) => {
      await routeClosedCourt(page);
      await open(page);
      await talk(page).start.click();
      await expect(talk(page).section.getByRole('alert')).toHaveText(
        /^The court is closed for today: Pepa has received all the guests she can\. It opens again at .+\.$/,
      );
      await expectReleased(page);
      expect((await recorded(page)).toasts.map((toast) => toast.title)).not.toContain(
        'Failed to connect',
      );
    });
  });

  test.describe('when the gate hangs @once', () => {
    test.use({ allowedProblems: /api\/calls|aborted|ERR_ABORTED/i });

    test('after 8 s Pepa is said to be slow; End Call stops the start, and the request is cut off once no late answer can come', async ({
      page,
    }) => {
      let requests = 0;
      let aborted = false;
      // Never answered, as a gate that hangs.
      await page.route('**/api/calls', () => {
        requests += 1;
      });
      page.on('requestfailed', (request) => {
        if (request.url().endsWith('/api/calls')) aborted = true;
      });
      await page.clock.install();
      await open(page);
      await talk(page).start.click();
      await expect(talk(page).status).toHaveText('Connecting to Pepa...');
      await expect.poll(() => requests).toBe(1);
      await expect(talk(page).section.getByText(/taking longer than usual/)).toBeHidden();
      await page.clock.fastForward(8_000);
      await expect(talk(page).section.getByRole('note')).toHaveText(
        'Pepa is taking longer than usual to answer. Keep waiting, or press End Call to cancel.',
      );
      await talk(page).end.click();
      await expectReleased(page);
      // Waited for a while, so a place it may bring can be given back; then cut off.
      expect(aborted).toBe(false);
      await page.clock.fastForward(LATE_ANSWER_MS);
      await expect.poll(() => aborted).toBe(true);
      expect(requests).toBe(1);
    });
  });

  test.describe('toasts cover no call control', () => {
    test.use({ allowedProblems: /Permission denied|NotAllowedError|microphone/i });

    // Two places a visitor can be: at the section's top, where the nav's link puts them (the
    // controls low on the screen), and scrolled on until the controls sit under the bar.
    const places = {
      'from the link': () => document.getElementById('talk')?.scrollIntoView(),
      'scrolled down': () =>
        document
          .querySelector('#talk button')
          ?.scrollIntoView({ block: 'start', behavior: 'instant' }),
    };
    for (const width of [320, 390, 768, 1024, 1440]) {
      for (const [place, scroll] of Object.entries(places)) {
        // Each sets its own width: one project walks them all.
        test(`at ${width} px, ${place}: connected and ended @once`, async ({ page }) => {
          await page.setViewportSize({ width, height: width < 768 ? 844 : 900 });
          await open(page);
          await page.evaluate(scroll);
          // By keyboard, so no pointer action scrolls the page on its own.
          await talk(page).start.focus();
          await page.keyboard.press('Enter');
          await expect(talk(page).status).toHaveText(CONNECTED, { timeout: 15_000 });
          await talk(page).end.focus();
          await page.keyboard.press('Enter');
          await expectReleased(page);
          await expect
            .poll(async () => (await recorded(page)).toasts.map((toast) => toast.title))
            .toEqual(['Connected', 'Call ended']);
          const toasts = (await recorded(page)).toasts;
          expect(toasts.filter((toast) => toast.overlaps.length > 0)).toEqual([]);
        });
      }
    }

    test('a failed start leaves the microphone help in view', async ({ page }) => {
      await installCallProbe(page, { denyMicrophone: true });
      await installFieldRecorder(page);
      await page.goto(`/?simScale=${FAST}`);
      await page.evaluate(() => document.getElementById('talk')?.scrollIntoView());
      await talk(page).start.focus();
      await page.keyboard.press('Enter');
      await expect(talk(page).section.getByRole('note')).toContainText('microphone is blocked');
      await expect
        .poll(async () => (await recorded(page)).toasts.map((toast) => toast.title))
        .toContain('Failed to connect');
      expect((await recorded(page)).toasts.filter((toast) => toast.overlaps.length > 0)).toEqual(
        [],
      );
    });
  });
});
