import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page, Request, Route, TestInfo } from '@playwright/test';
import { expectStatusesSeen, installCallProbe } from './support/call-probe';
import { expect, test } from './support/fixtures';
import { talk } from './support/talk';
import { PEPA_FIRST_MESSAGE } from '../src/config/pepa-persona';

/**
 * Writing to Pepa, in the browser: the gate's text operations (and, for the handover, its line)
 * are answered at the network, as the contract says they answer; everything else is the demo.
 */
const FAST = 0.2;
const CHAT = {
  id: 'chat-0123456789abcdef',
  secret: 'chat-secret-0123456789',
  maxMessageChars: 500,
  turnsLeft: 20,
};
/** BIP-39's own test vector phrase: public and worthless. */
const PHRASE = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
/** Where the screenshots go: outside the repository. */
const SHOTS = join(tmpdir(), 'pepa-text-shots');

const event = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;
const REPLY = ['Ribbit! ', 'I am Pepa, ', 'Queen of the Royal Frog Court.'];

function chatPanel(page: Page) {
  const section = talk(page).section;
  return {
    writeToPepa: section.getByRole('button', { name: 'Write to Pepa' }),
    heading: section.getByRole('heading', { name: 'Writing to Pepa' }),
    log: section.getByRole('log', { name: 'Your conversation with Pepa' }),
    field: section.getByRole('textbox', { name: 'Message to Pepa' }),
    openings: section.getByRole('group', { name: 'Ways to begin' }),
    send: section.getByRole('button', { name: 'Send', exact: true }),
    stop: section.getByRole('button', { name: 'Stop', exact: true }),
    writing: section.getByTestId('chat-writing'),
  };
}

/** A request to the gate's text operations, as the page sent it. */
interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
}

interface ChatRoutes {
  /** Every request to the gate's text operations, in order. */
  requests: Sent[];
}

/**
 * The gate's text operations: a chat for every start, an ending for every end, and each message
 * answered by `answer` (a whole stream by default).
 */
async function routeChats(
  page: Page,
  answer: (route: Route) => Promise<void> = (route) =>
    route.fulfill({
      status: 200,
      contentType: 'text/event-stream',
      body: [
        ...REPLY.map((text) => event({ type: 'words', text })),
        event({ type: 'done', turnsLeft: 19 }),
      ].join(''),
    }),
): Promise<ChatRoutes> {
  const requests: Sent[] = [];
  await page.route(
    (url) => url.pathname.startsWith('/api/chats'),
    async (route) => {
      const request = route.request();
      const path = new URL(request.url()).pathname;
      // Read as sent: a request passed on elsewhere reports its new address afterwards.
      requests.push({
        method: request.method(),
        path,
        headers: request.headers(),
        body: request.postDataJSON() as unknown,
      });
      if (request.method() === 'POST' && path === '/api/chats') {
        await route.fulfill({ status: 201, json: { chat: CHAT } });
      } else if (request.method() === 'DELETE') {
        await route.fulfill({ status: 204 });
      } else {
        await answer(route);
      }
    },
  );
  return { requests };
}

const messagesSent = (routes: ChatRoutes) =>
  routes.requests.filter((request) => request.path.endsWith('/messages'));

async function open(page: Page) {
  await installCallProbe(page);
  await page.goto(`/?simScale=${FAST}`);
  await talk(page).section.scrollIntoViewIfNeeded();
  await expect(talk(page).status).toHaveText('Ready to chat');
}

async function say(page: Page, text: string) {
  const panel = chatPanel(page);
  await panel.field.fill(text);
  await panel.send.click();
}

/** Looked at by a person: the panel at this project's width, and on a desktop at 1280 px. */
async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  if (testInfo.project.name === 'desktop') await page.setViewportSize({ width: 1280, height: 900 });
  await talk(page).section.screenshot({
    path: join(SHOTS, `${name}-${testInfo.project.name}.png`),
  });
}

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

async function expectAxeClean(page: Page) {
  expect((await new AxeBuilder({ page }).include('#talk').analyze()).violations).toEqual([]);
}

test.describe('writing to Pepa', () => {
  test.use({
    allowedProblems:
      /status of (503|429|404)|HTTP (503|429) for .*\/api\/(calls|chats)|HTTP 404 for .*\/api\/tickets\//,
  });

  test("Write to Pepa opens the chat in view: the focus in the field, Pepa's first line and openings shown; an opening sends", async ({
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
    // Her first line is shown, not sent: no message has gone out.
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

  test('when the court is full, text is offered at once, and Pepa answers in the chat', async ({
    page,
  }, testInfo) => {
    await page.route('**/api/calls', (route) =>
      route.fulfill({
        status: 503,
        headers: { 'retry-after': '60' },
        contentType: 'application/problem+json',
        body: JSON.stringify({ code: 'court-full', title: 'Full', status: 503 }),
      }),
    );
    const chats = await routeChats(page);
    await open(page);
    await talk(page).start.click();
    await expect(talk(page).section.getByRole('alert')).toContainText('The court is full');
    await expect(
      talk(page).section.getByText('Pepa still reads what you type while the court is full.'),
    ).toBeVisible();
    const panel = chatPanel(page);
    await panel.writeToPepa.click();
    await expect(panel.heading).toBeVisible();
    await say(page, 'Who are you?');
    await expect(panel.log).toContainText('You: Who are you?');
    await expect(panel.log).toContainText(`Pepa: ${REPLY.join('')}`);
    await expect(panel.field).toHaveValue('');
    await expect(panel.field).toBeFocused();
    const [start] = chats.requests;
    expect(start?.method).toBe('POST');
    expect(start?.body).toEqual({ botCheckToken: 'XXXX.DUMMY.TOKEN.XXXX' });
    expect(messagesSent(chats)).toHaveLength(1);
    expect(messagesSent(chats)[0]?.headers['chat-secret']).toBe(CHAT.secret);
    await expectAxeClean(page);
    await screenshot(page, testInfo, 'court-full-chat');
  });

  test('a visitor without a microphone writes to Pepa from the start, and no microphone is asked for', async ({
    page,
  }, testInfo) => {
    await page.addInitScript(() => {
      const asked = { count: 0 };
      Object.assign(window, { __microphoneAsked: asked });
      navigator.mediaDevices.getUserMedia = () => {
        asked.count += 1;
        return Promise.reject(new DOMException('Requested device not found', 'NotFoundError'));
      };
    });
    await routeChats(page);
    await open(page);
    const panel = chatPanel(page);
    await expect(panel.writeToPepa).toBeVisible();
    await screenshot(page, testInfo, 'idle');
    await panel.writeToPepa.click();
    await expect(panel.heading).toBeVisible();
    await expect(talk(page).status).toHaveText('Ready to chat');
    await say(page, 'Hello, Your Majesty');
    await expect(panel.log).toContainText(REPLY.join(''));
    expect(
      await page.evaluate(
        () =>
          (window as unknown as { __microphoneAsked: { count: number } }).__microphoneAsked.count,
      ),
    ).toBe(0);
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
      // Pepa's first line, then each exchange's two.
      await expect(panel.log.getByRole('listitem')).toHaveCount(1 + turn * 2);
      await expect(panel.writing).toHaveCount(0);
      seen.push(await place());
    }
    // Recorded after each reply: one place for everything, from the first to the last.
    expect(seen).toEqual(seen.map(() => first));
    await expect(panel.field).toBeInViewport({ ratio: 1 });
    await expect(panel.field).toBeFocused();
    // The latest line is in view inside the thread, the first ones scrolled away within it.
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
      // Words being written are not in the log: only a finished line is announced.
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

  test('waiting in line while chatting, the offered place is taken by one tap and the call joins; the chat is back after it', async ({
    page,
  }, testInfo) => {
    let admitted: unknown = null;
    let offers = 0;
    const checkIns: Request[] = [];
    const ticket = (position: number, offered = false) => ({
      status: 'waiting',
      ticket: {
        id: 'ticket-0123456789abcdef',
        secret: 'ticket-secret-0123456789',
        position,
        estimatedWaitSeconds: 30,
        checkInBySeconds: 20,
      },
      retryAfterSeconds: 1,
      ...(offered ? { offered: true } : {}),
    });
    // The gate admits the call for real (its room is the demo's), and the page is told to wait.
    await page.route('**/api/calls', async (route) => {
      const response = await route.fetch();
      admitted = await response.json();
      await route.fulfill({ status: 202, json: ticket(2) });
    });
    await page.route('**/api/tickets/*', async (route) => {
      const request = route.request();
      checkIns.push(request);
      const offer = new URL(request.url()).searchParams.get('offer') === 'true';
      const chatting = request.headers()['chat-id'] === CHAT.id;
      if (offer) offers += 1;
      // The tap: a check-in with the chat and without offer takes the held place.
      if (chatting && !offer) await route.fulfill({ status: 201, json: admitted });
      else await route.fulfill({ status: 200, json: ticket(offer ? 1 : 2, offers >= 2) });
    });
    const chats = await routeChats(page);
    await open(page);
    await talk(page).start.click();
    await expect(talk(page).status).toHaveText('Pepa is with other guests.');
    await expect(talk(page).section.getByText(/^You're 2nd in line/)).toBeVisible();
    const panel = chatPanel(page);
    await panel.writeToPepa.click();
    await say(page, 'I am next, I hope');
    await expect(panel.log).toContainText(REPLY.join(''));

    const take = talk(page).section.getByRole('button', { name: 'Your turn: talk to Pepa' });
    await expect(take).toBeVisible();
    await expect(talk(page).section.getByText(/^Your place is held for \d+ s\.$/)).toBeVisible();
    await expectAxeClean(page);
    await screenshot(page, testInfo, 'offered');
    await take.click();
    await expectStatusesSeen(page, ['Listening...']);
    await expect(panel.heading).toBeHidden();
    const tap = checkIns.at(-1);
    expect(new URL(tap?.url() ?? '').searchParams.get('offer')).toBeNull();
    expect(tap?.headers()['chat-id']).toBe(CHAT.id);
    expect(tap?.headers()['chat-secret']).toBe(CHAT.secret);

    await talk(page).end.click();
    await expect(talk(page).status).toHaveText('Ready to chat');
    await expect(panel.heading).toBeVisible();
    await expect(panel.log).toContainText('I am next, I hope');
    expect(chats.requests.filter((request) => request.method === 'DELETE')).toHaveLength(0);
  });

  test('an offered place not taken in time goes to the next guest: the visitor is told and keeps chatting @once', async ({
    page,
  }) => {
    const ticket = (offered: boolean) => ({
      status: 'waiting',
      ticket: {
        id: 'ticket-0123456789abcdef',
        secret: 'ticket-secret-0123456789',
        position: 1,
        estimatedWaitSeconds: 10,
        checkInBySeconds: 2,
      },
      retryAfterSeconds: 1,
      ...(offered ? { offered: true } : {}),
    });
    let offers = 0;
    await page.route('**/api/calls', (route) =>
      route.fulfill({ status: 202, json: ticket(false) }),
    );
    await page.route('**/api/tickets/*', async (route) => {
      const offer = new URL(route.request().url()).searchParams.get('offer') === 'true';
      if (!offer) return route.fulfill({ status: 200, json: ticket(false) });
      offers += 1;
      // Held once; the check-in after the hold hears the place is gone.
      if (offers === 1) return route.fulfill({ status: 200, json: ticket(true) });
      return route.fulfill({
        status: 404,
        contentType: 'application/problem+json',
        body: JSON.stringify({ code: 'ticket-gone', title: 'Gone', status: 404 }),
      });
    });
    await routeChats(page);
    await open(page);
    const panel = chatPanel(page);
    await panel.writeToPepa.click();
    await expect(panel.heading).toBeVisible();
    await talk(page).start.click();
    const take = talk(page).section.getByRole('button', { name: 'Your turn: talk to Pepa' });
    await expect(take).toBeVisible();
    await expect(take).toBeHidden();
    await expect(
      talk(page).section.getByText(
        'Your place in the voice line went to the next guest. Keep typing: Pepa is still reading.',
      ),
    ).toBeVisible();
    await expect(talk(page).status).toHaveText('Ready to chat');
    await say(page, 'Still here');
    await expect(panel.log).toContainText(REPLY.join(''));
  });
});
