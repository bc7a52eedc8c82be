// A call in the field, for the talk-field specs: the page opened on the demo's room with the call
// probe and a recorder of every toast (with the call controls it covers) and every screen wake
// lock; a call connected; a call ended with the microphone released and nothing playing.
import type { Page } from '@playwright/test';
import { callResources, installCallProbe } from './call-probe';
import { expect } from './fixtures';
import { talk } from './talk';

/** The demo's simulated room, twice as fast as a real one. */
export const FAST = 0.5;

export const CONNECTED = /^(Listening\.\.\.|Pepa is speaking\.\.\.)$/;

declare global {
  interface Window {
    __fieldRecord?: {
      toasts: { title: string; overlaps: string[] }[];
      wakeLocks: { requested: number; released: number };
    };
  }
}

/**
 * Records, as they happen: every toast that appears, with the call controls it covers at that
 * moment, and every screen wake lock the page takes and releases.
 */
export async function installFieldRecorder(page: Page) {
  await page.addInitScript(() => {
    const record = {
      toasts: [] as { title: string; overlaps: string[] }[],
      wakeLocks: { requested: 0, released: 0 },
    };
    window.__fieldRecord = record;

    // A wake lock the page can always take, counted, so the test sees requests and releases.
    const held = new Set<{ release(): Promise<void> }>();
    // Browsers drop a screen wake lock when the page is hidden; so does this stand-in.
    document.addEventListener('visibilitychange', () => {
      if (document.visibilityState !== 'hidden') return;
      for (const sentinel of held) void sentinel.release();
    });
    Object.defineProperty(navigator, 'wakeLock', {
      configurable: true,
      value: {
        request: async () => {
          record.wakeLocks.requested += 1;
          const sentinel = new EventTarget() as EventTarget & {
            released: boolean;
            type: string;
            release(): Promise<void>;
          };
          sentinel.released = false;
          sentinel.type = 'screen';
          held.add(sentinel);
          sentinel.release = async () => {
            if (sentinel.released) return;
            sentinel.released = true;
            held.delete(sentinel);
            record.wakeLocks.released += 1;
            sentinel.dispatchEvent(new Event('release'));
          };
          return sentinel;
        },
      },
    });

    // Sampled every frame while a toast is on screen, so a toast that slides over a control at
    // any moment of its life is caught, whatever the machine's speed.
    const byToast = new Map<Element, { title: string; overlaps: string[] }>();
    const intersects = (a: DOMRect, b: DOMRect) =>
      a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    const sample = () => {
      for (const toast of document.querySelectorAll('[data-sonner-toast]')) {
        if (toast.getAttribute('data-removed') === 'true') continue;
        const box = toast.getBoundingClientRect();
        if (box.width === 0 || Number(getComputedStyle(toast).opacity) < 0.05) continue;
        let entry = byToast.get(toast);
        if (!entry) {
          const title = toast.querySelector('[data-title]')?.textContent?.trim() ?? '';
          entry = { title, overlaps: [] };
          byToast.set(toast, entry);
          record.toasts.push(entry);
        }
        const controls = document.querySelectorAll<HTMLElement>(
          '#talk button, #talk [role="note"], #talk [role="status"], #talk [data-testid="volume-bars"], #talk [data-call-timer]',
        );
        for (const control of controls) {
          const label = control.textContent?.trim() || control.tagName;
          const rect = control.getBoundingClientRect();
          if (rect.width > 0 && intersects(box, rect) && !entry.overlaps.includes(label)) {
            entry.overlaps.push(label);
          }
        }
      }
      requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
  });
}

export async function open(page: Page, query = '', options: { denyMicrophone?: boolean } = {}) {
  await installCallProbe(page, options);
  await installFieldRecorder(page);
  await page.goto(`/?${[`simScale=${FAST}`, query].filter(Boolean).join('&')}`);
  await talk(page).start.scrollIntoViewIfNeeded();
  await expect(talk(page).status).toHaveText('Ready to chat');
}

export async function connect(page: Page) {
  await talk(page).start.click();
  await expect(talk(page).status).toHaveText(CONNECTED, { timeout: 15_000 });
}

export async function recorded(page: Page) {
  return page.evaluate(() => window.__fieldRecord!);
}

/** Every scenario that ends a call ends here: idle, microphone released, nothing playing. */
export async function expectReleased(page: Page) {
  await expect(talk(page).status).toHaveText('Ready to chat');
  await expect
    .poll(async () => {
      const resources = await callResources(page);
      return { liveTracks: resources.liveTracks, playingAudio: resources.playingAudio };
    })
    .toEqual({ liveTracks: 0, playingAudio: 0 });
}
