// A call that respects the visitor's typed messages: Escape in the typing field clears it and never
// ends the call, and a flood of typed sends makes one message until Pepa answers.
import { statusHistory } from './support/call-probe';
import { expect, test } from './support/fixtures';
import { talk } from './support/talk';
import { captionTexts, connect, expectGreeted, open } from './support/visitor-call';

test.describe('a call that respects the visitor', () => {
  test('Escape in the typing field clears it and never ends the call @once', async ({ page }) => {
    await open(page);
    await connect(page);
    const { typeField: field } = talk(page);
    await field.fill('Should I');
    const before = (await statusHistory(page)).length;
    await field.press('Escape');
    await expect(field).toHaveValue('');
    await expect(field).toBeFocused();
    await field.press('Escape');
    // The call is still on: Pepa answers the next message.
    await field.fill('Hello');
    await field.press('Enter');
    await expect
      .poll(
        async () => {
          const lines = await captionTexts(page);
          return lines.slice(lines.indexOf('You: Hello') + 1).some((l) => l.startsWith('Pepa: '));
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    const since = (await statusHistory(page)).slice(before);
    expect(since).not.toContain('Ending the call...');
    expect(since).not.toContain('Ready to chat');
    await expect(talk(page).end).toBeVisible();
    await talk(page).end.click();
    await expect(talk(page).status).toHaveText('Ready to chat');
  });

  test('a flood of typed sends makes one message until Pepa answers @once', async ({ page }) => {
    await open(page);
    await connect(page);
    await expectGreeted(page);
    // 300 messages typed and sent in one go, as a script (or a stuck key) would.
    await page.evaluate(() => {
      const input = document.querySelector<HTMLInputElement>('#talk input[type="text"]');
      const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
      for (let line = 0; line < 300; line += 1) {
        setValue?.call(input, `Line ${line}`);
        input?.dispatchEvent(new Event('input', { bubbles: true }));
        input?.form?.requestSubmit();
      }
    });
    await expect(
      talk(page).section.getByRole('button', { name: 'Waiting for Pepa' }),
    ).toBeVisible();
    // Pepa answers the one message that went out; only then may the next go.
    await expect
      .poll(
        async () => {
          const lines = await captionTexts(page);
          return lines.slice(lines.indexOf('You: Line 0') + 1).some((l) => l.startsWith('Pepa: '));
        },
        { timeout: 15_000 },
      )
      .toBe(true);
    const typed = (await captionTexts(page)).filter((line) => line.startsWith('You: Line'));
    expect(typed).toEqual(['You: Line 0']);
    await expect(
      talk(page).section.getByRole('button', { name: 'Send', exact: true }),
    ).toBeVisible();
    await talk(page).end.click();
    await expect(talk(page).status).toHaveText('Ready to chat');
  });
});
