// The Talk to Pepa section's controls, found by their roles and names, for every browser spec.
import type { Page } from '@playwright/test';

export function talk(page: Page) {
  const section = page.locator('#talk');
  return {
    section,
    status: section.getByRole('status'),
    start: section.getByRole('button', { name: 'Start Talking' }),
    end: section.getByRole('button', { name: 'End Call' }),
    leave: section.getByRole('button', { name: 'Leave the line' }),
    captions: section.getByRole('log', { name: 'Captions' }),
    typeField: section.getByRole('textbox', { name: 'Message to Pepa' }),
    send: section.getByRole('button', { name: 'Send' }),
    microphone: section.getByRole('combobox', { name: 'Microphone' }),
    transcript: section.getByRole('region', { name: 'Transcript' }),
    card: section.getByRole('region', { name: 'From the $PEPA site' }),
  };
}

/** The docked call: the bar kept on screen while the call's section is away. */
export function callDock(page: Page) {
  const bar = page.getByRole('region', { name: 'Your call with Pepa' });
  return {
    bar,
    back: bar.getByRole('button', { name: /^Back to the call/ }),
    mute: bar.getByRole('button', { name: /^(Mute|Unmute)$/ }),
    end: bar.getByRole('button', { name: 'End Call' }),
  };
}
