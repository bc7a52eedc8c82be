// Talk to Pepa in the field, when the start fails: offline as the call view loaded, a room
// elsewhere, a chunk that fails to download, the gate saying no, and the gate hanging.
import { callResources, installCallProbe } from './support/call-probe';
import { routeClosedCourt } from './support/court-answers';
import {
  CONNECTED,
  expectReleased,
  FAST,
  installFieldRecorder,
  open,
  recorded,
} from './support/field-call';
import { expect, test } from './support/fixtures';
import { talk } from './support/talk';
import { LATE_ANSWER_MS } from '../src/api/late-answer';

test.describe('Talk to Pepa in the field', () => {
  test.describe('when the visitor was offline as the call view loaded @once', () => {
    test.use({
      allowedProblems: /Failed to fetch dynamically imported module|ERR_|net::|Importing a module/i,
    });

    test('coming back online, the next press loads it and connects', async ({ page }) => {
      const fetched: string[] = [];
      page.on('request', (request) => {
        if (/\/assets\/call-view-[^/]+\.js/.test(request.url())) fetched.push(request.url());
      });
      // Offline for the call view from the first moment, so that loading it on intent (the
      // section coming near the viewport) fails too, however soon after the page load it runs.
      let offline = true;
      await page.route(/\/assets\/call-view-[^/]+\.js/, (route) =>
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
      ['the call view', /\/assets\/call-view-[^/]+\.js/],
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
});
