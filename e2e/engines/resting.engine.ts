// Pepa resting, in Gecko and WebKit: the gate's answer when what is spent has reached the day's
// pace, made by the arrival proxy (the local court rests only at an hour of the clock's choosing),
// and what the visitor is told: when she is back, in the browser's own time, as a polite status.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startArrivalProxy, type ArrivalProxy } from './arrival-proxy';
import { BACK_AT, RESTING_ANSWER } from '../support/court-answers';
import type { EngineName, EnginePage } from './engine';
import { openEngine } from './launch';

const ENGINES = (process.env.ENGINES ?? 'firefox,webkit')
  .split(',')
  .map((name) => name.trim())
  .filter((name): name is EngineName => name === 'firefox' || name === 'webkit');

const RESTING = { path: /^\/api\/calls$/, ...RESTING_ANSWER };
/** What the page logs of the gate's answer: a 503 for the call's request. */
const REFUSED = /503|Service Unavailable|api\/calls/i;

/** The notice the section says politely, and whether anything in it is said as an alert. */
function restingNotice() {
  const notice = [...document.querySelectorAll('#talk [role="status"]')].find((node) =>
    (node.textContent ?? '').startsWith('Pepa is resting'),
  );
  if (!notice) return null;
  const box = notice.getBoundingClientRect();
  return {
    text: notice.textContent?.replace(/\s+/g, ' ').trim() ?? '',
    inView: box.top >= 0 && box.bottom <= window.innerHeight,
    alerts: document.querySelectorAll('#talk [role="alert"]').length,
  };
}

/** The time the browser itself shows for `at`: the visitor's own clock and way of writing it. */
function localTime(at: string) {
  return new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit' }).format(
    new Date(at),
  );
}

describe.each(ENGINES)('in %s', (engine) => {
  let page: EnginePage;
  let proxy: ArrivalProxy;

  beforeAll(async () => {
    proxy = await startArrivalProxy(inject('siteUrl'), { answer: RESTING });
    page = await openEngine(engine, proxy.url, { microphone: true });
  });
  afterAll(async () => {
    await page?.close();
    await proxy?.close();
  });

  it('a start while Pepa rests says when she is back, in the browser’s own time, as a status', async () => {
    for (const size of [
      { width: 390, height: 844 },
      { width: 1440, height: 900 },
    ]) {
      await page.resize(size.width, size.height);
      await page.goto('/');
      await page.click({ role: 'button', name: 'Start Talking', within: '#talk' });
      const notice = await page.waitFor('Pepa resting to be said', restingNotice, []);
      const time = await page.evaluate(localTime, BACK_AT);
      expect(notice).toEqual({
        text: `Pepa is resting: the court spreads its budget over the day, so guests who come later meet her too. She is back at ${time}.`,
        inView: true,
        alerts: 0,
      });
    }
    expect(proxy.changed).toEqual(['answered /api/calls', 'answered /api/calls']);
    expect((await page.problems()).filter((problem) => !REFUSED.test(problem))).toEqual([]);
  });
});
