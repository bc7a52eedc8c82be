import type { Page } from '@playwright/test';

declare global {
  interface Window {
    __callProbe?: {
      tracks: MediaStreamTrack[];
      statuses: string[];
    };
  }
}

/**
 * Watches a page's voice call from the outside: every microphone track the page obtains, and
 * every status text the Talk to Pepa section shows, in order.
 */
export async function installCallProbe(page: Page, options: { denyMicrophone?: boolean } = {}) {
  await page.addInitScript(
    ({ denyMicrophone }) => {
      const probe = { tracks: [] as MediaStreamTrack[], statuses: [] as string[] };
      window.__callProbe = probe;

      const media = navigator.mediaDevices;
      const original = media.getUserMedia.bind(media);
      media.getUserMedia = async (constraints) => {
        if (denyMicrophone) throw new DOMException('Permission denied', 'NotAllowedError');
        const stream = await original(constraints);
        probe.tracks.push(...stream.getTracks());
        return stream;
      };

      const record = () => {
        const text = document.querySelector('#talk [role="status"]')?.textContent?.trim();
        if (text && probe.statuses[probe.statuses.length - 1] !== text) probe.statuses.push(text);
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
