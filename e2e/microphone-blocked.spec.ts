import type { BrowserContext, Locator, Page, Request } from '@playwright/test';
import { expectToastSeen, installCallProbe, statusHistory } from './support/call-probe';
import { expect, test } from './support/fixtures';
import { ownCourt } from './support/own-court';
import { talk } from './support/talk';
import {
  expectToasts,
  installStatusRecorder,
  START_FAILED_TOAST,
  toastsGone,
} from './support/toast-record';

/**
 * A refused microphone costs no voice place: on a court with one place (its own stack, as
 * `GATE_MAX_CONCURRENT_CALLS=1 npm start`), a visitor whose browser refuses the microphone presses
 * Start Talking and finds the way to allow the microphone in view under the status, and the spec's
 * 'Failed to connect' toast, which covers none of it; a second visitor is then admitted at once.
 */
const FAST = 0.2;
/** The spec's toast, word for word. */
const FAILED_TO_CONNECT = [START_FAILED_TOAST.title, START_FAILED_TOAST.description] as const;
/** A start slower than this says it is slow (SLOW_START_HINT_MS): a normal start is within it. */
const NORMAL_START_MS = 8000;

const court = ownCourt({ places: 1, scale: FAST });
test.use({ allowedProblems: /Permission denied|NotAllowedError|microphone/i });

// Each run (a width) starts on an empty court: the last one's call ended, and the gate told so.
test.beforeEach(async () => {
  await expect
    .poll(
      () =>
        [...court.stack().standIn.calls.values()].filter(
          (call) => call.joinedAt !== null && (call.status !== 'ended' || call.gateToldAt === null),
        ).length,
      { message: 'calls of an earlier run still hold the place' },
    )
    .toBe(0);
});

/** A tab on the court at its Talk section, ready; its toasts recorded. */
async function tab(context: BrowserContext, denyMicrophone: boolean): Promise<Page> {
  const page = await court.tab(context, async (opened) => {
    await installCallProbe(opened, { denyMicrophone });
    await installStatusRecorder(opened);
  });
  await talk(page).section.scrollIntoViewIfNeeded();
  await expect(talk(page).status).toHaveText('Ready to chat');
  return page;
}

/**
 * The page's requests for a voice place and its give-backs, in order: when each went, and when
 * its answer came (the place is held from the gate's admission, just before its answer).
 */
function placeRequests(page: Page) {
  const seen: { method: string; at: number; answeredAt: number | null; status: number | null }[] =
    [];
  const isPlace = (request: Request) =>
    /^\/api\/calls(\/[^/]+)?$/.test(new URL(request.url()).pathname);
  page.on('request', (request: Request) => {
    if (isPlace(request)) {
      seen.push({ method: request.method(), at: Date.now(), answeredAt: null, status: null });
    }
  });
  page.on('response', (response) => {
    const request = response.request();
    if (!isPlace(request)) return;
    const entry = seen.find((one) => one.method === request.method() && one.answeredAt === null);
    if (entry) {
      entry.answeredAt = Date.now();
      entry.status = response.status();
    }
  });
  return seen;
}

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The boxes of `locators` (each visible) that `cover` overlaps, by name, with their boxes. */
async function covered(cover: Box, locators: Record<string, Locator>): Promise<string[]> {
  const hits: string[] = [];
  for (const [name, locator] of Object.entries(locators)) {
    const box = await locator.boundingBox();
    if (box && overlaps(cover, box)) hits.push(`${name} ${JSON.stringify(box)}`);
  }
  return hits;
}

test('with the microphone refused, Start Talking costs no place: the way to allow it is in view under the status, and the next visitor is admitted at once', async ({
  context,
}) => {
  const refused = await tab(context, true);
  const requests = placeRequests(refused);
  const a = talk(refused);

  await a.start.click();
  await expectToastSeen(refused, FAILED_TO_CONNECT);

  // The way to allow the microphone, under the status: both in view. No call joins without the
  // microphone: writing to Pepa is the way meanwhile.
  const note = a.section.getByRole('note').filter({ hasText: 'microphone is blocked' });
  const write = a.section.getByRole('button', { name: 'Write to Pepa' });
  await expect(note).toBeInViewport({ ratio: 1 });
  await expect(a.status).toBeInViewport({ ratio: 1 });
  await expect(note).toContainText('allow the microphone for this site');
  await expect(write).toBeVisible();
  await expect(a.section.getByRole('button', { name: /instead/i })).toHaveCount(0);

  // The toast, word for word, covers none of it: the status, the note, the buttons.
  const toast = refused
    .locator('[data-sonner-toast]')
    .filter({ hasText: FAILED_TO_CONNECT[0] })
    .first();
  await expect(toast).toContainText(FAILED_TO_CONNECT[1]);
  const toastBox = await toast.boundingBox();
  expect(toastBox).not.toBeNull();
  expect(
    await covered(toastBox as Box, {
      status: a.status,
      note,
      write,
      start: a.start,
    }),
    `what the toast ${JSON.stringify(toastBox)} covers`,
  ).toEqual([]);
  // And at no moment while it showed did it cover the status or a control, or move.
  await toastsGone(refused);
  await expectToasts(refused, [START_FAILED_TOAST]);

  // No place taken (the tap's request may have gone before the microphone was refused), or each
  // place admitted given back within 2 s of its admission: 204. A request still in flight when
  // the microphone was refused is answered first (its place, if any, is then given back).
  await expect
    .poll(() => requests.filter((request) => request.method === 'POST' && !request.status).length)
    .toBe(0);
  const admitted = requests.filter(
    (request) => request.method === 'POST' && request.status === 201,
  );
  await expect
    .poll(() => requests.filter((request) => request.method === 'DELETE' && request.status).length)
    .toBeGreaterThanOrEqual(admitted.length);
  const givenBack = requests.filter((request) => request.method === 'DELETE');
  admitted.forEach((post, index) => {
    const given = givenBack[index];
    expect(given?.status).toBe(204);
    expect((given?.at ?? Infinity) - (post.answeredAt ?? -Infinity)).toBeLessThanOrEqual(2000);
  });

  // The next visitor, on the one place: admitted at once, Listening within a normal start.
  const next = await tab(context, false);
  const pressedAt = Date.now();
  await talk(next).start.click();
  // Connected: 'Listening...' recorded (Pepa may already be speaking when it is read).
  await expect
    .poll(() => statusHistory(next), { timeout: NORMAL_START_MS })
    .toContain('Listening...');
  expect(Date.now() - pressedAt).toBeLessThan(NORMAL_START_MS);
  expect(await statusHistory(next)).not.toContain('Pepa is with other guests.');
  await talk(next).end.click();
  await expect(talk(next).status).toHaveText('Ready to chat');
});
