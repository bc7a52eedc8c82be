import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { callResources, expectStatusesSeen, installCallProbe } from './support/call-probe';
import { expect, test } from './support/fixtures';
import { reviewShots } from './support/screenshot';
import { talk } from './support/talk';

/** The simulated room, twice as fast: every step, in order. */
const FAST = 0.5;

/** Records every partial caption that appeared, however briefly. */
async function recordPartials(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __partials: string[] }).__partials = seen;
    document.addEventListener('DOMContentLoaded', () => {
      new MutationObserver(() => {
        for (const element of document.querySelectorAll('[data-testid="partial-caption"]')) {
          const text = element.textContent ?? '';
          if (text && seen[seen.length - 1] !== text) seen.push(text);
        }
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
  });
}

async function open(page: Page, query = '', options: { denyMicrophone?: boolean } = {}) {
  await installCallProbe(page, options);
  await recordPartials(page);
  await page.goto(`/?${[`simScale=${FAST}`, query].filter(Boolean).join('&')}`);
  await talk(page).section.scrollIntoViewIfNeeded();
  await expect(talk(page).status).toHaveText('Ready to chat');
}

/** The captions in order, as the visitor reads them. */
function captionTexts(page: Page) {
  return talk(page).captions.locator('p:not([aria-hidden])').allTextContents();
}

/** Pepa answered `message`: a remark of hers comes after it. */
async function expectAnswered(page: Page, message: string) {
  await expect
    .poll(
      async () => {
        const shown = await captionTexts(page);
        const asked = shown.indexOf(`You: ${message}`);
        return asked >= 0 && shown.slice(asked + 1).some((text) => text.startsWith('Pepa: '));
      },
      { timeout: 15_000 },
    )
    .toBe(true);
}

async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).include('#talk').analyze();
  expect(results.violations).toEqual([]);
}

const shot = reviewShots('visitor', { animations: 'disabled' });

test.describe("the visitor's Pepa", () => {
  test('says who hears the voice before the microphone opens, and links to the privacy section', async ({
    page,
  }, testInfo) => {
    await open(page);
    const { section, start } = talk(page);
    const notice = section.getByText(/Your voice is processed by Vapi/);
    await expect(notice).toContainText('Calls are not recorded.');
    await expect(start).toHaveAccessibleDescription(/Your voice is processed by Vapi/);
    await shot(page, testInfo, 'notice');
    await expectNoAxeViolations(page);

    await section.getByRole('link', { name: 'Privacy' }).click();
    const privacy = page.getByRole('region', { name: 'Privacy' });
    await expect(privacy).toBeInViewport();
    await expect(privacy).toContainText('only after you press Start Talking');
  });

  test('a call with captions as they form, time left, connection and devices; typing to Pepa; the transcript kept after', async ({
    page,
    context,
  }, testInfo) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write', 'microphone']);
    await open(page);
    const { section, start, end, captions, typeField } = talk(page);
    await start.click();
    await expectStatusesSeen(page, ['Connecting to Pepa...', 'Listening...']);

    // The finished entry (not the dimmed partial): the greeting has landed.
    await expect(
      captions.locator('p:not([aria-hidden])').filter({ hasText: 'Ribbit! Welcome to my court' }),
    ).toBeVisible();

    // The limit as time left, and how the connection is.
    await expect(section.locator('[data-call-timer]')).toHaveText(/^0[23]:\d\d left$/);
    await expect(section.getByRole('img', { name: 'Connection: good' })).toBeVisible();

    // Fake devices: the microphone can be switched mid-call.
    const microphones = await page.evaluate(
      async () =>
        (await navigator.mediaDevices.enumerateDevices()).filter(
          (device) => device.kind === 'audioinput' && device.deviceId !== '',
        ).length,
    );
    expect(microphones).toBeGreaterThan(1);
    const picker = section.getByRole('combobox', { name: 'Microphone' });
    await expect(picker).toBeVisible();
    const second = await picker.locator('option').nth(1).getAttribute('value');
    await picker.selectOption(second ?? '');
    await expect.poll(async () => (await callResources(page)).tracks).toBeGreaterThan(1);
    expect((await callResources(page)).liveTracks).toBe(1);

    await typeField.fill('Should I buy?');
    await typeField.press('Enter');
    await expect(captions.getByText('You: Should I buy?', { exact: true })).toBeVisible();
    await expectAnswered(page, 'Should I buy?');
    // Pepa's words form before her remarks land: a dimmed start of one of her finished entries was
    // shown first. In the fast room an entry's partial comes 300-600 ms before its final, and a
    // renderer the busy machine holds back that long draws only the final, so the check takes
    // every remark she has said by now (the greeting, her answers), not the greeting alone.
    const pepaRemarks = (await captionTexts(page)).filter((remark) => remark.startsWith('Pepa: '));
    const formed = (
      await page.evaluate(() => (window as unknown as { __partials: string[] }).__partials)
    )
      .filter((text) => text.startsWith('Pepa: ') && text.endsWith('…'))
      .map((text) => text.slice(0, -1));
    expect(
      formed.some((start) =>
        pepaRemarks.some((remark) => remark.startsWith(start) && remark !== start),
      ),
      `partials ${JSON.stringify(formed)}; remarks ${JSON.stringify(pepaRemarks)}`,
    ).toBe(true);
    // Phone first: the status, the controls and the latest caption fit on one screen below the
    // navigation bar (4rem), so a visitor never scrolls to follow the call.
    const span = await page.evaluate(() => {
      const talkSection = document.querySelector('#talk');
      const top = talkSection?.querySelector('[role="status"]')?.getBoundingClientRect().top ?? 0;
      const entries = talkSection?.querySelectorAll('[role="log"] p') ?? [];
      const last = entries[entries.length - 1]?.getBoundingClientRect();
      const log = talkSection?.querySelector('[role="log"]')?.getBoundingClientRect();
      // The newest entry as shown: the log scrolls, so it ends at the log's bottom at most.
      const bottom = Math.min(last?.bottom ?? 0, log?.bottom ?? 0);
      return { needed: bottom - top, available: window.innerHeight - 64 };
    });
    expect(span.needed).toBeLessThanOrEqual(span.available);
    await section.getByRole('status').scrollIntoViewIfNeeded();
    await shot(page, testInfo, 'in-call');
    await expectNoAxeViolations(page);

    // Everything the call showed must fit the screen without sideways scroll.
    const width = await page.evaluate(() => ({
      scroll: document.scrollingElement?.scrollWidth ?? 0,
      client: document.documentElement.clientWidth,
    }));
    expect(width.scroll).toBeLessThanOrEqual(width.client);

    await end.click();
    await expect(talk(page).status).toHaveText('Ready to chat');
    const transcript = section.getByRole('region', { name: 'Transcript' });
    await expect(transcript).toContainText('You: Should I buy?');
    await expect(transcript).toContainText('Pepa: Ribbit! Welcome to my court.');
    await section.getByRole('button', { name: 'Copy transcript' }).click();
    await expect(section.getByTestId('transcript-announcement')).toHaveText('Transcript copied');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    // The whole conversation as shown, one line per turn; the copy says which were typed.
    expect(copied.replace(/^You \(typed\):/gm, 'You:')).toBe(
      (await transcript.locator('p').allTextContents()).join('\n'),
    );
    expect(copied).toContain('You (typed): Should I buy?');
    expect(copied).toContain(
      "Pepa: Ribbit! Welcome to my court. I'm Pepa. What shall we talk about?",
    );

    const download = page.waitForEvent('download');
    await section.getByRole('button', { name: 'Download transcript' }).click();
    expect((await download).suggestedFilename()).toBe('pepa-conversation.txt');
    await transcript.scrollIntoViewIfNeeded();
    await shot(page, testInfo, 'transcript');
    await expectNoAxeViolations(page);
    expect((await callResources(page)).liveTracks).toBe(0);
  });

  test('a visitor whose microphone is refused writes to Pepa instead: the text chat, no call without the microphone', async ({
    page,
  }, testInfo) => {
    await open(page, '', { denyMicrophone: true });
    const { section, start, captions } = talk(page);
    await start.click();
    await expect(talk(page).status).toHaveText('Ready to chat');
    // No typing-only call is offered: the one way to type is the text chat.
    await expect(section.getByRole('button', { name: /instead|write back/i })).toHaveCount(0);
    const field = section.getByRole('textbox', { name: 'Message to Pepa' });
    const write = section.getByRole('button', { name: 'Write to Pepa' });
    if (!(await field.isVisible())) await write.click();
    await expect(field).toBeFocused();
    await shot(page, testInfo, 'write-instead');
    await field.fill('Hello from the train');
    await field.press('Enter');
    const log = section.getByRole('log', { name: 'Your conversation with Pepa' });
    await expect(log).toContainText('You: Hello from the train');
    await expect(log.locator('[data-thread-entry]')).toHaveCount(3, { timeout: 30_000 });
    await expect(captions).toHaveCount(0);
    await expectNoAxeViolations(page);
    // No microphone is open, and no call joined.
    expect((await callResources(page)).tracks).toBe(0);
  });
});
