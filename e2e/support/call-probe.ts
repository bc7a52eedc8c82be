import { expect, type Page } from '@playwright/test';

/** A toast as it appeared, with the section's status at that moment. */
export interface SeenToast {
  title: string;
  description: string;
  status: string;
}

declare global {
  interface Window {
    __callProbe?: {
      tracks: MediaStreamTrack[];
      statuses: string[];
      /** Each distinct (status, hint shown) pair in order, e.g. 'Listening... +hint'. */
      moments: string[];
      toasts: SeenToast[];
      /** `performance.now()` of the last click on a button of the Talk to Pepa section. */
      lastPressAt: number;
    };
  }
}

/**
 * Watches a page's voice call from the outside and records it as it happens: every microphone
 * track the page obtains, every status text the Talk to Pepa section shows, and every toast, in
 * order. Assertions run on the record, so a toast or status that came and went while the test was
 * busy (a screenshot, a slow machine) is still seen.
 */
export async function installCallProbe(page: Page, options: { denyMicrophone?: boolean } = {}) {
  await page.addInitScript(
    ({ denyMicrophone }) => {
      const probe = {
        tracks: [] as MediaStreamTrack[],
        statuses: [] as string[],
        moments: [] as string[],
        toasts: [] as SeenToast[],
        lastPressAt: -Infinity,
      };
      window.__callProbe = probe;
      document.addEventListener(
        'click',
        (event) => {
          if (event.target instanceof Element && event.target.closest('#talk button')) {
            probe.lastPressAt = performance.now();
          }
        },
        true,
      );

      const media = navigator.mediaDevices;
      const original = media.getUserMedia.bind(media);
      media.getUserMedia = async (constraints) => {
        if (denyMicrophone) throw new DOMException('Permission denied', 'NotAllowedError');
        const stream = await original(constraints);
        probe.tracks.push(...stream.getTracks());
        return stream;
      };

      const last = (list: string[]) => list[list.length - 1];
      const recordedToasts = new WeakSet<Element>();
      const record = () => {
        const section = document.querySelector('#talk');
        const status = section?.querySelector('[role="status"]')?.textContent?.trim() ?? '';
        if (status && last(probe.statuses) !== status) probe.statuses.push(status);
        const hint = section?.textContent?.includes('Speak naturally, Pepa is all ears') ?? false;
        const moment = `${status}${hint ? ' +hint' : ''}`;
        if (status && last(probe.moments) !== moment) probe.moments.push(moment);

        // In the page's own order, not the order they are found in: a busy page can show two
        // toasts before this runs, and the toaster lists them newest first (data-index 0), so
        // the oldest (highest index) is recorded first.
        const fresh = [...document.querySelectorAll<HTMLElement>('[data-sonner-toast]')]
          .filter((toast) => !recordedToasts.has(toast))
          .sort((a, b) => Number(b.dataset.index ?? 0) - Number(a.dataset.index ?? 0));
        for (const toast of fresh) {
          const title = toast.querySelector('[data-title]')?.textContent?.trim() ?? '';
          const description = toast.querySelector('[data-description]')?.textContent?.trim() ?? '';
          if (!title) continue;
          recordedToasts.add(toast);
          probe.toasts.push({ title, description, status });
        }
      };
      document.addEventListener('DOMContentLoaded', () => {
        record();
        new MutationObserver(record).observe(document.body, {
          subtree: true,
          childList: true,
          characterData: true,
        });
      });
    },
    { denyMicrophone: options.denyMicrophone ?? false },
  );
}

/** What the page holds of a call right now. */
export async function callResources(page: Page) {
  return page.evaluate(() => {
    const probe = window.__callProbe;
    const audio = [...document.querySelectorAll('audio')];
    return {
      tracks: probe?.tracks.length ?? 0,
      liveTracks: probe?.tracks.filter((track) => track.readyState !== 'ended').length ?? 0,
      enabledTracks: probe?.tracks.filter((track) => track.enabled).length ?? 0,
      audioElements: audio.length,
      playingAudio: audio.filter((element) => !element.paused).length,
    };
  });
}

export async function statusHistory(page: Page): Promise<string[]> {
  return page.evaluate(() => window.__callProbe?.statuses ?? []);
}

export async function momentHistory(page: Page): Promise<string[]> {
  return page.evaluate(() => window.__callProbe?.moments ?? []);
}

export async function toastHistory(page: Page): Promise<SeenToast[]> {
  return page.evaluate(() => window.__callProbe?.toasts ?? []);
}

/** Waits until the record shows `expected` as a subsequence of the statuses seen so far. */
export async function expectStatusesSeen(page: Page, expected: string[], timeout = 15_000) {
  await expect
    .poll(
      async () => {
        const seen = await statusHistory(page);
        let next = 0;
        for (const status of seen) if (status === expected[next]) next += 1;
        return next === expected.length ? expected : seen;
      },
      { timeout, message: `statuses seen in order: ${expected.join(' → ')}` },
    )
    .toEqual(expected);
}

/** Waits until a toast with this title and description has appeared (even if it is gone). */
export async function expectToastSeen(
  page: Page,
  [title, description]: readonly [string, string],
  timeout = 15_000,
) {
  await expect
    .poll(
      async () =>
        (await toastHistory(page)).map((toast) => ({
          title: toast.title,
          description: toast.description,
        })),
      { timeout, message: `a '${title}' toast was shown` },
    )
    .toContainEqual({ title, description });
}

/** How many toasts with this title have appeared so far. */
export async function toastsSeen(page: Page, title: string) {
  return (await toastHistory(page)).filter((toast) => toast.title === title).length;
}

/**
 * Waits, on the page's own clock, until a new press of the main button is no longer part of a
 * double tap with the last one (the section merges presses closer than `windowMs`).
 */
export async function waitPastDoubleTap(page: Page, windowMs: number) {
  await page.waitForFunction(
    (ms) => performance.now() - (window.__callProbe?.lastPressAt ?? -Infinity) >= ms,
    windowMs,
  );
}
