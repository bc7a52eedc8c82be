import type { BrowserContext, Locator, Page } from '@playwright/test';
import { HANDOVER_OPENING } from '../gate/dev/stand-in-calls.mjs';
import { PEPA_FIRST_MESSAGE } from '../src/config/pepa-persona';
import { expectStatusesSeen, installCallProbe } from './support/call-probe';
import { expect, test } from './support/fixtures';
import { ownCourt } from './support/own-court';
import { reviewShots } from './support/screenshot';
import { talk } from './support/talk';

/**
 * One thread from the first typed word, through the line, into the call: the built demo behind
 * the court gate in workerd and the stand-in provider, with one voice place. The visitor types
 * while another holds the place, takes the place offered, and Pepa picks up from the chat.
 */
const FAST = 0.2;
const court = ownCourt({ places: 1, scale: FAST });

/** A tab on the court, at its Talk section, ready. */
async function tab(context: BrowserContext): Promise<Page> {
  const page = await court.tab(context, installCallProbe);
  await talk(page).section.scrollIntoViewIfNeeded();
  await expect(talk(page).status).toHaveText('Ready to chat');
  return page;
}

/** Each finished entry of a thread as "<how it was said> <the line>", oldest first. */
async function threadTexts(region: Locator): Promise<string[]> {
  return region
    .locator('[data-thread-entry]:not([aria-hidden])')
    .evaluateAll((entries) =>
      entries.map(
        (entry) =>
          `${entry.querySelector('[data-via]')?.getAttribute('aria-label') ?? '?'} ${entry.textContent ?? ''}`,
      ),
    );
}

const screenshot = reviewShots('thread');

test('typed while in line, the chat comes into the call: the typed turns above the spoken ones, and Pepa picks up from the chat', async ({
  context,
}, testInfo) => {
  const first = await tab(context);
  const visitor = await tab(context);
  const section = talk(visitor).section;

  // The only voice place is taken.
  await talk(first).start.click();
  await expectStatusesSeen(first, ['Listening...']);

  await talk(visitor).start.click();
  await expect(talk(visitor).status).toHaveText('Pepa is with other guests.');
  await section.getByRole('button', { name: 'Write to Pepa' }).click();
  const field = section.getByRole('textbox', { name: 'Message to Pepa' });
  await expect(field).toBeFocused();
  await expect(field).toBeInViewport();
  const log = section.getByRole('log', { name: 'Your conversation with Pepa' });
  await field.fill('Who rules the pond?');
  // The chat has started (its bot check and its start answered): Send no longer rests, and
  // Enter sends rather than being held back.
  await expect(section.getByRole('button', { name: 'Send', exact: true })).not.toHaveAttribute(
    'aria-disabled',
    'true',
  );
  await field.press('Enter');
  // Her written answer, finished (Pepa's second remark in the chat, after her first).
  await expect.poll(async () => (await threadTexts(log)).length, { timeout: 30_000 }).toBe(3);
  await screenshot(visitor, testInfo, 'typed-in-line');

  // The place frees; the visitor is offered it and takes it with one tap.
  await talk(first).end.click();
  const take = section.getByRole('button', { name: 'Your turn: talk to Pepa' });
  await expect(take).toBeVisible({ timeout: 30_000 });
  await take.click();
  await expectStatusesSeen(visitor, ['Listening...'], 30_000);

  // In the call: one thread, the typed turns first, then Pepa's first spoken remark, from the chat.
  const captions = talk(visitor).captions;
  await expect
    .poll(async () => (await threadTexts(captions)).some((entry) => entry.startsWith('spoken')), {
      timeout: 30_000,
    })
    .toBe(true);
  const inCall = await threadTexts(captions);
  expect(inCall.slice(0, 4)).toEqual([
    `typed Pepa: ${PEPA_FIRST_MESSAGE}`,
    'typed You: Who rules the pond?',
    expect.stringMatching(/^typed Pepa: \S/),
    `spoken Pepa: ${HANDOVER_OPENING}`,
  ]);
  await screenshot(visitor, testInfo, 'handed-over');

  // After the call: one transcript, the chat's, with the call's entries where they came.
  await talk(visitor).end.click();
  await expect(talk(visitor).status).toHaveText('Ready to chat');
  await expect(section.getByRole('region', { name: 'Transcript' })).toHaveCount(0);
  const after = await threadTexts(log);
  expect(after.slice(0, 4)).toEqual(inCall.slice(0, 4));
  await expect(section.getByRole('button', { name: 'Copy transcript' })).toBeVisible();
  await screenshot(visitor, testInfo, 'after-call');
});
