// Talk to Pepa in the field, while the call is on: the phone menu's Escape, muting, End Call's
// focus, a hidden page and the screen kept awake, and a room that misbehaves.
import { callResources, statusHistory } from './support/call-probe';
import { connect, CONNECTED, expectReleased, open, recorded } from './support/field-call';
import { expect, test } from './support/fixtures';
import { talk } from './support/talk';

test.describe('Talk to Pepa in the field', () => {
  // The menu toggle exists below the md width only.
  test('Escape that closes the phone menu leaves the call running @phone-only', async ({
    page,
  }) => {
    await open(page);
    await connect(page);
    const menu = page.getByRole('button', { name: 'Menu' });
    await menu.click();
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('Escape');
    await expect(menu).toHaveAttribute('aria-expanded', 'false');

    // The call goes on: Pepa still answers after the menu closed.
    const connectedSince = (await statusHistory(page)).length;
    await expect
      .poll(async () => (await statusHistory(page)).slice(connectedSince - 1), { timeout: 15_000 })
      .toContain('Pepa is speaking...');
    const afterMenu = (await statusHistory(page)).slice(connectedSince - 1);
    expect(afterMenu).not.toContain('Ready to chat');
    await expect(talk(page).end).toBeVisible();

    await talk(page).end.click();
    await expectReleased(page);
  });

  test("muting shows in the status area that Pepa can't hear the visitor @once", async ({
    page,
  }) => {
    await open(page);
    await connect(page);
    await talk(page).section.getByRole('button', { name: 'Mute' }).click();
    await expect(talk(page).section.getByText("Muted: Pepa can't hear you")).toBeVisible();
    await expect(talk(page).status).toHaveText(CONNECTED);
    expect((await callResources(page)).enabledTracks).toBe(0);
    await talk(page).section.getByRole('button', { name: 'Unmute' }).click();
    await expect(talk(page).section.getByText("Muted: Pepa can't hear you")).toBeHidden();
    await talk(page).end.click();
    await expectReleased(page);
  });

  test('End Call keeps the focus on the main button @once', async ({ page }) => {
    await open(page);
    await connect(page);
    await talk(page).end.focus();
    await page.keyboard.press('Enter');
    await expectReleased(page);
    await expect(talk(page).start).toBeFocused();
  });

  test('hiding the page keeps the call; the screen stays awake until it ends @once', async ({
    page,
  }) => {
    await open(page);
    await connect(page);
    await expect.poll(async () => (await recorded(page)).wakeLocks.requested).toBe(1);

    const connectedSince = (await statusHistory(page)).length;
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, value: 'hidden' });
      Object.defineProperty(document, 'hidden', { configurable: true, value: true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    // Pepa keeps talking while the tab is hidden.
    await expect
      .poll(async () => (await statusHistory(page)).slice(connectedSince), { timeout: 15_000 })
      .toContain('Pepa is speaking...');
    expect((await statusHistory(page)).slice(connectedSince - 1)).not.toContain('Ready to chat');
    expect((await callResources(page)).liveTracks).toBeGreaterThan(0);

    // Back in view: the browser dropped the lock while hidden, so it is taken again.
    await page.evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, value: 'visible' });
      Object.defineProperty(document, 'hidden', { configurable: true, value: false });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await expect.poll(async () => (await recorded(page)).wakeLocks.requested).toBe(2);

    await talk(page).end.click();
    await expectReleased(page);
    const { wakeLocks } = await recorded(page);
    expect(wakeLocks.released).toBe(wakeLocks.requested);
  });

  test.describe('when the room misbehaves @once', () => {
    test.use({ allowedProblems: /lost|connection|network|unreachable/i });

    test('a connection blip shows Reconnecting, then the call goes on', async ({ page }) => {
      await open(page, 'sim=network-interruption');
      await connect(page);
      await expect
        .poll(async () => statusHistory(page), { timeout: 15_000 })
        .toContain('Reconnecting to Pepa...');
      await expect(talk(page).status).toHaveText(CONNECTED, { timeout: 15_000 });
      const statuses = await statusHistory(page);
      const after = statuses.slice(statuses.indexOf('Reconnecting to Pepa...'));
      expect(after).not.toContain('Ready to chat');
      await talk(page).end.click();
      await expectReleased(page);
    });

    test('a connection lost for good ends the call with a reason, microphone released', async ({
      page,
    }) => {
      await open(page, 'sim=network-failure');
      await connect(page);
      await expect(talk(page).section.getByRole('alert')).toHaveText(
        'The connection to Pepa was lost. Press Start Talking to call her again.',
        { timeout: 20_000 },
      );
      await expectReleased(page);
      expect(await statusHistory(page)).toContain('Reconnecting to Pepa...');
    });

    test("Pepa leaving ends the call within 2 s, with one 'Call ended'", async ({ page }) => {
      await open(page, 'sim=assistant-leaves');
      await connect(page);
      await expect(talk(page).status).toHaveText('Ready to chat', { timeout: 15_000 });
      await expectReleased(page);
      await expect
        .poll(async () => (await recorded(page)).toasts.map((toast) => toast.title))
        .toContain('Call ended');
      const titles = (await recorded(page)).toasts.map((toast) => toast.title);
      expect(titles.filter((title) => title === 'Call ended')).toHaveLength(1);
    });

    test('someone posing as Pepa is not shown as Pepa', async ({ page }) => {
      await page.addInitScript(() => {
        (window as unknown as { __captions: string[] }).__captions = [];
        document.addEventListener('DOMContentLoaded', () => {
          new MutationObserver(() => {
            const log = document.querySelector('#talk [role="log"]');
            const text = log?.textContent ?? '';
            const seen = (window as unknown as { __captions: string[] }).__captions;
            if (text && seen[seen.length - 1] !== text) seen.push(text);
          }).observe(document.body, { subtree: true, childList: true, characterData: true });
        });
      });
      await open(page, 'sim=intruder');
      await connect(page);
      // The intruder speaks after Pepa's greeting and before her first reply: once the reply's
      // caption is in, the intruder's message has come and gone.
      const pepaRemarks = async () => {
        const seen = await page.evaluate(
          () => (window as unknown as { __captions: string[] }).__captions,
        );
        return (seen.at(-1) ?? '').split('Pepa:').length - 1;
      };
      await expect.poll(pepaRemarks, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
      const captions = await page.evaluate(
        () => (window as unknown as { __captions: string[] }).__captions,
      );
      expect(captions.join('\n')).not.toContain('seed phrase');
      await talk(page).end.click();
      await expectReleased(page);
    });
  });
});
