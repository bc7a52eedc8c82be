import type { BrowserContext, Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { expectStatusesSeen, installCallProbe, statusHistory } from './support/call-probe';
import { expect, test } from './support/fixtures';
import { ownCourt } from './support/own-court';
import { reviewShots } from './support/screenshot';
import { talk } from './support/talk';

/**
 * The court gate's line, end to end: the built demo served by the site's Worker in workerd, in
 * front of the stand-in provider, with room for two calls at once. Its own stack, so the line is
 * the only thing these visitors wait for.
 */
const FAST = 0.2;
const court = ownCourt({ places: 2, scale: FAST });

// Each test starts on an empty court: every call of the last one ended, and the gate told so (a
// call the gate has not yet heard end still holds its place, and the next visitor would wait).
test.beforeEach(async () => {
  await expect
    .poll(
      () =>
        [...court.stack().standIn.calls.values()].filter(
          (call) => call.status !== 'ended' || call.gateToldAt === null,
        ).length,
      { message: 'calls of an earlier test still hold a place', timeout: 45_000 },
    )
    .toBe(0);
});

/** A tab on the court at its Talk section, ready. */
async function tab(context: BrowserContext): Promise<Page> {
  const page = await court.tab(context, installCallProbe);
  await talk(page).section.scrollIntoViewIfNeeded();
  await expect(talk(page).status).toHaveText('Ready to chat');
  return page;
}

const screenshot = reviewShots('court');

test('with two places, a third visitor waits in line, sees their place, and joins when a call ends @once', async ({
  context,
}, testInfo) => {
  const first = await tab(context);
  const second = await tab(context);
  const third = await tab(context);

  await talk(first).start.click();
  await expectStatusesSeen(first, ['Listening...']);
  await talk(second).start.click();
  await expectStatusesSeen(second, ['Listening...']);

  await talk(third).start.click();
  await expect(talk(third).status).toHaveText('Pepa is with other guests.');
  await expect(talk(third).section.getByText(/^You're next — about \d+ s\.$/)).toBeVisible();
  await expect(talk(third).leave).toBeVisible();
  await screenshot(third, testInfo, 'waiting');
  expect((await new AxeBuilder({ page: third }).include('#talk').analyze()).violations).toEqual([]);

  // The first call ends: the stand-in provider tells the gate, the place frees, and the third
  // visitor is admitted without another press.
  await talk(first).end.click();
  await expectStatusesSeen(
    third,
    ['Pepa is with other guests.', 'Connecting to Pepa...', 'Listening...'],
    30_000,
  );
  // Admitted without another press: the panel never went back to idle in between.
  const history = await statusHistory(third);
  expect(history.slice(history.indexOf('Pepa is with other guests.'))).not.toContain(
    'Ready to chat',
  );

  await talk(second).end.click();
  await talk(third).end.click();
  await expect(talk(third).status).toHaveText('Ready to chat');
});

test('a visitor who leaves the line gives the place up, and the next one moves up @once', async ({
  context,
}) => {
  const pages = [await tab(context), await tab(context), await tab(context), await tab(context)];
  const [first, second, third, fourth] = pages as [Page, Page, Page, Page];
  await talk(first).start.click();
  await expectStatusesSeen(first, ['Listening...']);
  await talk(second).start.click();
  await expectStatusesSeen(second, ['Listening...']);
  await talk(third).start.click();
  await expect(talk(third).section.getByText(/^You're next/)).toBeVisible();
  await talk(fourth).start.click();
  await expect(
    talk(fourth).section.getByText(/^You're 2nd in line — about \d+ s\.$/),
  ).toBeVisible();

  await talk(third).leave.click();
  await expect(talk(third).status).toHaveText('Ready to chat');
  await expect(talk(fourth).section.getByText(/^You're next/)).toBeVisible({ timeout: 30_000 });

  // The fourth may be admitted at any moment now: whichever the button says, it ends the start.
  for (const page of [first, second, fourth]) {
    await talk(page)
      .section.getByRole('button', { name: /^(End Call|Leave the line)$/ })
      .click();
  }
  for (const page of pages) await expect(talk(page).status).toHaveText('Ready to chat');
});
