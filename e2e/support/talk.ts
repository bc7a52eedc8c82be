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
