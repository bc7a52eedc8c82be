// Writing to Pepa, in the browser, for the text-with-pepa specs: the gate's text operations (and,
// for the handover, its line) are answered at the network, as the contract says they answer;
// everything else is the demo. The chat panel's parts, the routed chats, the page opened at the
// Talk section, a message sent, a screenshot of the panel and an axe-core check of it.
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page, Route, TestInfo } from '@playwright/test';
import { installCallProbe } from './call-probe';
import { expect } from './fixtures';
import { saveScreenshot } from './screenshot';
import { talk } from './talk';

const FAST = 0.2;
export const CHAT = {
  id: 'chat-0123456789abcdef',
  secret: 'chat-secret-0123456789',
  maxMessageChars: 500,
  turnsLeft: 20,
};
/** Where the screenshots go: outside the repository. */
const SHOTS = join(tmpdir(), 'pepa-text-shots');

export const event = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;
export const REPLY = ['Ribbit! ', 'I am Pepa, ', 'Queen of the Royal Frog Court.'];

export function chatPanel(page: Page) {
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
export async function routeChats(
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

export const messagesSent = (routes: ChatRoutes) =>
  routes.requests.filter((request) => request.path.endsWith('/messages'));

export async function open(page: Page) {
  await installCallProbe(page);
  await page.goto(`/?simScale=${FAST}`);
  await talk(page).section.scrollIntoViewIfNeeded();
  await expect(talk(page).status).toHaveText('Ready to chat');
}

export async function say(page: Page, text: string) {
  const panel = chatPanel(page);
  await panel.field.fill(text);
  await panel.send.click();
}

/** Looked at by a person: the panel at this project's width, and on a desktop at 1280 px. */
export async function screenshot(page: Page, testInfo: TestInfo, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  if (testInfo.project.name === 'desktop') await page.setViewportSize({ width: 1280, height: 900 });
  await saveScreenshot(talk(page).section, join(SHOTS, `${name}-${testInfo.project.name}.png`));
}

export async function expectAxeClean(page: Page) {
  expect((await new AxeBuilder({ page }).include('#talk').analyze()).violations).toEqual([]);
}

/**
 * What the page may log in these specs: the gate's refusals (a full court, a rate limit) and a
 * place in the line that is gone.
 */
export const CHAT_PROBLEMS =
  /status of (503|429|404)|HTTP (503|429) for .*\/api\/(calls|chats)|HTTP 404 for .*\/api\/tickets\//;
