// A court of its own for a spec that needs the line: the built demo behind the court gate in
// workerd and a stand-in provider in front of the suite's Prism, with as many voice places as the
// spec asks (every tab is one visitor, one address: the demo's loose visitor caps and edge
// limiter), started before the spec's tests and stopped after them. Each tab opens the demo on
// this stack.
import { resolve } from 'node:path';
import type { BrowserContext, Page } from '@playwright/test';
import { startCourtStack } from '../../scripts/lib/court-stack.mjs';
import { DEMO_EDGE_LIMIT, demoGateVars } from '../../scripts/lib/demo-services.mjs';
import { suggestFreePort } from '../../scripts/lib/ports.mjs';
import { test } from './fixtures';
import { MOCK_PORT, SITE_DIR } from './site';
import { suitePrismUrl } from './suite-prism';

/** Where the build tells its room to ask its stand-in: the suite's, answered here by this stack's. */
const BUILT_STAND_IN = `http://127.0.0.1:${MOCK_PORT}`;

export interface OwnCourt {
  /** The running stack: its gate's address and its stand-in provider's record of calls. */
  stack(): CourtStack;
  /**
   * A tab on this stack's gate at `?simScale=<scale>`: `prepare` runs before the page loads (a
   * recorder's init script), and the page is left at the top, hydrated.
   */
  tab(context: BrowserContext, prepare?: (page: Page) => Promise<void>): Promise<Page>;
}

type CourtStack = Awaited<ReturnType<typeof startCourtStack>>;

/**
 * Registers the stack's start and stop with the spec's hooks; its tests run one at a time. The
 * room is simulated at `scale` (0.2: five times as fast as a real one).
 */
export function ownCourt({ places, scale }: { places: number; scale: number }): OwnCourt {
  let court: CourtStack | null = null;
  test.describe.configure({ mode: 'serial' });

  // Ports of their own for each worker running at once, so two stacks never reach for one port.
  // eslint-disable-next-line no-empty-pattern -- no fixture is needed, only the worker's place
  test.beforeAll(async ({}, { parallelIndex }) => {
    const sitePort = await suggestFreePort(5600 + 50 * parallelIndex);
    const mockPort = await suggestFreePort(4600 + 50 * parallelIndex, [sitePort]);
    court = await startCourtStack({
      sitePort,
      mockPort,
      assetsDir: resolve(import.meta.dirname, '..', '..', SITE_DIR),
      vars: { ...demoGateVars({}), GATE_MAX_CONCURRENT_CALLS: String(places) },
      edgeLimit: DEMO_EDGE_LIMIT,
      prismUrl: suitePrismUrl(),
      quiet: true,
    });
  });

  test.afterAll(async () => {
    await court?.stop();
    court = null;
  });

  const stack = () => {
    if (!court) throw new Error('The court stack did not start');
    return court;
  };

  return {
    stack,
    async tab(context, prepare) {
      const { standInUrl: standIn, url } = stack();
      await context.route(`${BUILT_STAND_IN}/__demo/**`, (route) =>
        route.continue({ url: route.request().url().replace(BUILT_STAND_IN, standIn) }),
      );
      const page = await context.newPage();
      await prepare?.(page);
      await page.goto(`${url}/?simScale=${scale}`);
      return page;
    },
  };
}
