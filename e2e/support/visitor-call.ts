// A call that respects the visitor, for the visitor-call specs: the page opened on the demo's room
// with the call probe and a recorder of where the keyboard focus fell, when the typing field left
// and which microphones were opened (one can be made to fail, or all made quiet); a call
// connected; the captions' finished entries, and Pepa's greeting among them.
import type { Page } from '@playwright/test';
import { installCallProbe } from './call-probe';
import { expect } from './fixtures';
import { talk } from './talk';

/** The simulated room, twice as fast. */
export const FAST = 0.5;
export const CONNECTED = /^(Listening\.\.\.|Pepa is speaking\.\.\.)$/;

declare global {
  interface Window {
    __visitorRecord?: {
      /** The status shown each time the keyboard focus fell to the page while it was watched. */
      focusFell: string[];
      /** The status shown each time the typing field left the page. */
      fieldLeft: string[];
      /** The microphone each getUserMedia call asked for ('default' when none in particular). */
      microphones: string[];
      /** Set by the test: from now on, focus on the page's body is a fall. */
      watchFocus: boolean;
      /** A microphone that cannot be opened (NotReadableError), set by the test. */
      brokenMicrophone: string | null;
      /**
       * Set by the test: every microphone opened from now on hears nothing, as for a visitor who
       * only types (the room's fake microphone beeps, and the room takes beeps for speech).
       */
      quietMicrophone: boolean;
    };
  }
}

/**
 * Records, as it happens: every time the keyboard focus falls to the page's body while watched,
 * every time the typing field leaves the page (with the status then), and every microphone the
 * page opens. A microphone the test names can be made impossible to open.
 */
export async function installVisitorRecorder(page: Page) {
  await page.addInitScript(() => {
    const record = {
      focusFell: [] as string[],
      fieldLeft: [] as string[],
      microphones: [] as string[],
      watchFocus: false,
      brokenMicrophone: null as string | null,
      quietMicrophone: false,
    };
    window.__visitorRecord = record;
    const status = () =>
      document.querySelector('#talk [role="status"]')?.textContent?.trim() ?? '(none)';

    const media = navigator.mediaDevices;
    const original = media.getUserMedia.bind(media);
    media.getUserMedia = async (constraints) => {
      const audio = constraints?.audio;
      const wanted =
        typeof audio === 'object' && audio !== null && typeof audio.deviceId === 'object'
          ? String((audio.deviceId as { exact?: string }).exact ?? 'default')
          : 'default';
      record.microphones.push(wanted);
      if (record.brokenMicrophone !== null && wanted === record.brokenMicrophone) {
        throw new DOMException('Could not start audio source', 'NotReadableError');
      }
      const stream = await original(constraints);
      if (!record.quietMicrophone) return stream;
      // The page gets a silent track in place of the microphone's; stopping it stops the
      // microphone's, so the call's release of the microphone is still what ends it.
      const context = new AudioContext();
      const [silent] = context.createMediaStreamDestination().stream.getAudioTracks();
      if (!silent) return stream;
      const stopSilent = silent.stop.bind(silent);
      silent.stop = () => {
        stopSilent();
        for (const track of stream.getTracks()) track.stop();
        void context.close();
      };
      return new MediaStream([silent]);
    };

    const checkFocus = () => {
      if (!record.watchFocus) return;
      const active = document.activeElement;
      if (active === null || active === document.body) record.focusFell.push(status());
    };
    let hadField = false;
    const watch = () => {
      const hasField = document.querySelector('#talk input[type="text"]') !== null;
      if (hadField && !hasField) record.fieldLeft.push(status());
      hadField = hasField;
      checkFocus();
    };
    // Focus moving between two controls passes through the body between focusout and focusin:
    // only a focusout to nowhere counts, looked at once the task is over.
    document.addEventListener(
      'focusout',
      (event) => {
        if (event.relatedTarget === null) setTimeout(checkFocus, 0);
      },
      true,
    );
    document.addEventListener('DOMContentLoaded', () => {
      new MutationObserver(watch).observe(document.body, {
        subtree: true,
        childList: true,
        characterData: true,
        attributes: true,
      });
    });
  });
}

export async function visitorRecord(page: Page) {
  return page.evaluate(() => window.__visitorRecord!);
}

export async function open(page: Page, query = `simScale=${FAST}`) {
  await installCallProbe(page);
  await installVisitorRecorder(page);
  await page.goto(`/?${query}`);
  await talk(page).start.scrollIntoViewIfNeeded();
  await expect(talk(page).status).toHaveText('Ready to chat');
}

export async function connect(page: Page) {
  await talk(page).start.click();
  await expect(talk(page).status).toHaveText(CONNECTED, { timeout: 15_000 });
}

/** The finished captions, in order. */
export function captionTexts(page: Page) {
  return talk(page).captions.locator('p:not([aria-hidden])').allTextContents();
}

export async function expectGreeted(page: Page) {
  await expect(
    talk(page).captions.locator('p:not([aria-hidden])').filter({ hasText: 'Ribbit! Welcome' }),
  ).toHaveCount(1, { timeout: 15_000 });
}
