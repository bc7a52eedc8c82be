// @ts-check
// `npm run screenshots`' journey: the visitor's whole conversation with Pepa (scripts/lib/journey.mjs,
// the walk the browser suite's e2e/journey.spec.ts checks), photographed at each step at 390 and
// 1440 px, on the demo build behind the court gate with one voice place:
//   journey-<step>-<width>.png   e.g. journey-chat-390.png, journey-section-1440.png
// Prints, for each step, where the focus is, the lines of state in view, and any two that disagree.
import { join, resolve } from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, MEDIA_ARGS } from './chromium.mjs';
import { startCourtStack } from './court-stack.mjs';
import { DEMO_EDGE_LIMIT, demoGateVars } from './demo-services.mjs';
import {
  contradictions,
  focusNow,
  quietMicrophone,
  refuseMicrophone,
  statusLinesNow,
  walkJourney,
  walkRefusedMicrophone,
} from './journey.mjs';
import { suggestFreePort } from './ports.mjs';

const WIDTHS = [
  { width: 390, height: 844, mobile: true },
  { width: 1440, height: 900, mobile: false },
];
/** The simulated room a little faster than life; the pictures do not show time. */
const SIM_SCALE = 0.5;

/**
 * Walks the journey at each width on the demo built in `siteDir` for the stand-in on `mockPort`,
 * and writes a picture of each step to `outDir`. Returns the disagreements seen (none, ideally).
 * @param {{ siteDir: string, mockPort: number, outDir: string }} options
 * @returns {Promise<string[]>}
 */
export async function shootJourney({ siteDir, mockPort, outDir }) {
  const sitePort = await suggestFreePort(5900, [mockPort]);
  const court = await startCourtStack({
    sitePort,
    mockPort,
    assetsDir: resolve(siteDir),
    vars: { ...demoGateVars({}), GATE_MAX_CONCURRENT_CALLS: '1' },
    edgeLimit: DEMO_EDGE_LIMIT,
    quiet: true,
  });
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, ...MEDIA_ARGS],
  });
  /** @type {string[]} */
  const disagreements = [];
  const url = `${court.url}/?simScale=${SIM_SCALE}`;
  try {
    for (const size of WIDTHS) {
      const context = await browser.newContext({
        viewport: { width: size.width, height: size.height },
        deviceScaleFactor: 1,
        isMobile: size.mobile,
        hasTouch: size.mobile,
        reducedMotion: 'reduce',
      });
      /** @param {import('playwright-core').Page} page @returns {import('./journey.mjs').AtStep} */
      const shoot = (page) => async (step) => {
        await page.screenshot({ path: join(outDir, `journey-${step.name}-${size.width}.png`) });
        const lines = await page.evaluate(statusLinesNow);
        const focus = await page.evaluate(focusNow);
        const inView = lines.lines.filter((line) => line.inView).map((line) => line.text);
        const disagree = contradictions(lines);
        disagreements.push(...disagree.map((text) => `${step.name} ${size.width}: ${text}`));
        console.log(
          `journey-${step.name}-${size.width}.png  focus: ${focus}\n  lines: ${inView.join(' · ')}` +
            (disagree.length > 0 ? `\n  DISAGREE: ${disagree.join('; ')}` : ''),
        );
      };
      try {
        const visitor = await context.newPage();
        const holder = await context.newPage();
        await quietMicrophone(visitor);
        await walkJourney({ visitor, holder, url, touch: size.mobile, at: shoot(visitor) });
        const refused = await context.newPage();
        await refuseMicrophone(refused);
        await walkRefusedMicrophone({
          visitor: refused,
          url,
          touch: size.mobile,
          at: shoot(refused),
        });
      } finally {
        await context.close();
      }
    }
  } finally {
    await browser.close();
    await court.stop();
  }
  return disagreements;
}
