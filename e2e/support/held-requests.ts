import type { Page } from '@playwright/test';

/**
 * Holds every request whose URL matches until the returned `release` is called, then lets them
 * all go on as asked: a slow chunk, script or gate, for as long as the test needs.
 */
export async function holdRequests(page: Page, url: string | RegExp): Promise<() => void> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(url, async (route) => {
    await released;
    await route.continue();
  });
  return release;
}
