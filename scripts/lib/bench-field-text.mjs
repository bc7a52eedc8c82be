// Text with Pepa under the field latency model, measured in the browser: on a phone and a
// desktop profile, a fresh page's chat opened with "Write to Pepa", one message sent, and the
// time from the Send tap to Pepa's first words on the page (through the local gate and the
// stand-in provider, which writes her words at the model's pace).
// The probe runs in the browser, hence these globals:
/* global window, document, Element, MutationObserver */
import { readFileSync } from 'node:fs';
import { profiledPage } from './bench-field-start.mjs';
import { log, ms, spread } from './bench-table.mjs';
import { BUTTON_TIMEOUT_MS, STEP_TIMEOUT_MS } from './bench-page.mjs';

/** When the stand-in writes a reply's first word, under the field model (ms after it is asked). */
export const FIELD_CHAT_FIRST_WORD_MS = /** @type {{ chatFirstWordMs: number }} */ (
  JSON.parse(
    readFileSync(
      new URL('../../src/lib/call/simulator/field-latency.json', import.meta.url),
      'utf8',
    ),
  )
).chatFirstWordMs;

/**
 * @typedef {{ sendAt: number | null, firstWordsAt: number | null }} TextProbe
 * @typedef {{ __pepaText: TextProbe }} TextProbedWindow
 */

/**
 * Runs in the page: the Send press, and the first moment after it that the reply being written
 * shows any of Pepa's words (the reply in writing holds more than her name and "Pepa is writing…").
 */
function installTextProbe() {
  const probe = {
    sendAt: /** @type {number | null} */ (null),
    firstWordsAt: /** @type {number | null} */ (null),
  };
  Object.defineProperty(window, '__pepaText', { value: probe });
  window.addEventListener(
    'pointerdown',
    (event) => {
      if (probe.sendAt !== null) return;
      const button = event.target instanceof Element ? event.target.closest('#talk button') : null;
      if (button && button.textContent?.trim() === 'Send') probe.sendAt = performance.now();
    },
    { capture: true },
  );
  new MutationObserver(() => {
    if (probe.sendAt === null || probe.firstWordsAt !== null) return;
    const writing = document.querySelector('#talk [data-testid="chat-writing"]');
    const words = (writing?.textContent ?? '')
      .replace('Pepa is writing…', '')
      .replace(/^\s*Pepa:\s*/, '');
    if (words.trim() !== '') probe.firstWordsAt = performance.now();
  }).observe(document, { subtree: true, childList: true, characterData: true });
}

/** @typedef {{ firstWords: number } | { problem: string }} TextSample */

/**
 * One fresh page on `profile`: the chat opened, a message typed and sent, the probe's figure.
 * @param {import('playwright-core').Browser} browser
 * @param {string} url
 * @param {{ context: object, cpuSlowdown: number, rttMs: number, downloadKbps: number, uploadKbps: number }} profile
 * @returns {Promise<TextSample>}
 */
export async function textSample(browser, url, profile) {
  const context = await browser.newContext({ ...profile.context });
  try {
    const { page, errors } = await profiledPage(context, profile);
    await page.addInitScript(installTextProbe);
    await page.goto(url, { waitUntil: 'load' });
    const talk = page.locator('#talk');
    const open = talk.getByRole('button', { name: 'Write to Pepa' });
    await open.waitFor({ timeout: BUTTON_TIMEOUT_MS });
    await open.scrollIntoViewIfNeeded();
    const press = (/** @type {import('playwright-core').Locator} */ target) =>
      /** @type {{ hasTouch?: boolean }} */ (profile.context).hasTouch
        ? target.tap({ timeout: STEP_TIMEOUT_MS })
        : target.click({ timeout: STEP_TIMEOUT_MS });
    await press(open);
    const field = talk.getByRole('textbox', { name: 'Message to Pepa' });
    await field.waitFor({ timeout: STEP_TIMEOUT_MS });
    await field.fill('What is $PEPA?');
    // The chat is open once its start has answered: Send is no longer held back.
    const send = talk.getByRole('button', { name: 'Send' });
    await page.waitForFunction(
      () => {
        const button = [...document.querySelectorAll('#talk button')].find(
          (b) => b.textContent?.trim() === 'Send',
        );
        return button !== undefined && button.getAttribute('aria-disabled') !== 'true';
      },
      null,
      { timeout: STEP_TIMEOUT_MS, polling: 50 },
    );
    await press(send);
    try {
      await page.waitForFunction(
        () =>
          /** @type {TextProbedWindow} */ (/** @type {unknown} */ (window)).__pepaText
            .firstWordsAt !== null,
        null,
        { timeout: 20_000, polling: 50 },
      );
    } catch {
      return {
        problem: `no words from Pepa within 20 s of Send${errors.length ? `; ${errors[0]}` : ''}`,
      };
    }
    const { sendAt, firstWordsAt } = await page.evaluate(() => ({
      .../** @type {TextProbedWindow} */ (/** @type {unknown} */ (window)).__pepaText,
    }));
    if (sendAt === null || firstWordsAt === null)
      return { problem: 'the Send press never reached the page' };
    return { firstWords: firstWordsAt - sendAt };
  } finally {
    await context.close();
  }
}

/** Messages timed per profile. */
const TEXT_SAMPLES = 5;

/**
 * Send → Pepa's first words by text on each profile: one chat untimed (the gate's first and the
 * browser's caches are cold), then {@link TEXT_SAMPLES}, their median and range in the table.
 * @param {{
 *   browser: import('playwright-core').Browser,
 *   url: string,
 *   profiles: Array<[string, Parameters<typeof textSample>[2]]>,
 *   table: ReturnType<typeof import('./bench-table.mjs').createBenchTable>,
 * }} run
 */
export async function measureTextFirstWords({ browser, url, profiles, table }) {
  for (const [name, profile] of profiles) {
    /** @type {number[]} */
    const firstWords = [];
    /** @type {string[]} */
    const problems = [];
    await textSample(browser, url, profile);
    for (let index = 0; index < TEXT_SAMPLES; index += 1) {
      const sample = await textSample(browser, url, profile);
      if ('problem' in sample) problems.push(sample.problem);
      else firstWords.push(sample.firstWords);
      log(
        `${name} text ${index + 1}/${TEXT_SAMPLES}: ` +
          ('problem' in sample ? sample.problem : `first words ${ms(sample.firstWords)}`),
      );
    }
    const label = `${name} (${profile.cpuSlowdown}× CPU, RTT ${profile.rttMs} ms)`;
    if (problems.length || firstWords.length === 0) {
      table.row(
        `Send → Pepa's first words by text, ${label}`,
        `failed: ${problems[0] ?? 'no samples'}`,
        '—',
        'FAIL',
      );
    } else {
      table.row(
        `Send → Pepa's first words by text through the local gate, ${label}: median of ${firstWords.length}`,
        spread(firstWords, ms),
        '—',
        'info',
      );
    }
  }
  table.note(
    "Text's first words: the stand-in writes a reply's first word " +
      `${FIELD_CHAT_FIRST_WORD_MS} ms after it is asked (the field model's chatFirstWordMs); the rest is the ` +
      "page, the profile's network and the gate (its Worker and text desk).",
  );
}
