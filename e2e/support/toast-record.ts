// The toasts a page showed, recorded as they appear: each with what of the Talk section's status
// and controls (and the docked bar's) it covered at any moment it showed, and each place it rested;
// with every scroll of the page and every press in the Talk section. Installed before the page
// loads; asserted on at the end of a test.
import { expect, type Page } from '@playwright/test';

/** The spec's toasts, word for word. */
export const CONNECTED_TOAST = { title: 'Connected', description: "You're now talking to Pepa!" };
export const ENDED_TOAST = { title: 'Call ended', description: 'Thanks for chatting with Pepa!' };
export const START_FAILED_TOAST = {
  title: 'Failed to connect',
  description: 'Please check your microphone permissions',
};

export interface ToastSeen {
  title: string;
  description: string;
  /** What of the status and the call's controls it covered at any moment it was recorded. */
  covered: string[];
  /** Its box each time it was recorded while shown (not leaving): it never moves. */
  boxes: string[];
}

declare global {
  interface Window {
    __statusRecord?: {
      toasts: ToastSeen[];
      /** Each scroll of the page: when (performance.now()) and where. */
      scrolls: { at: number; y: number }[];
      /** Each press of a button in the Talk section: its name and when. */
      presses: { name: string; at: number }[];
    };
  }
}

/**
 * Records, from the first script of the page on: every toast that appears (once, by its element),
 * and on every change of the page while one shows, its box and what of the Talk section's status
 * and controls it covers; every scroll of the page; every press in the Talk section.
 */
export async function installStatusRecorder(page: Page) {
  await page.addInitScript(() => {
    const record = {
      toasts: [] as ToastSeen[],
      scrolls: [] as { at: number; y: number }[],
      presses: [] as { name: string; at: number }[],
    };
    window.__statusRecord = record;
    const byElement = new Map<Element, ToastSeen>();
    type Box = { left: number; top: number; right: number; bottom: number };
    const intersects = (a: Box, b: Box) =>
      a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
    // What of an element can be seen: its box cut by each ancestor that clips what overflows it
    // (an entry scrolled out of the thread's box is not there to be covered).
    const seenPart = (element: Element): Box | null => {
      const rect = element.getBoundingClientRect();
      if (rect.width === 0 || rect.height === 0) return null;
      let part: Box = { left: rect.left, top: rect.top, right: rect.right, bottom: rect.bottom };
      for (let parent = element.parentElement; parent; parent = parent.parentElement) {
        if (getComputedStyle(parent).overflow === 'visible') continue;
        const clip = parent.getBoundingClientRect();
        part = {
          left: Math.max(part.left, clip.left),
          top: Math.max(part.top, clip.top),
          right: Math.min(part.right, clip.right),
          bottom: Math.min(part.bottom, clip.bottom),
        };
        if (part.left >= part.right || part.top >= part.bottom) return null;
      }
      return part;
    };
    const measure = () => {
      for (const toast of document.querySelectorAll('[data-sonner-toast]')) {
        let seen = byElement.get(toast);
        if (!seen) {
          const title = toast.querySelector('[data-title]')?.textContent?.trim() ?? '';
          if (!title) continue;
          seen = {
            title,
            description: toast.querySelector('[data-description]')?.textContent?.trim() ?? '',
            covered: [],
            boxes: [],
          };
          byElement.set(toast, seen);
          record.toasts.push(seen);
        }
        // Entering (sliding in) or leaving, a toast is on its way; at rest it must hold still.
        const resting =
          toast.getAttribute('data-mounted') === 'true' &&
          toast.getAttribute('data-removed') !== 'true' &&
          toast.getAttribute('data-visible') !== 'false' &&
          toast.getAnimations().length === 0;
        const box = toast.getBoundingClientRect();
        if (box.width === 0) continue;
        if (resting) {
          const at = `${Math.round(box.left)},${Math.round(box.top)} ${Math.round(box.width)}x${Math.round(box.height)}`;
          if (seen.boxes.at(-1) !== at) seen.boxes.push(at);
        }
        const needed = document.querySelectorAll<HTMLElement>(
          '#talk [role="status"], #talk button, #talk input, #talk textarea, #talk select, #talk [role="switch"], [data-call-dock] button',
        );
        for (const element of needed) {
          const part = seenPart(element);
          if (!part || !intersects(box, part)) continue;
          const name =
            element.getAttribute('aria-label') ?? element.textContent?.trim() ?? element.tagName;
          if (!seen.covered.includes(name)) seen.covered.push(name);
        }
      }
    };
    document.addEventListener('DOMContentLoaded', () => {
      new MutationObserver(measure).observe(document.body, {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
      });
    });
    // A toast comes to rest at the end of its slide in, which changes nothing in the page.
    document.addEventListener('transitionend', measure, true);
    addEventListener(
      'scroll',
      () => {
        record.scrolls.push({ at: performance.now(), y: scrollY });
        measure();
      },
      { passive: true },
    );
    document.addEventListener(
      'click',
      (event) => {
        const button =
          event.target instanceof Element ? event.target.closest('#talk button') : null;
        if (button)
          record.presses.push({ name: button.textContent?.trim() ?? '', at: performance.now() });
      },
      true,
    );
  });
}

export const recorded = (page: Page) => page.evaluate(() => window.__statusRecord!);
export const titles = async (page: Page) =>
  (await recorded(page)).toasts.map((toast) => toast.title);

/** Every toast has gone: nothing more of this moment can be shown twice unseen. */
export async function toastsGone(page: Page) {
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 20_000 });
}

/** The whole record of toasts: each event's one, word for word, none covering anything, none moved. */
export async function expectToasts(page: Page, expected: { title: string; description: string }[]) {
  const { toasts } = await recorded(page);
  expect(toasts.map(({ title, description }) => ({ title, description }))).toEqual(expected);
  for (const toast of toasts) {
    expect(toast.covered, `what '${toast.title}' covered`).toEqual([]);
    expect(toast.boxes.length, `where '${toast.title}' rested: ${toast.boxes.join(' | ')}`).toBe(1);
  }
}
