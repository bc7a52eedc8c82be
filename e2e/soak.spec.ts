import { callResources, installCallProbe, waitPastDoubleTap } from './support/call-probe';
import { expect, test } from './support/fixtures';
import { DOUBLE_TAP_MS } from '../src/features/talk/section/double-tap';

/** 50 by default; `SOAK_CYCLES=100 npx playwright test e2e/soak.spec.ts` for a longer soak. */
const CYCLES = Number(process.env.SOAK_CYCLES ?? 50);

// One viewport is enough to watch for leaks.
test.describe('soak @once', () => {
  test.setTimeout(240_000);

  test(`${CYCLES} start/end cycles leave no audio element, live track or listener behind`, async ({
    page,
  }) => {
    await installCallProbe(page);
    await page.goto('/?simScale=0.2');
    const section = page.locator('#talk');
    await section.scrollIntoViewIfNeeded();
    const status = section.getByRole('status');
    const resources = () =>
      page.evaluate(() => {
        const counts = window.__pepaCallResources?.();
        if (!counts) throw new Error('the demo build exposes the call object resource counts');
        return counts;
      });

    const after: Awaited<ReturnType<typeof resources>>[] = [];
    for (let cycle = 0; cycle < CYCLES; cycle += 1) {
      await section.getByRole('button', { name: 'Start Talking' }).click();
      await expect(status).toHaveText(/^(Listening\.\.\.|Pepa is speaking\.\.\.)$/);
      // Presses closer together than this are one (a double tap).
      await waitPastDoubleTap(page, DOUBLE_TAP_MS);
      if (cycle === 0) {
        const during = await resources();
        expect(during.dailyListeners).toBeGreaterThan(0);
        expect(during.audioElements).toBe(1);
      }
      await section.getByRole('button', { name: 'End Call' }).click();
      await expect(status).toHaveText('Ready to chat');
      await waitPastDoubleTap(page, DOUBLE_TAP_MS);
      after.push(await resources());
      const held = await callResources(page);
      expect(held.liveTracks, `live tracks after cycle ${cycle + 1}`).toBe(0);
      expect(held.audioElements, `audio elements after cycle ${cycle + 1}`).toBe(0);
    }

    const idle = { audioElements: 0, timers: 0, dailyListeners: 0, gestureListeners: 0 };
    expect(after).toEqual(Array.from({ length: CYCLES }, () => idle));
    expect((await callResources(page)).tracks).toBe(CYCLES);
  });
});
