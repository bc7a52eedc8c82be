// Pepa resting: the day's budget is paced, and what is spent has reached what the day has released
// so far. The gate's answer (its Retry-After and the time she is back) is the contract's; the
// visitor is told, in their own time and without alarm, when to come back, by voice and by text.
import { callResources } from './support/call-probe';
import { resting } from './support/court-answers';
import { expect, test } from './support/fixtures';
import { saveScreenshot } from './support/screenshot';
import { talk } from './support/talk';
import { CHAT_PROBLEMS, chatPanel, open, routeChats, say } from './support/text-chat';

// Tokyo is nine hours ahead of UTC: 06:00 UTC is 15:00 there, on a 24-hour clock in en-GB.
test.use({ timezoneId: 'Asia/Tokyo', locale: 'en-GB', allowedProblems: CHAT_PROBLEMS });

const BACK = 'She is back at 15:00.';

test('a start while Pepa rests says politely when she is back, in the visitor’s time, and releases the microphone', async ({
  page,
}, testInfo) => {
  await page.route('**/api/calls', resting);
  await open(page);
  await talk(page).start.click();
  const notice = talk(page).section.getByRole('status').filter({ hasText: 'Pepa is resting' });
  await expect(notice).toHaveText(
    `Pepa is resting: the court spreads its budget over the day, so guests who come later meet her too. ${BACK}`,
  );
  await expect(notice).toBeInViewport();
  // A status, not an alarm: nothing in the section is said assertively.
  await expect(talk(page).section.getByRole('alert')).toHaveCount(0);
  await expect.poll(async () => (await callResources(page)).liveTracks).toBe(0);
  await expect(talk(page).start).toBeEnabled();
  await saveScreenshot(page, testInfo.outputPath('resting-voice.png'));
});

test('a message while Pepa rests says politely when she is back, and gives the draft back', async ({
  page,
}, testInfo) => {
  await routeChats(page, resting);
  await open(page);
  const panel = chatPanel(page);
  await panel.writeToPepa.click();
  await say(page, 'gm');
  const notice = talk(page).section.getByRole('status').filter({ hasText: 'pen down' });
  await expect(notice).toHaveText(
    `Pepa has put her pen down for a rest: the court spreads its budget over the day. ${BACK}`,
  );
  await expect(notice).toBeInViewport();
  await expect(talk(page).section.getByRole('alert')).toHaveCount(0);
  await expect(panel.field).toHaveValue('gm');
  await saveScreenshot(page, testInfo.outputPath('resting-text.png'));
});
