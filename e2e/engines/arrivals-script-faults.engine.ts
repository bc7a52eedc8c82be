// The arrival matrix with the app's scripts at fault: the app's script arriving late under early
// taps, and the call view's first chunk failing, made so by the arrival's proxy.
import { expect } from 'vitest';
import { DOUBLE_TAP_MS } from '../../src/features/talk/section/double-tap';
import { appStarted } from '../support/app-started';
import {
  contractAddress,
  COPIED,
  copyButton,
  describeArrivals,
  expectLive,
  expectStarted,
  HOME,
  LISTENING,
  menuButton,
  menuClosed,
  recorded,
  saw,
  scrollToTalk,
  startRecording,
  talk,
  talkStatusIs,
  type Arrival,
} from './arrival-matrix';
import { toastGone } from './toast-checks';

const LOAD_FAILED = "The voice chat didn't load.";
/** The app's entry script, and the call view's chunk. */
const APP_SCRIPT = /^\/assets\/index-[^/]+\.js$/;
const VOICE_CHUNK = /^\/assets\/call-view-[^/]+\.js$/;
/** How late the app's script arrives in the late arrival. */
const LATE_MS = 3000;

/** What an engine logs about a chunk the proxy failed. */
const CHUNK_FAILED =
  /503|Failed to load|dynamically imported module|Loading failed for the module|Importing a module script failed|error loading|call-view-[^/]+\.js.* disallowed MIME type/i;

/** The last tap in this document (recorded by `startRecording`) is older than `ms`. */
function pastDoubleTap(ms: number) {
  const at = (window as unknown as { __pressedAt?: number }).__pressedAt;
  return at === undefined || performance.now() - at > ms;
}

const ARRIVALS: Arrival[] = [
  {
    name: "the app's script 3 s late; Menu, Copy and Start Talking tapped before it runs",
    rules: { late: { path: APP_SCRIPT, ms: LATE_MS } },
    async run(page, proxy) {
      await page.navigate(HOME);
      await page.waitFor(
        'the page to be drawn',
        () =>
          window.location.pathname === '/' &&
          document.readyState !== 'loading' &&
          typeof (window as unknown as { __pepaEarlyTaps?: unknown }).__pepaEarlyTaps ===
            'function',
        [],
      );
      await page.watch();
      await page.evaluate(startRecording);
      await page.click(menuButton);
      await page.click(copyButton);
      await page.click(talk('Start Talking'));
      // The taps came before the app: its script had not run (it may not even have been asked).
      expect(await page.evaluate(appStarted)).toBe(false);

      await expectStarted(page);
      expect(proxy.changed.some((change) => change.startsWith('late /assets/index-'))).toBe(true);
      await page.waitFor('the call to listen', saw, ['statuses', LISTENING]);
      await page.waitFor('the copy to be announced', saw, ['announced', COPIED]);
      const record = await page.evaluate(recorded);
      expect(record.menuOpened).toBe(true);
      expect(record.copyRefused).toBe(false);
      if (page.engine === 'chromium') {
        const address = await page.evaluate(contractAddress);
        expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(address);
      }
      // The menu the early tap opened covers the Talk panel at phone width: closed first, once
      // no toast covers its button.
      await page.waitFor('the toasts to leave', toastGone, ['']);
      await page.click(menuButton);
      await page.waitFor('the menu to close', menuClosed, []);
      await page.click(talk('End Call'));
      await page.waitFor('the call to end', talkStatusIs, ['Ready to chat']);
      await expectLive(page);
    },
  },
  {
    name: "the call view's first chunk fails, then Start Talking until the call listens",
    rules: { fail: { path: VOICE_CHUNK, times: 1 } },
    allowed: CHUNK_FAILED,
    async run(page, proxy) {
      await page.goto(HOME);
      await page.evaluate(startRecording);
      let outcome = '';
      for (let press = 0; press < 4 && outcome !== 'listening'; press += 1) {
        // Past the double-tap window of the last press, so this press is a press of its own.
        await page.waitFor('a press of its own', pastDoubleTap, [DOUBLE_TAP_MS]);
        await page.evaluate(() => {
          (window as unknown as { __press?: boolean }).__press = true;
        });
        await page.evaluate(scrollToTalk);
        await page.click(talk('Start Talking'));
        outcome = await page.waitFor(
          'the outcome of Start Talking',
          (failed: string, listening: string) => {
            const here = window as unknown as { __press?: boolean };
            if (!here.__press) return document.readyState === 'complete' ? 'reloaded' : '';
            const status = document.querySelector('#talk [role="status"]')?.textContent ?? '';
            if (status.trim() === listening) return 'listening';
            return document.querySelector('#talk')?.textContent?.includes(failed) ? 'failed' : '';
          },
          [LOAD_FAILED, LISTENING],
        );
        if (outcome === 'reloaded') {
          // The page reloaded to load the chat again, and starts the call it was asked for.
          await page.waitFor('the app to start again', appStarted, [], 30_000);
          await page.watch();
          await page.evaluate(startRecording);
          await page.waitFor('the resumed call to listen', talkStatusIs, [LISTENING]);
          outcome = 'listening';
        }
      }
      expect(outcome).toBe('listening');
      expect(proxy.changed.some((change) => change.startsWith('failed /assets/call-view-'))).toBe(
        true,
      );
      await page.click(talk('End Call'));
      await page.waitFor('the call to end', talkStatusIs, ['Ready to chat']);
      await expectLive(page, CHUNK_FAILED);
    },
  },
];

describeArrivals('scripts at fault', ARRIVALS);
