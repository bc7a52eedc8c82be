import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page, TestInfo } from '@playwright/test';
import type { Card } from '../generated/gate/types.gen';
import { installCallProbe } from './support/call-probe';
import { expect, test } from './support/fixtures';
import { saveScreenshot } from './support/screenshot';
import { talk } from './support/talk';

/**
 * Sharing Pepa's words, against the demo as `npm start` runs it: the gate makes each card from
 * what the stand-in provider says she said (a chat's output, a simulated call's record), and its
 * share page is served by the gate.
 */
const FAST = 0.5;
const CONNECTED = /^(Listening\.\.\.|Pepa is speaking\.\.\.)$/;
const SHARE = /^Share this remark of Pepa's/;
/** Where the screenshots go: outside the repository. */
const SHOTS = join(tmpdir(), 'pepa-share-shots');

async function open(page: Page) {
  await installCallProbe(page);
  await page.goto(`/?simScale=${FAST}`);
  await talk(page).section.scrollIntoViewIfNeeded();
  await expect(talk(page).status).toHaveText('Ready to chat');
}

function shareDialog(page: Page) {
  const dialog = page.getByRole('dialog', { name: "Share Pepa's words" });
  return {
    dialog,
    image: dialog.getByRole('img'),
    x: dialog.getByRole('link', { name: /^Post on X/ }),
    telegram: dialog.getByRole('link', { name: /^Share on Telegram/ }),
    link: dialog.getByRole('textbox', { name: 'Link to your card' }),
    retry: dialog.getByRole('button', { name: 'Try again' }),
  };
}

/** The card the gate answered the next `POST /api/cards` with, once it is made. */
function nextCard(page: Page): Promise<Card> {
  return page
    .waitForResponse(
      (response) =>
        new URL(response.url()).pathname === '/api/cards' &&
        response.request().method() === 'POST' &&
        response.ok(),
      { timeout: 45_000 },
    )
    .then((response) => response.json() as Promise<Card>);
}

/**
 * Presses a Share button and waits for the card: a remark the provider has not written down yet
 * is asked for again once the dialog lets the visitor.
 */
async function shareLine(page: Page, button: Locator): Promise<Card> {
  const card = nextCard(page);
  await button.click();
  const { dialog, image, retry } = shareDialog(page);
  await expect(dialog).toBeVisible();
  await expect(dialog).toBeFocused();
  for (let attempt = 0; attempt < 10; attempt += 1) {
    await expect(image.or(retry)).toBeVisible({ timeout: 20_000 });
    if (await image.isVisible()) break;
    await expect(retry).not.toHaveAttribute('aria-disabled', 'true', { timeout: 20_000 });
    await retry.click();
  }
  return card;
}

/** The preview is the card's own image, loaded, with her words as its text alternative. */
async function expectPreview(page: Page, card: Card) {
  const { dialog, image, x, telegram, link } = shareDialog(page);
  await expect(image).toHaveAttribute('src', card.imageUrl);
  await expect(image).toHaveAttribute('alt', card.words);
  await expect
    .poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth))
    .toBe(1200);
  await expect(dialog).toContainText(card.words);
  expect(new URL(card.pageUrl).pathname).toBe(`/q/${card.id}`);

  const xUrl = new URL((await x.getAttribute('href')) ?? '');
  expect(`${xUrl.origin}${xUrl.pathname}`).toBe('https://x.com/intent/tweet');
  expect(xUrl.searchParams.get('url')).toBe(card.pageUrl);
  expect(xUrl.searchParams.get('text')).toContain('Pepa');
  const telegramUrl = new URL((await telegram.getAttribute('href')) ?? '');
  expect(`${telegramUrl.origin}${telegramUrl.pathname}`).toBe('https://t.me/share/url');
  expect(telegramUrl.searchParams.get('url')).toBe(card.pageUrl);
  for (const shareLink of [x, telegram]) {
    await expect(shareLink).toHaveAttribute('target', '_blank');
    await expect(shareLink).toHaveAttribute('rel', 'noopener noreferrer');
  }
  await expect(link).toHaveValue(card.pageUrl);
}

async function expectAxeClean(page: Page, ...parts: string[]) {
  let builder = new AxeBuilder({ page });
  for (const part of parts) builder = builder.include(part);
  expect((await builder.analyze()).violations).toEqual([]);
}

/** Looked at by a person: at this project's width, and on a desktop at 1280 px. */
async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  if (testInfo.project.name === 'desktop') await page.setViewportSize({ width: 1280, height: 900 });
  const width = page.viewportSize()?.width ?? 0;
  await saveScreenshot(page, join(SHOTS, `${name}-${width}.png`));
}

/** Types a message to Pepa in the demo's chat and waits for her whole reply. */
async function chatWithPepa(page: Page, text: string): Promise<Locator> {
  const section = talk(page).section;
  await section.getByRole('button', { name: 'Write to Pepa' }).click();
  const log = section.getByRole('log', { name: 'Your conversation with Pepa' });
  const field = section.getByRole('textbox', { name: 'Message to Pepa' });
  await field.fill(text);
  await section.getByRole('button', { name: 'Send', exact: true }).click();
  await expect(log.getByRole('button', { name: SHARE })).toHaveCount(1, { timeout: 30_000 });
  return log;
}

test.describe("sharing Pepa's words", () => {
  test('from a text conversation: the card of her reply, its preview, and the links carry its page', async ({
    page,
  }, testInfo) => {
    await open(page);
    const log = await chatWithPepa(page, 'Who rules the pond?');
    const share = log.getByRole('button', { name: SHARE });
    const card = await shareLine(page, share);
    await expectPreview(page, card);
    await expectAxeClean(page, '#talk', '[role="dialog"]');
    await screenshot(page, testInfo, 'dialog-chat');

    // Escape closes the dialog, not the chat, and the focus is back on Share.
    await page.keyboard.press('Escape');
    await expect(shareDialog(page).dialog).toHaveCount(0);
    await expect(share).toBeFocused();
    await expect(log).toBeVisible();
  });

  test('from a voice call: during it the dialog leaves the call on, and after it the transcript shares her remark', async ({
    page,
  }, testInfo) => {
    await open(page);
    await talk(page).start.click();
    await expect(talk(page).status).toHaveText(CONNECTED, { timeout: 15_000 });
    const captions = talk(page).captions;
    const greeting = captions.getByRole('button', { name: SHARE }).first();
    await expect(greeting).toBeVisible({ timeout: 15_000 });

    // Mid-call the line may not be written down yet: either way, Escape closes the dialog only.
    await greeting.click();
    const { dialog, image } = shareDialog(page);
    await expect(dialog).toBeVisible();
    await expect(image.or(dialog.getByRole('alert'))).toBeVisible({ timeout: 20_000 });
    await page.keyboard.press('Escape');
    await expect(dialog).toHaveCount(0);
    await expect(greeting).toBeFocused();
    await expect(talk(page).end).toBeVisible();
    await expect(talk(page).status).toHaveText(CONNECTED);

    await talk(page).end.click();
    await expect(talk(page).status).toHaveText('Ready to chat', { timeout: 15_000 });
    const transcript = talk(page).transcript;
    const first = transcript.getByRole('button', { name: SHARE }).first();
    const card = await shareLine(page, first);
    await expectPreview(page, card);
    await expect(shareDialog(page).dialog).toContainText('Ribbit');
    await expectAxeClean(page, '#talk', '[role="dialog"]');
    await screenshot(page, testInfo, 'dialog-call');
    await shareDialog(page).dialog.getByRole('button', { name: 'Close' }).click();
    await expect(first).toBeFocused();
  });

  test("a card's share page: the card, her words and the tags that unfurl it", async ({
    page,
  }, testInfo) => {
    await open(page);
    const log = await chatWithPepa(page, 'Say something royal.');
    const card = await shareLine(page, log.getByRole('button', { name: SHARE }));
    // A page with no script: nothing hydrates, so the load is waited for as a bot's would be.
    const response = await page.goto(card.pageUrl, { waitUntil: 'domcontentloaded' });
    expect(response?.status()).toBe(200);
    await expect(page).toHaveURL(card.pageUrl);
    expect(await page.locator('script').count()).toBe(0);
    const tag = (property: string) =>
      page.locator(`meta[property="${property}"], meta[name="${property}"]`);
    await expect(tag('og:image')).toHaveAttribute('content', /^https?:\/\/.+\/card\.png$/);
    await expect(tag('twitter:card')).toHaveAttribute('content', 'summary_large_image');
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', card.pageUrl);
    const image = page.getByRole('img', { name: card.words });
    await expect(image).toBeVisible();
    await expect
      .poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth))
      .toBe(1200);
    // A court record: the card once, her words once (the card's, said by its text alternative),
    // who Pepa is, and the way to her; the card starts at the top of the screen, in the site's
    // faces.
    await expect(page.getByRole('img')).toHaveCount(1);
    await expect(page.locator('body')).not.toContainText(card.words.slice(0, 40));
    await expect(page.locator('body')).not.toContainText(/pepa said/i);
    await expect(
      page.getByText(/^Pepa is the AI frog queen of \$PEPA, a meme token/),
    ).toBeVisible();
    await expect(page.getByRole('link', { name: 'Talk to Pepa' })).toHaveAttribute(
      'href',
      '/#talk',
    );
    expect((await image.boundingBox())?.y).toBeLessThan(120);
    await expect
      .poll(() =>
        page.evaluate(async () => {
          await document.fonts.ready;
          return [...document.fonts]
            .filter((face) => face.status === 'loaded')
            .map((face) => face.family.replaceAll('"', ''))
            .sort();
        }),
      )
      .toEqual(['Cinzel', 'Inter']);
    await expectAxeClean(page);
    await screenshot(page, testInfo, 'share-page');
  });
});
