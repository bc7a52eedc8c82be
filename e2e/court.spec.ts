import AxeBuilder from '@axe-core/playwright';
import type { Page, Request } from '@playwright/test';
import { DOUBLE_TAP_MS } from '../src/features/talk/section/double-tap';
import { FOREIGN_LINK, LOOK_ALIKE_ADDRESS } from '../src/lib/call/test/simulator-remarks';
import {
  callResources,
  expectStatusesSeen,
  installCallProbe,
  waitPastDoubleTap,
} from './support/call-probe';
import { expect, test, waitForHydration } from './support/fixtures';
import { providerCall } from './support/provider-calls';
import { reviewShots } from './support/screenshot';
import { MOCK_PORT } from './support/site';
import { talk } from './support/talk';

/** The simulated room, twice as fast: every step, in order. */
const FAST = 0.5;
/** BIP-39's own test vector phrase: public and worthless. */
const PHRASE = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
/** What the page must never show, once seen anywhere in the document's text. */
const NEVER_SHOWN = [LOOK_ALIKE_ADDRESS.slice(0, 24), 'pepa-airdrop', 'sausage'];

declare global {
  interface Window {
    __court?: {
      /** Sections Pepa highlighted, in order. */
      shown: string[];
      /** Turn cues, in order (repeats merged). */
      cues: string[];
      /** Forbidden text that appeared in the document, however briefly. */
      leaks: string[];
    };
  }
}

/** Records, as it happens: highlighted sections, turn cues and any forbidden text shown. */
async function installCourtRecorder(page: Page) {
  await page.addInitScript((never: string[]) => {
    const record = { shown: [] as string[], cues: [] as string[], leaks: [] as string[] };
    window.__court = record;
    document.addEventListener('DOMContentLoaded', () => {
      new MutationObserver((mutations) => {
        for (const mutation of mutations) {
          const target = mutation.target;
          if (
            mutation.type === 'attributes' &&
            target instanceof Element &&
            mutation.attributeName === 'data-pepa-shown' &&
            target.hasAttribute('data-pepa-shown')
          ) {
            record.shown.push(target.id);
          }
        }
        const cue = document.querySelector('[data-testid="turn-cue"]')?.getAttribute('data-cue');
        if (cue && record.cues[record.cues.length - 1] !== cue) record.cues.push(cue);
        const text = document.body.textContent ?? '';
        for (const word of never) if (text.includes(word)) record.leaks.push(word);
      }).observe(document.body, {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
        attributeFilter: ['data-pepa-shown', 'data-cue'],
      });
    });
  }, NEVER_SHOWN);
}

function court(page: Page) {
  return page.evaluate(() => window.__court ?? { shown: [], cues: [], leaks: [] });
}

/** Every request to the ratings route, answered as `answer` says. */
async function routeRatings(page: Page, answer: { status: number } = { status: 204 }) {
  const requests: Request[] = [];
  await page.route('**/api/ratings', async (route) => {
    requests.push(route.request());
    await route.fulfill({ status: answer.status, body: '' });
  });
  return requests;
}

async function open(page: Page, query = '') {
  await installCallProbe(page);
  await installCourtRecorder(page);
  await page.goto(`/?${[`simScale=${FAST}`, query].filter(Boolean).join('&')}`);
  await talk(page).section.scrollIntoViewIfNeeded();
  await expect(talk(page).status).toHaveText('Ready to chat');
}

/** Starts a call and waits for Pepa's greeting to land; resolves to the call's id. */
async function connect(page: Page): Promise<string> {
  const created = page.waitForResponse(
    (response) => response.request().method() === 'POST' && response.url().endsWith('/api/calls'),
  );
  await talk(page).start.click();
  // The court gate admits at once here (nobody else is talking): its answer carries the call.
  const {
    call: { id },
  } = (await (await created).json()) as { call: { id: string } };
  await expectStatusesSeen(page, ['Connecting to Pepa...', 'Listening...']);
  await expect(
    talk(page).captions.locator('p:not([aria-hidden])').filter({ hasText: 'Ribbit! Welcome' }),
  ).toBeVisible();
  return id;
}

async function say(page: Page, message: string) {
  const { typeField, send } = talk(page);
  await typeField.fill(message);
  await send.click();
}

async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).include('#talk').analyze();
  expect(results.violations).toEqual([]);
}

const shot = reviewShots('court', { animations: 'disabled' });

test.describe("Pepa's court", () => {
  test('Pepa shows the Pond when asked where to stake: scrolled, highlighted, answered once', async ({
    page,
  }, testInfo) => {
    // A test of motion: the tour glides to the Pond (the suite's pages otherwise prefer reduced
    // motion, under which the test below has it jump).
    await page.emulateMedia({ reducedMotion: 'no-preference' });
    await open(page);
    await connect(page);
    // Muted, so the fake microphone takes no turns: the typed message is the only question.
    await talk(page).section.getByRole('button', { name: 'Mute' }).click();
    await say(page, 'Where do I stake?');

    const pond = page.locator('#pond');
    await expect.poll(async () => (await court(page)).shown).toEqual(['pond']);
    await expect(pond).toBeInViewport();
    await expect(pond).toBeFocused();
    // The glide has ended once the Pond holds still between two looks.
    let lastTop = Number.NaN;
    await expect
      .poll(async () => {
        const top = await pond.evaluate((element) => element.getBoundingClientRect().top);
        const still = top === lastTop;
        lastTop = top;
        return still;
      })
      .toBe(true);
    await shot(page, testInfo, 'tour');
    // Pepa answered with her words for the Pond, and the page's silent note drew no reply of its
    // own: once she is quiet, she has said one remark per message of the visitor's, besides the
    // greeting.
    const captions = talk(page).captions.locator('p:not([aria-hidden])');
    await expect(captions.filter({ hasText: 'Hop over to my pond!' })).toHaveCount(1);
    await expect(pond).not.toHaveAttribute('data-pepa-shown');
    await expect
      .poll(async () => {
        const shown = await captions.allTextContents();
        const forming = await talk(page).captions.getByTestId('partial-caption').count();
        const pepa = shown.filter((entry) => entry.startsWith('Pepa: ')).length;
        const visitor = shown.filter((entry) => entry.startsWith('You: ')).length;
        return forming === 0 && (await talk(page).status.textContent()) === 'Listening...'
          ? pepa - 1 - visitor
          : 'still talking';
      })
      .toBe(0);
    await talk(page).section.scrollIntoViewIfNeeded();
    await expectNoAxeViolations(page);
  });

  test('under reduced motion the tour jumps instead of gliding, and the portrait stays still', async ({
    page,
  }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await open(page);
    await connect(page);
    await say(page, 'Show me the secret grotto');
    await expect.poll(async () => (await court(page)).shown).toEqual(['grotto']);
    await expect(page.locator('#grotto')).toBeInViewport();
    const portrait = talk(page).section.locator('[data-portrait]');
    await expect.poll(() => portrait.evaluate((el) => getComputedStyle(el).transform)).toBe('none');
  });

  test('the contract card comes from the site with Copy, and the Buy button waits for the visitor', async ({
    page,
    context,
  }, testInfo) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write', 'microphone']);
    await open(page);
    await connect(page);
    await say(page, 'What is the contract address?');
    const { card } = talk(page);
    await expect(card).toBeVisible();
    const address = await card.getByTestId('official-address').textContent();
    expect(address).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/);
    await card.getByRole('button', { name: 'Copy the official contract address' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(address);

    await say(page, 'How do I buy $PEPA?');
    const buy = card.getByRole('link', { name: 'Buy $PEPA' });
    await expect(buy).toBeVisible();
    await expect(buy).toHaveAttribute('target', '_blank');
    await expect(buy).toHaveAttribute('rel', 'noopener noreferrer');
    expect(context.pages()).toHaveLength(1);
    await card.scrollIntoViewIfNeeded();
    await shot(page, testInfo, 'contract-card');
    await expectNoAxeViolations(page);
  });

  test("a look-alike address or a foreign link in Pepa's captions never shows; the note points to the card", async ({
    page,
  }, testInfo) => {
    await open(page, 'sim=hostile-caption');
    await connect(page);
    const { captions, section, card } = talk(page);
    await expect(captions).toContainText('[address hidden]');
    await expect(captions).toContainText('[link hidden]');
    await expect(
      section.getByText(/official contract address and links are in the card/),
    ).toBeVisible();
    await expect(card.getByTestId('official-address')).toBeVisible();
    await captions.scrollIntoViewIfNeeded();
    await shot(section, testInfo, 'masked');

    await waitPastDoubleTap(page, DOUBLE_TAP_MS);
    await talk(page).end.click();
    await expect(section.getByRole('region', { name: 'Transcript' })).toContainText(
      '[address hidden]',
    );
    expect((await court(page)).leaks).toEqual([]);
    expect(await page.content()).not.toContain(LOOK_ALIKE_ADDRESS.slice(0, 24));
    expect(await page.content()).not.toContain(FOREIGN_LINK);
  });

  test('a typed recovery phrase never leaves the browser: the field keeps it and a warning says why', async ({
    page,
  }, testInfo) => {
    const ratings = await routeRatings(page);
    const logged: string[] = [];
    page.on('console', (message) => logged.push(message.text()));
    await open(page);
    await connect(page);
    const { typeField, send, section, captions } = talk(page);
    await typeField.fill(PHRASE);
    await send.click();

    const warning = section.getByRole('alert');
    await expect(warning).toContainText('Pepa and the $PEPA team will never ask for it');
    await expect(warning).toContainText('Your message was not sent.');
    await expect(typeField).toHaveValue(PHRASE);
    await shot(page, testInfo, 'shield');
    await expect(captions).not.toContainText('sausage');
    const stored = await page.evaluate(() =>
      JSON.stringify({ ...window.localStorage, ...window.sessionStorage, cookie: document.cookie }),
    );
    expect(stored).not.toContain('sausage');
    expect(logged.join('\n')).not.toContain('sausage');
    expect(ratings).toEqual([]);
    expect((await court(page)).leaks).toEqual([]);
    await expectNoAxeViolations(page);
  });

  test('hold to talk: the microphone is live only while held (touch or Space), remembered on the device', async ({
    page,
  }, testInfo) => {
    await open(page);
    await connect(page);
    const { section, captions } = talk(page);
    const modeSwitch = section.getByRole('switch', { name: 'Hold-to-talk mode' });
    await modeSwitch.click();
    await expect(modeSwitch).toHaveAttribute('aria-checked', 'true');
    await expect.poll(async () => (await callResources(page)).enabledTracks).toBe(0);
    await waitPastDoubleTap(page, DOUBLE_TAP_MS);
    await talk(page).end.click();
    await expect(talk(page).status).toHaveText('Ready to chat');

    // Remembered on the device: the next visit's call starts in hold mode, muted from the start
    // (Pepa greets first, so the visitor has taken no turn).
    await page.reload();
    await waitForHydration(page);
    await section.scrollIntoViewIfNeeded();
    await expect(talk(page).status).toHaveText('Ready to chat');
    await connect(page);
    await expect(section.getByRole('switch', { name: 'Hold-to-talk mode' })).toHaveAttribute(
      'aria-checked',
      'true',
    );
    await expect.poll(async () => (await callResources(page)).enabledTracks).toBe(0);
    const visitorCaptions = captions.locator('p:not([aria-hidden])').filter({ hasText: /^You: / });
    await expect(visitorCaptions).toHaveCount(0);

    // Press and hold, as a finger does: the microphone is live, the visitor's turn begins.
    const hold = section.getByRole('button', { name: 'Hold to talk' });
    await expect(hold).toHaveAttribute('aria-pressed', 'false');
    await hold.dispatchEvent('pointerdown', { button: 0, pointerId: 1, pointerType: 'touch' });
    await expect(hold).toHaveAttribute('aria-pressed', 'true');
    await expect.poll(async () => (await callResources(page)).enabledTracks).toBe(1);
    await expect(
      captions.getByTestId('partial-caption').filter({ hasText: /^You: / }),
    ).toBeVisible();
    await shot(page, testInfo, 'hold-to-talk');
    // Released: the microphone is muted and the turn is sent; Pepa answers it.
    await hold.dispatchEvent('pointerup', { button: 0, pointerId: 1, pointerType: 'touch' });
    await expect(hold).toHaveAttribute('aria-pressed', 'false');
    await expect.poll(async () => (await callResources(page)).enabledTracks).toBe(0);
    // (A long hold with pauses can hold several turns.)
    await expect.poll(() => visitorCaptions.count()).toBeGreaterThan(0);
    await expect
      .poll(async () => (await captions.locator('p:not([aria-hidden])').allTextContents()).at(-1))
      .toMatch(/^Pepa: /);

    // Space, with the focus in the panel.
    await hold.focus();
    await page.keyboard.down('Space');
    await expect(hold).toHaveAttribute('aria-pressed', 'true');
    await expect.poll(async () => (await callResources(page)).enabledTracks).toBe(1);
    await page.keyboard.up('Space');
    await expect(hold).toHaveAttribute('aria-pressed', 'false');
    await expect.poll(async () => (await callResources(page)).enabledTracks).toBe(0);
    // No keyboard trap: Tab moves on.
    await page.keyboard.press('Tab');
    await expect(hold).not.toBeFocused();
    await expectNoAxeViolations(page);
  });

  test('thinking made visible: listening, thinking from a sent message to her first audio, speaking', async ({
    page,
  }, testInfo) => {
    await open(page);
    await connect(page);
    // Muted, so the fake microphone takes no turns: the typed message is the visitor's only turn.
    await talk(page).section.getByRole('button', { name: 'Mute' }).click();
    await expect(talk(page).status).toHaveText('Listening...');
    await say(page, 'Tell me a royal secret');
    // Listening first; then a thought that Pepa's voice ends.
    await expect
      .poll(async () => {
        const { cues } = await court(page);
        const answered = cues.findIndex(
          (cue, index) => cue === 'thinking' && cues[index + 1] === 'speaking',
        );
        return answered > 0 && cues.slice(0, answered).includes('listening') ? 'seen' : cues;
      })
      .toBe('seen');
    // The spec's status texts stay word for word beside the cue.
    await expectStatusesSeen(page, ['Listening...', 'Pepa is speaking...', 'Listening...']);
    await shot(talk(page).section, testInfo, 'turn-cue');
  });

  test('a one-tap rating after the call: sent with the call id only, never offered twice', async ({
    page,
  }, testInfo) => {
    const ratings = await routeRatings(page);
    await open(page);
    const callId = await connect(page);
    await waitPastDoubleTap(page, DOUBLE_TAP_MS);
    await talk(page).end.click();
    const { section } = talk(page);
    const rating = section.getByRole('region', { name: 'How was your audience with the Queen?' });
    await expect(rating).toBeVisible();
    await rating.scrollIntoViewIfNeeded();
    await shot(page, testInfo, 'rating');
    await expectNoAxeViolations(page);
    await rating.getByRole('textbox', { name: /A word for the court/ }).fill('Most regal.');
    await rating.getByRole('button', { name: 'Royally delighted' }).click();
    await expect(section.getByText('Thank you! The court has noted it.')).toBeVisible();
    expect(ratings.map((request) => [request.method(), new URL(request.url()).pathname])).toEqual([
      ['POST', '/api/ratings'],
    ]);
    expect(ratings[0]?.postDataJSON()).toEqual({
      callId,
      score: 'delighted',
      comment: 'Most regal.',
    });

    // The next call starts as usual; after it, that call is offered the rating, not this one.
    await waitPastDoubleTap(page, DOUBLE_TAP_MS);
    await connect(page);
    await expect(section.getByText('Thank you! The court has noted it.')).toBeHidden();
    await waitPastDoubleTap(page, DOUBLE_TAP_MS);
    await talk(page).end.click();
    await section.getByRole('button', { name: 'Skip' }).click();
    await expect(rating).toBeHidden();
    expect(ratings).toHaveLength(1);
  });
});

test.describe('a rating the gate refuses @once', () => {
  // The refusal is provoked on purpose.
  test.use({ allowedProblems: /api\/ratings|status of 503/ });

  test('a rating that cannot be sent says so plainly and blocks nothing', async ({ page }) => {
    const ratings = await routeRatings(page, { status: 503 });
    await open(page);
    await connect(page);
    await waitPastDoubleTap(page, DOUBLE_TAP_MS);
    await talk(page).end.click();
    const { section } = talk(page);
    await section.getByRole('button', { name: 'Content' }).click();
    await expect(section.getByRole('alert')).toHaveText(
      'Your rating could not be sent. You can try again, or simply start another call.',
    );
    expect(ratings).toHaveLength(1);
    // The next call starts and connects as usual.
    await waitPastDoubleTap(page, DOUBLE_TAP_MS);
    await connect(page);
    await expect(section.getByRole('alert')).toBeHidden();
  });
});

test("a tab closed mid-call ends the call as the visitor's @once", async ({ page, request }) => {
  await open(page);
  const id = await connect(page);

  // Closed as a visitor closes a tab: the page says goodbye and its room is left, and the
  // provider ends the call as the visitor's (as Daily does when a participant's tab goes).
  await page.close();
  await expect
    .poll(() => providerCall(request, `http://127.0.0.1:${MOCK_PORT}`, id))
    .toEqual({ status: 'ended', endedReason: 'customer-ended-call' });
});
