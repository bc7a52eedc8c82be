// Nothing silent or covered: Escape asks before it ends a call or gives up a place in line, no
// toast covers the status on connect, and after a call the rating and the transcript are in view.
import type { Locator, Page } from '@playwright/test';
import { expectToastSeen, installCallProbe, waitPastDoubleTap } from './support/call-probe';
import { expect, test } from './support/fixtures';
import { talk } from './support/talk';
import { DOUBLE_TAP_MS } from '../src/features/talk/section/double-tap';

/** The demo's simulated room, twice as fast as a real one. */
const FAST = 0.5;
const CONNECTED = /^(Listening\.\.\.|Pepa is speaking\.\.\.)$/;
const ASK_END = 'End the call? Press Escape again or End Call.';
const ASK_LEAVE = 'Leave the line? Press Escape again or Leave the line.';

async function open(page: Page) {
  await installCallProbe(page);
  await page.goto(`/?simScale=${FAST}`);
  await talk(page).start.scrollIntoViewIfNeeded();
  await expect(talk(page).status).toHaveText('Ready to chat');
}

async function connect(page: Page) {
  await talk(page).start.click();
  await expect(talk(page).status).toHaveText(CONNECTED, { timeout: 15_000 });
}

/** The part of `locator` inside the viewport, under the fixed navigation bar (4rem). */
async function inViewport(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const viewport = page.viewportSize();
  if (!box || !viewport) return false;
  return box.y >= 64 && box.y + box.height <= viewport.height;
}

test.describe('Escape is never silent', () => {
  test('in a call, the first Escape asks and the call goes on; the second ends it', async ({
    page,
  }) => {
    await open(page);
    await connect(page);
    const question = talk(page).section.getByText(ASK_END);

    await page.keyboard.press('Escape');
    await expect(question).toBeVisible();
    expect(await inViewport(page, question)).toBe(true);
    await expect(talk(page).end).toBeVisible();
    await expect(talk(page).status).toHaveText(CONNECTED);

    // Unanswered, the question goes, and the call is still on.
    await expect(question).toBeHidden({ timeout: 8_000 });
    await expect(talk(page).status).toHaveText(CONNECTED);

    await page.keyboard.press('Escape');
    await expect(question).toBeVisible();
    await page.keyboard.press('Escape');
    await expectToastSeen(page, ['Call ended', 'Thanks for chatting with Pepa!']);
    await expect(talk(page).status).toHaveText('Ready to chat');
  });

  test("from the footer's Talk to Pepa link, Escape asks too, where the visitor can see it", async ({
    page,
  }) => {
    await open(page);
    await connect(page);
    const footerLink = page.getByRole('contentinfo').getByRole('link', { name: 'Talk to Pepa' });
    await footerLink.focus();
    await page.keyboard.press('Escape');
    // Said where the visitor is: in the section, brought into view, or in the docked bar.
    const copies = page.getByText(ASK_END);
    await expect
      .poll(async () => {
        for (const copy of await copies.all()) if (await inViewport(page, copy)) return true;
        return false;
      })
      .toBe(true);
    await expect(talk(page).status).toHaveText(CONNECTED);
    await talk(page).end.click();
    await expect(talk(page).status).toHaveText('Ready to chat');
  });

  test('in the line, the first Escape asks and the place is kept; the second leaves', async ({
    page,
  }) => {
    const left: string[] = [];
    const waiting = {
      status: 'waiting',
      ticket: {
        id: 'ticket-0123456789abcdef',
        secret: 'ticket-secret-0123456789',
        position: 2,
        estimatedWaitSeconds: 30,
        checkInBySeconds: 20,
      },
      retryAfterSeconds: 1,
    };
    await page.route('**/api/calls', (route) => route.fulfill({ status: 202, json: waiting }));
    await page.route('**/api/tickets/*', async (route) => {
      if (route.request().method() === 'DELETE') {
        left.push(route.request().url());
        return route.fulfill({ status: 204 });
      }
      return route.fulfill({ status: 200, json: waiting });
    });
    await open(page);
    await talk(page).start.click();
    await expect(talk(page).status).toHaveText('Pepa is with other guests.');
    await talk(page).leave.focus();

    await page.keyboard.press('Escape');
    const question = talk(page).section.getByText(ASK_LEAVE);
    await expect(question).toBeVisible();
    expect(await inViewport(page, question)).toBe(true);
    await expect(talk(page).leave).toBeVisible();
    expect(left).toEqual([]);

    await page.keyboard.press('Escape');
    await expect(talk(page).status).toHaveText('Ready to chat');
    await expect.poll(() => left.length).toBe(1);
  });
});

test.describe('nothing covered', () => {
  test('no toast covers the status pill on connect @phone-only', async ({ page }) => {
    await open(page);
    // Every frame a toast shows: its box and the status pill's, where they overlap.
    await page.evaluate(() => {
      const seen: { toast: DOMRect; status: DOMRect }[] = [];
      (window as never as { __toastBoxes: typeof seen }).__toastBoxes = seen;
      const sample = () => {
        const status = document.querySelector('#talk [data-phase]')?.getBoundingClientRect();
        for (const toast of document.querySelectorAll('[data-sonner-toast]')) {
          const box = toast.getBoundingClientRect();
          if (status && box.width > 0 && Number(getComputedStyle(toast).opacity) > 0.05) {
            seen.push({ toast: box.toJSON() as DOMRect, status: status.toJSON() as DOMRect });
          }
        }
        requestAnimationFrame(sample);
      };
      requestAnimationFrame(sample);
    });
    await connect(page);
    await expectToastSeen(page, ['Connected', "You're now talking to Pepa!"]);
    // Sampled for the toast's first 120 frames (about 2 s): its slide in and its rest.
    await page.waitForFunction(
      () => ((window as never as { __toastBoxes: unknown[] }).__toastBoxes ?? []).length > 120,
      undefined,
      { timeout: 15_000 },
    );
    const boxes = await page.evaluate(
      () =>
        (window as never as { __toastBoxes: { toast: DOMRect; status: DOMRect }[] }).__toastBoxes,
    );
    const overlapping = boxes.filter(
      ({ toast, status }) =>
        toast.left < status.right &&
        status.left < toast.right &&
        toast.top < status.bottom &&
        status.top < toast.bottom,
    );
    expect(boxes.length).toBeGreaterThan(0);
    expect(overlapping).toEqual([]);
  });
});

test.describe('after a call', () => {
  test('the rating and the transcript are in view, the choices before the comment', async ({
    page,
  }) => {
    await open(page);
    await connect(page);
    await expect(talk(page).captions).toContainText('Pepa', { timeout: 15_000 });
    await waitPastDoubleTap(page, DOUBLE_TAP_MS);
    await talk(page).end.click();
    await expect(talk(page).status).toHaveText('Ready to chat');
    const rating = talk(page).section.getByRole('region', {
      name: 'How was your audience with the Queen?',
    });
    const transcript = talk(page).section.getByRole('region', { name: 'Transcript' });
    await expect(rating).toBeVisible();
    await expect.poll(() => inViewport(page, rating), { timeout: 5_000 }).toBe(true);
    // The transcript starts in view (it scrolls within itself).
    await expect
      .poll(
        async () => {
          const box = await transcript.boundingBox();
          return box !== null && box.y < (page.viewportSize()?.height ?? 0);
        },
        { timeout: 5_000 },
      )
      .toBe(true);
    await expect(rating.getByRole('textbox')).toHaveCount(0);
    await rating.getByRole('button', { name: 'Content' }).click();
    await expect(rating.getByRole('textbox', { name: /A word for the court/ })).toBeVisible();
    await expect(rating.getByRole('button', { name: 'Send rating' })).toBeVisible();
  });
});
