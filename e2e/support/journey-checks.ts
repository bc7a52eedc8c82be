import AxeBuilder from '@axe-core/playwright';
import type { Locator, Page, TestInfo } from '@playwright/test';
import type { JourneyStep } from '../../scripts/lib/journey.mjs';
import { contradictions, focusNow, statusLinesNow } from '../../scripts/lib/journey-lines.mjs';
import { expect } from './fixtures';

/** A pixel of rounding either way. */
const SLACK = 1;

/** Where `locator` is against the viewport: wholly in it, partly, or not at all. */
async function placeInView(page: Page, locator: Locator) {
  const box = await locator.boundingBox();
  const viewport = page.viewportSize();
  if (!box || !viewport) return { box, viewport, whole: false, part: false };
  const whole =
    box.x >= -SLACK &&
    box.y >= -SLACK &&
    box.x + box.width <= viewport.width + SLACK &&
    box.y + box.height <= viewport.height + SLACK;
  const part =
    box.x < viewport.width &&
    box.y < viewport.height &&
    box.x + box.width > 0 &&
    box.y + box.height > 0;
  return { box, viewport, whole, part };
}

/** What has the keyboard's focus, as a screen reader would name it: role and name. */
export async function focusedControl(page: Page): Promise<string> {
  return page.evaluate(focusNow);
}

/** What a step showed, for the test's report. */
export interface StepSeen {
  name: string;
  focus: string;
  lines: string[];
  thread: string[];
}

/**
 * Checks one step of the journey as the visitor sees it: everything the step names is in the
 * viewport (wholly, or partly for a long log), the focus is where the step says, no two visible
 * lines of state contradict each other, and axe finds nothing in what the step shows. A capture of
 * the step goes to test-results/ (never to a tracked path). The checks are soft: a step that fails
 * one is still walked on, so one run reports every step's faults.
 */
export async function checkStep(
  page: Page,
  step: JourneyStep,
  testInfo: TestInfo,
): Promise<StepSeen> {
  const where = `step '${step.name}'`;
  for (const locator of step.inView) {
    const place = await placeInView(page, locator);
    expect
      .soft(place.whole, `${where}: ${String(locator)} wholly in view ${JSON.stringify(place)}`)
      .toBe(true);
  }
  for (const locator of step.partlyInView ?? []) {
    const place = await placeInView(page, locator);
    expect
      .soft(place.part, `${where}: ${String(locator)} in view ${JSON.stringify(place)}`)
      .toBe(true);
  }
  const focus = await focusedControl(page);
  if (step.focused === 'page') {
    expect.soft(focus, `${where}: the focus`).toBe('the page');
  } else {
    await expect
      .soft(step.focused, `${where}: the focus (it is on ${focus})`)
      .toBeFocused({ timeout: 1000 });
  }
  const lines = await page.evaluate(statusLinesNow);
  expect.soft(contradictions(lines), `${where}: lines that disagree`).toEqual([]);
  for (const selector of step.axe) {
    const { violations } = await new AxeBuilder({ page }).include(selector).analyze();
    expect
      .soft(
        violations.map(
          (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target).join(' ')}`,
        ),
        `${where}: axe in ${selector}`,
      )
      .toEqual([]);
  }
  await page.screenshot({
    path: `test-results/screenshots/journey-${step.name}-${testInfo.project.name}.png`,
  });
  return {
    name: step.name,
    focus,
    lines: lines.lines.filter((line) => line.inView).map((line) => `${line.where}: ${line.text}`),
    thread: step.thread ?? [],
  };
}
