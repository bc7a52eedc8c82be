import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page } from '@playwright/test';
import { expectStatusesSeen, installCallProbe } from './support/call-probe';
import { expect, test } from './support/fixtures';
import { ownCourt } from './support/own-court';
import { providerCalls } from './support/provider-calls';
import { reviewShots } from './support/screenshot';
import { callDock, talk } from './support/talk';
import {
  CONNECTED_TOAST,
  ENDED_TOAST,
  expectToasts,
  installStatusRecorder,
  toastsGone,
} from './support/toast-record';

/**
 * The visitor's whole journey, at each width, on a court with one voice place that another
 * visitor holds: arrive, follow the link to Talk to Pepa, wait in line, write to Pepa while
 * waiting, take the place into voice, Pepa shows a section, End Call from the docked bar, share
 * one of her remarks. At each step what the visitor needs is in view and the focus is where they
 * are; each toast is recorded, one per event, covering nothing and never moved; the section is
 * axe-clean in the line with the chat open and after the call. A screenshot of each step goes to
 * test-results/screenshots/, to be looked at.
 */
const FAST = 0.2;
const court = ownCourt({ places: 1, scale: FAST });
const SHARE = /^Share this remark of Pepa's/;
const CONNECTED = /^(Listening\.\.\.|Pepa is speaking\.\.\.)$/;

/** The Talk section passes axe-core's checks as it is now. */
async function expectTalkAxeClean(page: Page) {
  const { violations } = await new AxeBuilder({ page }).include('#talk').analyze();
  expect(violations).toEqual([]);
}

const screenshot = reviewShots('journey');

/** Pepa's finished entries in `log`. */
function pepaRemarks(log: Locator) {
  return log.locator('[data-thread-entry]:not([aria-hidden])', { hasText: /^Pepa: \S/ });
}

test('the whole journey: arrive, the link, the line, the chat while waiting, voice, a section shown, End Call from the bar, a remark shared', async ({
  context,
  request,
}, testInfo) => {
  // Eight steps, each waiting on the demo's room: three times a single step's time.
  test.slow();
  const phone = testInfo.project.name === 'phone';

  // Another visitor holds the only voice place.
  const holder = await court.tab(context, installCallProbe);
  await talk(holder).section.scrollIntoViewIfNeeded();
  await expect(talk(holder).status).toHaveText('Ready to chat');
  await talk(holder).start.click();
  await expectStatusesSeen(holder, ['Listening...']);

  const page = await court.tab(context, async (tab) => {
    await installCallProbe(tab);
    await installStatusRecorder(tab);
  });
  const { section, status, start, leave, typeField, send, captions } = talk(page);

  // Arrive: the first screen, its heading in view.
  await expect(page.getByRole('heading', { level: 1 })).toBeInViewport();
  await screenshot(page, testInfo, '1-arrive');

  // The navigation's link lands on the Talk section: its status and Start Talking on screen.
  if (phone) await page.getByRole('button', { name: 'Menu' }).click();
  const nav = phone ? page.locator('#mobile-menu') : page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Talk to Pepa', exact: true }).click();
  await expect(status).toHaveText('Ready to chat');
  await expect(status).toBeInViewport({ ratio: 1 });
  await expect(start).toBeInViewport({ ratio: 1 });

  // The line: the visitor is told so, with the way out in view.
  await start.click();
  await expect(status).toHaveText('Pepa is with other guests.');
  await expect(status).toBeInViewport({ ratio: 1 });
  await expect(leave).toBeInViewport({ ratio: 1 });
  await screenshot(page, testInfo, '2-line');

  // Writing to Pepa while waiting: the field has the focus, and her answer and the field are on
  // one screen with the status.
  await section.getByRole('button', { name: 'Write to Pepa' }).click();
  await expect(typeField).toBeFocused();
  await expect(typeField).toBeInViewport({ ratio: 1 });
  const log = section.getByRole('log', { name: 'Your conversation with Pepa' });
  await typeField.fill('Who rules the pond?');
  await expect(send).not.toHaveAttribute('aria-disabled', 'true');
  await typeField.press('Enter');
  await expect(pepaRemarks(log)).toHaveCount(2, { timeout: 30_000 });
  await expect(pepaRemarks(log).last()).toBeInViewport({ ratio: 1 });
  await expect(typeField).toBeInViewport({ ratio: 1 });
  await expect(status).toBeInViewport({ ratio: 1 });
  await screenshot(page, testInfo, '3-chat');
  await expectTalkAxeClean(page);

  // The place frees: the holder's End Call ends their call with the provider (whose message
  // frees the gate's place), and the offer is where the visitor is, one tap takes it into voice.
  await talk(holder).end.click();
  await expect
    .poll(() => providerCalls(request, court.stack().standInUrl), {
      message: "the provider's record of the holder's call, the court's only one so far",
      timeout: 15_000,
    })
    .toEqual([{ status: 'ended', endedReason: 'customer-ended-call' }]);
  const take = section.getByRole('button', { name: 'Your turn: talk to Pepa' });
  await expect(take).toBeInViewport({ ratio: 1, timeout: 30_000 });
  await expect(typeField).toBeInViewport({ ratio: 1 });
  await take.click();
  await expect(status).toHaveText(CONNECTED, { timeout: 30_000 });
  await expect(status).toBeInViewport({ ratio: 1 });
  await expect(captions).toBeInViewport();
  await expect(typeField).toBeInViewport({ ratio: 1 });
  await screenshot(page, testInfo, '4-voice');

  // Pepa shows a section: asked where to stake, she takes the page to the Pond, the focus with
  // it, while the docked bar keeps the call. The visitor asks once 'Connected' has gone (the
  // demo's own visitor may ask first): what a toast lies over is then only the page's doing.
  await toastsGone(page);
  await typeField.fill('Where do I stake?');
  await send.click();
  const pond = page.locator('#pond');
  await expect(pond).toBeFocused({ timeout: 45_000 });
  await expect(pond.getByRole('heading').first()).toBeInViewport({ ratio: 1 });
  const bar = callDock(page);
  await expect(bar.end).toBeInViewport({ ratio: 1 });
  await screenshot(page, testInfo, '5-section');

  // End Call from the bar: the rating in view where the call was, the focus on Start Talking.
  await bar.end.click();
  await expect(status).toHaveText('Ready to chat', { timeout: 15_000 });
  await expect(bar.bar).toHaveCount(0);
  await expect(start).toBeFocused();
  await expect(start).toBeInViewport({ ratio: 1 });
  const rating = section.getByRole('region', { name: 'How was your audience with the Queen?' });
  await expect(rating).toBeInViewport({ ratio: 1 });
  await screenshot(page, testInfo, '6-end');
  await expectTalkAxeClean(page);
  // The visitor reads 'Call ended' before scrolling on: a toast lies over whatever is scrolled
  // under it, and what it covers is only the page's doing where the page put it.
  await toastsGone(page);

  // One of her remarks shared: the card's dialog, with its image, and the focus back after.
  const share = log.getByRole('button', { name: SHARE }).last();
  await share.scrollIntoViewIfNeeded();
  await share.click();
  const dialog = page.getByRole('dialog', { name: "Share Pepa's words" });
  await expect(dialog).toBeFocused();
  await expect(dialog.getByRole('img')).toBeVisible({ timeout: 45_000 });
  await expect(dialog.getByRole('img')).toBeInViewport();
  await screenshot(page, testInfo, '7-share');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(share).toBeFocused();

  // One toast per event, word for word, none covering the status or a control, none moved.
  await expectToasts(page, [CONNECTED_TOAST, ENDED_TOAST]);
});
