// Writing to Pepa, the chat itself: Write to Pepa and its openings, the message's limit, a thread
// that keeps its place, a reply streamed and stopped, the seed-phrase shield, a refused message.
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from '@playwright/test';
import { expect, test } from './support/fixtures';
import { talk } from './support/talk';
import {
  CHAT,
  CHAT_PROBLEMS,
  chatPanel,
  event,
  expectAxeClean,
  messagesSent,
  open,
  REPLY,
  routeChats,
  say,
  screenshot,
} from './support/text-chat';
import { PEPA_FIRST_MESSAGE } from '../src/config/pepa-persona';

/** BIP-39's own test vector phrase: public and worthless. */
const PHRASE = 'legal winner thank year wave sausage worth useful legal winner thank yellow';

/** Resolves once the page has not scrolled for ten frames in a row (a smooth scroll has ended). */
async function pageAtRest(page: Page) {
  await page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        let last = window.scrollY;
        let still = 0;
        const frame = () => {
          still = window.scrollY === last ? still + 1 : 0;
          last = window.scrollY;
          if (still >= 10) resolve();
          else requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      }),
  );
}

test.describe('writing to Pepa', () => {
  test.use({ allowedProblems: CHAT_PROBLEMS });

  test("Write to Pepa opens the chat in view: the focus in the field, Pepa's first remark and openings shown; an opening sends", async ({
    page,
  }, testInfo) => {
    const chats = await routeChats(page);
    await open(page);
    const panel = chatPanel(page);
    // A phone taps (its touch fetches the chat's code ahead); a desktop clicks.
    if (testInfo.project.use.hasTouch) await panel.writeToPepa.tap();
    else await panel.writeToPepa.click();
    await expect(panel.field).toBeFocused();
    await expect(panel.field).toBeInViewport();
    await expect(panel.log).toContainText(`Pepa: ${PEPA_FIRST_MESSAGE}`);
    await expect(panel.openings).toBeInViewport();
    // Her first remark is shown, not sent: no message has gone out.
    expect(messagesSent(chats)).toHaveLength(0);
    await screenshot(page, testInfo, 'chat-opened');
    await panel.openings.getByRole('button', { name: 'Who are you?' }).click();
    await expect(panel.log).toContainText('You: Who are you?');
    await expect(panel.log).toContainText(`Pepa: ${REPLY.join('')}`);
    await expect(panel.openings).toBeHidden();
    expect(messagesSent(chats).map((request) => request.body)).toEqual([{ text: 'Who are you?' }]);
    await expect(panel.field).toBeFocused();
    await expectAxeClean(page);
  });

  test('a message past the limit is flagged as it is typed and Send rests; nothing goes out', async ({
    page,
  }) => {
    const chats = await routeChats(page);
    await open(page);
    const panel = chatPanel(page);
    await panel.writeToPepa.click();
    await expect(panel.field).toBeFocused();
    await panel.field.fill('r'.repeat(CHAT.maxMessageChars + 100));
    await expect(talk(page).section.getByTestId('draft-count')).toHaveText('600 / 500');
    await expect(talk(page).section.getByRole('alert')).toContainText('500 characters at most');
    await expect(panel.send).toHaveAttribute('aria-disabled', 'true');
    // Pressed anyway (a resting button still takes a press), and Enter: neither sends.
    await panel.send.click({ force: true });
    await panel.field.press('Enter');
    expect(messagesSent(chats)).toHaveLength(0);
    await expect(panel.field).toHaveValue('r'.repeat(600));
  });

  test('five exchanges move neither the page nor the field: the thread keeps one height and scrolls within itself', async ({
    page,
  }) => {
    await routeChats(page);
    await open(page);
    const panel = chatPanel(page);
    await panel.writeToPepa.click();
    await expect(panel.field).toBeFocused();
    // The press brings the panel into view (the page scrolls there): once it rests, the
    // heading, the thread, the field and Send are all in view.
    await pageAtRest(page);
    for (const part of [panel.heading, panel.field, panel.send]) {
      await expect(part).toBeInViewport({ ratio: 1 });
    }
    const thread = talk(page).section.getByRole('region', { name: 'Conversation' });
    /** Where the field and the thread are on the page, and where the page is scrolled. */
    const place = () =>
      page.evaluate(() => {
        const field = document.querySelector<HTMLElement>('#talk textarea');
        const box = document.querySelector<HTMLElement>(
          '#talk [role="region"][aria-label="Conversation"]',
        );
        return {
          scrollY: Math.round(window.scrollY),
          fieldTop: Math.round((field?.getBoundingClientRect().top ?? NaN) + window.scrollY),
          threadHeight: Math.round(box?.getBoundingClientRect().height ?? NaN),
        };
      });
    const first = await place();
    const seen = [first];
    for (let turn = 1; turn <= 5; turn += 1) {
      // Sent with Enter, as a visitor in the field does: no pointer scrolls the page.
      await panel.field.fill(`Tell me about your pond, part ${turn}.`);
      // Enter sends once the chat has started and her last reply ended: Send no longer rests.
      await expect(panel.send).not.toHaveAttribute('aria-disabled', 'true');
      await panel.field.press('Enter');
      // Pepa's first remark, then each exchange's two.
      await expect(panel.log.getByRole('listitem')).toHaveCount(1 + turn * 2);
      await expect(panel.writing).toHaveCount(0);
      seen.push(await place());
    }
    // Recorded after each reply: one place for everything, from the first to the last.
    expect(seen).toEqual(seen.map(() => first));
    await expect(panel.field).toBeInViewport({ ratio: 1 });
    await expect(panel.field).toBeFocused();
    // The latest entry is in view inside the thread, the first ones scrolled away within it.
    await expect(panel.log.getByRole('listitem').last()).toBeInViewport();
    expect(await thread.evaluate((box) => box.scrollTop)).toBeGreaterThan(0);
  });

  test.describe('with a reply that takes its time', () => {
    let server: Server | null = null;
    let closed = 0;
    const responses: ServerResponse[] = [];

    test.beforeAll(async () => {
      server = createServer((request, response) => {
        response.writeHead(200, {
          'content-type': 'text/event-stream',
          'cache-control': 'no-store',
        });
        let index = 0;
        const timer = setInterval(() => {
          response.write(event({ type: 'words', text: `ribbit${index++} ` }));
        }, 150);
        responses.push(response);
        request.on('close', () => {
          clearInterval(timer);
          closed += 1;
        });
      });
      await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    });

    test.afterAll(async () => {
      for (const response of responses) response.destroy();
      await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    });

    test("Pepa's reply streams in with her writing state; Stop ends it and closes the request", async ({
      page,
    }, testInfo) => {
      const { port } = server?.address() as AddressInfo;
      const chats = await routeChats(page, (route) =>
        route.continue({ url: `http://127.0.0.1:${port}/stream` }),
      );
      await open(page);
      const panel = chatPanel(page);
      await panel.writeToPepa.click();
      await say(page, 'Tell me everything');
      await expect(panel.writing).toContainText('Pepa is writing…');
      await expect(panel.writing).toContainText('ribbit2');
      // Words being written are not in the log: only a finished entry is announced.
      await expect(panel.log).not.toContainText('ribbit0');
      await screenshot(page, testInfo, 'writing');
      const before = closed;
      await panel.stop.click();
      await expect(panel.writing).toBeHidden();
      await expect(panel.log).toContainText('(stopped)');
      await expect(panel.field).toBeFocused();
      await expect.poll(() => closed).toBeGreaterThan(before);
      // Stopped, the message is not sent again.
      expect(messagesSent(chats)).toHaveLength(1);
    });
  });

  test('the seed-phrase shield holds back a typed recovery phrase, says why, and keeps the draft', async ({
    page,
  }) => {
    const chats = await routeChats(page);
    await open(page);
    const panel = chatPanel(page);
    await panel.writeToPepa.click();
    await expect(panel.heading).toBeVisible();
    await say(page, PHRASE);
    await expect(talk(page).section.getByRole('alert')).toContainText('Your message was not sent.');
    await expect(panel.field).toHaveValue(PHRASE);
    await expect(panel.field).toBeFocused();
    expect(messagesSent(chats)).toHaveLength(0);
    await expect(panel.log).not.toContainText('sausage');
  });

  test('a refused message says why and when, keeps the draft and the focus @once', async ({
    page,
  }) => {
    const chats = await routeChats(page, (route) =>
      route.fulfill({
        status: 429,
        headers: { 'retry-after': '12' },
        contentType: 'application/problem+json',
        body: JSON.stringify({ code: 'rate-limited', title: 'Slow down', status: 429 }),
      }),
    );
    await open(page);
    const panel = chatPanel(page);
    await panel.writeToPepa.click();
    await say(page, 'Are you there?');
    await expect(talk(page).section.getByRole('alert')).toHaveText(
      "You're writing faster than the court can read. Try again in 12 s.",
    );
    await expect(panel.field).toHaveValue('Are you there?');
    await expect(panel.field).toBeFocused();
    // Refused, it is sent once: never again on its own.
    expect(messagesSent(chats)).toHaveLength(1);
  });
});
