import { resolve } from 'node:path';
import type { BrowserContext, Page, Request } from '@playwright/test';
import { HANDOVER_OPENING_LINE } from '../gate/dev/stand-in-calls.mjs';
import { startCourtStack } from '../scripts/lib/court-stack.mjs';
import { DEMO_EDGE_LIMIT, demoGateVars } from '../scripts/lib/demo-services.mjs';
import {
  contradictions,
  JOURNEY_STEPS,
  journeyControls,
  LINE_QUESTION,
  quietMicrophone,
  recordedStatusLines,
  recordStatusLines,
  refuseMicrophone,
  STAKE_QUESTION,
  walkJourney,
  walkRefusedMicrophone,
} from '../scripts/lib/journey.mjs';
import { suggestFreePort } from '../scripts/lib/ports.mjs';
import { PEPA_FIRST_MESSAGE } from '../src/config/pepa-persona';
import { expectStatusesSeen, installCallProbe, statusHistory } from './support/call-probe';
import { expect, test } from './support/fixtures';
import { checkStep, type StepSeen } from './support/journey-checks';
import { MOCK_PORT, SITE_DIR } from './support/site';

/**
 * The visitor's whole conversation with Pepa, at both widths, on a court with one voice place
 * (the built demo behind the court gate in workerd and the stand-in provider): first arrival →
 * Talk to Pepa → Write to Pepa → in line while chatting (Escape asks first) → the place offered →
 * into voice, the chat along → Escape asks first → Pepa shows the Pond, the call docked → End Call
 * from the bar → the transcript and the rating. At each step: what is in the viewport, where the
 * focus is, that no two visible lines of state disagree, and axe (e2e/support/journey-checks.ts).
 * The walk itself (scripts/lib/journey.mjs) is the one `npm run screenshots` photographs.
 */
const FAST = 0.2;
const BUILT_STAND_IN = `http://127.0.0.1:${MOCK_PORT}`;

let court: Awaited<ReturnType<typeof startCourtStack>> | null = null;

test.beforeAll(async () => {
  const sitePort = await suggestFreePort(5800);
  const mockPort = await suggestFreePort(4800, [sitePort]);
  court = await startCourtStack({
    sitePort,
    mockPort,
    assetsDir: resolve(import.meta.dirname, '..', SITE_DIR),
    vars: { ...demoGateVars({}), GATE_MAX_CONCURRENT_CALLS: '1' },
    edgeLimit: DEMO_EDGE_LIMIT,
    quiet: true,
  });
});

test.afterAll(async () => {
  await court?.stop();
  court = null;
});

/** This stack's site; the build's word to its stand-in goes to this stack's. */
async function courtUrl(context: BrowserContext): Promise<string> {
  if (!court) throw new Error('The court stack did not start');
  const standIn = court.standInUrl;
  await context.route(`${BUILT_STAND_IN}/__demo/**`, (route) =>
    route.continue({ url: route.request().url().replace(BUILT_STAND_IN, standIn) }),
  );
  return `${court.url}/?simScale=${FAST}`;
}

/** Every set of status lines the page showed, checked: none may disagree with itself. */
async function expectNoContradictionRecorded(page: Page) {
  const record = await recordedStatusLines(page);
  expect(record.length).toBeGreaterThan(3);
  expect(record.flatMap(contradictions)).toEqual([]);
}

test("the whole conversation: chat, line, voice, Pepa's tour, End Call, each step in view, focused and consistent", async ({
  page,
  context,
}, testInfo) => {
  test.setTimeout(240_000);
  const url = await courtUrl(context);
  const holder = await context.newPage();
  await quietMicrophone(page);
  await installCallProbe(page);
  await recordStatusLines(page);

  const seen: StepSeen[] = [];
  await walkJourney({
    visitor: page,
    holder,
    url,
    touch: testInfo.project.use.hasTouch === true,
    at: async (step) => {
      seen.push(await checkStep(page, step, testInfo));
    },
  });
  await testInfo.attach('steps', {
    body: JSON.stringify(seen, null, 2),
    contentType: 'application/json',
  });
  expect(seen.map((step) => step.name)).toEqual(JOURNEY_STEPS);

  // In line: the chat went on (her first line, the question, her answer).
  const line = seen.find((step) => step.name === 'line')?.thread ?? [];
  expect(line.slice(0, 2)).toEqual([
    `typed Pepa: ${PEPA_FIRST_MESSAGE}`,
    `typed You: ${LINE_QUESTION}`,
  ]);

  // In the call: one thread, the typed turns above the spoken ones, and Pepa's first spoken line
  // is the one the stand-in's model wrote from the chat, not the cold welcome.
  const call = seen.find((step) => step.name === 'call')?.thread ?? [];
  const firstSpoken = call.findIndex((entry) => entry.startsWith('spoken '));
  expect(call.slice(0, firstSpoken)).toEqual(line.slice(0, firstSpoken));
  expect(call.slice(0, firstSpoken).every((entry) => entry.startsWith('typed '))).toBe(true);
  expect(call[firstSpoken]).toBe(`spoken Pepa: ${HANDOVER_OPENING_LINE}`);

  // After: one transcript, the chat's and the call's in order, the stake question among them.
  const after = seen.find((step) => step.name === 'ended')?.thread ?? [];
  expect(after.slice(0, firstSpoken + 1)).toEqual(call.slice(0, firstSpoken + 1));
  expect(after).toContainEqual(`typed You: ${STAKE_QUESTION}`);

  // Escape asked and was not answered: the line was kept, and the call went on, until the tap and
  // the bar's End Call.
  const statuses = await statusHistory(page);
  expect(statuses).toEqual(
    expect.arrayContaining(['Pepa is with other guests.', 'Your turn has come.', 'Listening...']),
  );
  expect(
    statuses.slice(
      statuses.indexOf('Pepa is with other guests.'),
      statuses.indexOf('Your turn has come.'),
    ),
  ).not.toContain('Ready to chat');
  await expectStatusesSeen(page, [
    'Ready to chat',
    'Pepa is with other guests.',
    'Listening...',
    'Ready to chat',
  ]);
  await expectNoContradictionRecorded(page);
});

test.describe('a refused microphone', () => {
  test.use({ allowedProblems: /Permission denied|NotAllowedError|microphone/i });

  test('lands in the text chat with the way to allow it in view, holds no place, and the next visitor is admitted at once', async ({
    page,
    context,
  }, testInfo) => {
    const url = await courtUrl(context);
    await refuseMicrophone(page);
    await installCallProbe(page);
    await recordStatusLines(page);
    const calls: { method: string; at: number }[] = [];
    page.on('request', (request: Request) => {
      if (/\/api\/calls(\/|$)/.test(new URL(request.url()).pathname)) {
        calls.push({ method: request.method(), at: Date.now() });
      }
    });

    const seen: StepSeen[] = [];
    await walkRefusedMicrophone({
      visitor: page,
      url,
      touch: testInfo.project.use.hasTouch === true,
      at: async (step) => {
        seen.push(await checkStep(page, step, testInfo));
      },
    });
    expect(seen.map((step) => step.name)).toEqual(['blocked']);

    // No place taken, or each given back within 2 s.
    const posted = calls.filter((call) => call.method === 'POST');
    await expect
      .poll(() => calls.filter((call) => call.method === 'DELETE').length)
      .toBeGreaterThanOrEqual(posted.length);
    const deleted = calls.filter((call) => call.method === 'DELETE');
    posted.forEach((post, index) =>
      expect((deleted[index]?.at ?? Infinity) - post.at).toBeLessThanOrEqual(2000),
    );

    // The next visitor, on the one place, goes straight in.
    const next = await context.newPage();
    await installCallProbe(next);
    await next.goto(url);
    const controls = journeyControls(next);
    await controls.start.click();
    await expectStatusesSeen(next, ['Connecting to Pepa...', 'Listening...']);
    expect(await statusHistory(next)).not.toContain('Pepa is with other guests.');
    await controls.end.click();
    await expect(controls.status).toHaveText('Ready to chat');
    await expectNoContradictionRecorded(page);
  });
});
