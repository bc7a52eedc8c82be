// Writing to Pepa beside the voice call: text offered when the court is full or there is no
// microphone, and a place in the voice line offered, taken or lost while the visitor writes.
import type { Request } from '@playwright/test';
import { expectStatusesSeen } from './support/call-probe';
import { expect, test } from './support/fixtures';
import { talk } from './support/talk';
import {
  CHAT,
  CHAT_PROBLEMS,
  chatPanel,
  expectAxeClean,
  messagesSent,
  open,
  REPLY,
  routeChats,
  say,
  screenshot,
} from './support/text-chat';

test.describe('writing to Pepa', () => {
  test.use({ allowedProblems: CHAT_PROBLEMS });

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
