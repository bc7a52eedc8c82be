import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { NATIVE_MINT, parseSiteConfig } from '../src/config/site-config';
import { expect, test } from './support/fixtures';
import { htmlToText } from './support/page-text';
import { reviewShotPath, saveScreenshot } from './support/screenshot';

// The served site is the demo build (see playwright.config.ts): the same config it was built with.
const config = parseSiteConfig({ ...process.env, VITE_PEPA_DEMO: 'true' });

/** The page's sections in the spec's order, each with the texts the spec requires of it. */
const SECTIONS: { selector: string; texts: string[] }[] = [
  {
    selector: '#home',
    texts: [
      '$PEPA',
      "Join the most luxurious meme ecosystem where rare frogs reign supreme. Stake, meme, and prosper in Pepa's kingdom.",
      'Join the Court NOW',
      'Buy $PEPA',
    ],
  },
  {
    selector: '#talk',
    texts: [
      'Talk to Pepa',
      'Ready to chat',
      'Click the button below to start talking',
      'Start Talking',
    ],
  },
  {
    selector: '#pond',
    texts: ["Pepa's Pond", 'Coming Soon', 'Stake & Chill', 'APY Fit for Kings', 'Gossip Flows'],
  },
  {
    selector: '#stream',
    texts: [
      'The Meme Stream',
      'Live Battles',
      'Viral Voting',
      'Trending Now',
      'Street Cred Status: Legendary',
    ],
  },
  {
    selector: '#lounge',
    texts: [
      'The Vanity Lounge',
      'Royal Fashion Show',
      'Every Friday',
      'Avatar Makeover Night',
      'Bi-Weekly',
      'VIP Meet & Greet',
      'Monthly',
      'RSVP',
      'Coming Soon',
    ],
  },
  {
    selector: '#grotto',
    texts: [
      'The Secret Grotto',
      'Limited NFTs',
      'Hidden Quests',
      'Secret Lore',
      'Private Parties',
      'Coming Soon',
    ],
  },
  {
    selector: 'body > #root > footer',
    texts: ["Pepa's Pond", 'Meme Stream', 'Vanity Lounge', 'Secret Grotto', '© 2025 $PEPA'],
  },
];

const NAV_TARGETS = [
  { name: 'Home', id: 'home' },
  { name: "Pepa's Pond", id: 'pond' },
  { name: 'Meme Stream', id: 'stream' },
  { name: 'Vanity Lounge', id: 'lounge' },
  { name: 'Secret Grotto', id: 'grotto' },
];

/** `goto` resolves once the page has hydrated (see support/fixtures.ts). */
async function openHome(page: Page) {
  await page.goto('/');
}

function isPhone(projectName: string) {
  return projectName === 'phone';
}

test.describe('landing page', () => {
  test('shows every section in order with the spec texts', async ({ page }) => {
    await openHome(page);

    const order = await page.evaluate(
      (selectors) =>
        selectors.every((selector, index) => {
          if (index === 0) return true;
          const previous = document.querySelector(selectors[index - 1] ?? '');
          const current = document.querySelector(selector);
          return (
            previous !== null &&
            current !== null &&
            Boolean(previous.compareDocumentPosition(current) & Node.DOCUMENT_POSITION_FOLLOWING)
          );
        }),
      SECTIONS.map((section) => section.selector),
    );
    expect(order, 'sections follow the spec order').toBe(true);

    for (const { selector, texts } of SECTIONS) {
      const section = page.locator(selector);
      await expect(section).toBeAttached();
      for (const text of texts) await expect(section).toContainText(text);
    }

    await expect(page.getByRole('heading', { level: 1 })).toHaveText('$PEPA');
    await expect(page.getByRole('img', { name: 'Pepa on Throne' })).toBeVisible();
    await expect(page.locator('#talk').getByRole('status')).toHaveText('Ready to chat');
    await expect(
      page.locator('#talk').getByRole('button', { name: 'Start Talking' }),
    ).toBeEnabled();

    // Stream ×3, Lounge ×1, Grotto ×1: real, disabled buttons.
    const comingSoon = page.getByRole('button', { name: 'Coming Soon', exact: true });
    await expect(comingSoon).toHaveCount(5);
    for (const button of await comingSoon.all()) await expect(button).toBeDisabled();
    await expect(
      page.locator('#stream').getByRole('button', { name: 'Coming Soon', exact: true }),
    ).toHaveCount(3);

    for (const event of ['Royal Fashion Show', 'Avatar Makeover Night', 'VIP Meet & Greet']) {
      // The RSVP list is not open yet: disabled, and named as coming.
      await expect(
        page.getByRole('button', { name: `RSVP for ${event} (Coming Soon)` }),
      ).toBeDisabled();
    }
  });

  test('serves every section text in the prerendered HTML @once', async ({ request }) => {
    const response = await request.get('/');
    expect(response.status()).toBe(200);
    const text = htmlToText(await response.text());
    for (const { texts } of SECTIONS) {
      for (const expected of texts) expect(text).toContain(expected);
    }
  });

  test('each nav link brings its section into view below the fixed bar', async ({
    page,
  }, testInfo) => {
    await openHome(page);
    const nav = page.getByRole('navigation', { name: 'Main' });
    const toggle = nav.getByRole('button', { name: 'Menu' });

    // Start from the other end of the page so the Home link has to scroll too.
    for (const target of [...NAV_TARGETS.slice(1), NAV_TARGETS[0]!]) {
      if (isPhone(testInfo.project.name)) await toggle.click();
      await (isPhone(testInfo.project.name) ? page.locator('#mobile-menu') : nav)
        .getByRole('link', { name: target.name, exact: true })
        .click();
      await expect(page).toHaveURL(new RegExp(`#${target.id}$`));

      const navBottom = await page
        .locator('header')
        .evaluate((header) => header.getBoundingClientRect().bottom);
      // Wait until the section has come to rest at the bar's lower edge (or, for Home, at the
      // top of the page; for a short last section, at the end of the page).
      await expect
        .poll(
          () =>
            page.evaluate(
              ({ id, navBottom }) => {
                const top = document.getElementById(id)?.getBoundingClientRect().top ?? NaN;
                if (id === 'home') return window.scrollY === 0 && top === 0;
                const atPageEnd =
                  window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1;
                return top >= navBottom - 0.5 && (top <= navBottom + 1 || atPageEnd);
              },
              { id: target.id, navBottom },
            ),
          { message: `#${target.id} rests below the nav bar` },
        )
        .toBe(true);

      const heading = page.locator(`#${target.id}`).getByRole('heading').first();
      await expect(heading).toBeInViewport();
      const headingTop = await heading.evaluate((el) => el.getBoundingClientRect().top);
      expect(headingTop).toBeGreaterThanOrEqual(navBottom);
    }
  });

  test('the mobile menu opens, and closes on a link and on Escape', async ({ page }, testInfo) => {
    await openHome(page);
    const toggle = page.getByRole('button', { name: 'Menu' });
    const menu = page.locator('#mobile-menu');

    if (!isPhone(testInfo.project.name)) {
      // From `md` up the links live in the bar and there is nothing to toggle.
      await expect(toggle).toBeHidden();
      await expect(
        page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Secret Grotto' }),
      ).toBeVisible();
      return;
    }

    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(toggle).toHaveAttribute('aria-controls', 'mobile-menu');
    await expect(menu).toBeHidden();

    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await expect(menu).toBeVisible();
    await menu.getByRole('link', { name: 'Vanity Lounge' }).click();
    await expect(menu).toBeHidden();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');

    await toggle.click();
    await expect(menu).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(toggle).toBeFocused();
  });

  test('external links open in a new tab without opener or referrer @once', async ({ page }) => {
    await openHome(page);
    const external = page.locator('a[href^="http"]');
    // Hero: court, buy, social. Footer: X, Telegram, Discord.
    expect(await external.count()).toBeGreaterThanOrEqual(6);
    for (const link of await external.all()) {
      await expect(link).toHaveAttribute('target', '_blank');
      const rel = (await link.getAttribute('rel'))?.split(/\s+/) ?? [];
      expect(rel).toEqual(expect.arrayContaining(['noopener', 'noreferrer']));
    }

    const hero = page.locator('#home');
    await expect(hero.getByRole('link', { name: 'Join the Court NOW' })).toHaveAttribute(
      'href',
      config.links.court,
    );
    await expect(hero.getByRole('link', { name: '$PEPA on X' })).toHaveAttribute(
      'href',
      config.links.social,
    );
    const footer = page.locator('footer');
    for (const [name, href] of [
      ['$PEPA on X', config.links.footerX],
      ['$PEPA on Telegram', config.links.footerTelegram],
      ['$PEPA on Discord', config.links.footerDiscord],
    ] as const) {
      await expect(footer.getByRole('link', { name })).toHaveAttribute('href', href);
    }
  });

  test('the Buy link swaps the native coin for the token @once', async ({ page }) => {
    await openHome(page);
    const href = await page.getByRole('link', { name: 'Buy $PEPA' }).getAttribute('href');
    const url = new URL(href ?? '');
    expect(url.searchParams.get('sell')).toBe(NATIVE_MINT);
    expect(url.searchParams.get('buy')).toBe(config.tokenMint);
  });

  test('has no horizontal overflow', async ({ page }, testInfo) => {
    await openHome(page);
    const width = page.viewportSize()?.width ?? 0;
    const scrollWidth = () =>
      page.evaluate(() => document.scrollingElement?.scrollWidth ?? Infinity);
    expect(await scrollWidth()).toBeLessThanOrEqual(width);
    if (isPhone(testInfo.project.name)) {
      await page.getByRole('button', { name: 'Menu' }).click();
      expect(await scrollWidth()).toBeLessThanOrEqual(390);
    }
  });

  test('has no axe-core violations', async ({ page }) => {
    await openHome(page);
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations).toEqual([]);
  });

  test('full-page screenshot', async ({ page }, testInfo) => {
    await openHome(page);
    await page.evaluate(() => document.fonts.ready);
    await saveScreenshot(page, reviewShotPath(testInfo, 'landing'), {
      fullPage: true,
      animations: 'disabled',
    });
  });
});

test.describe('404 page', () => {
  test('answers unknown paths with HTTP 404 and the not-found page @once', async ({ request }) => {
    const response = await request.get('/no-such-page');
    expect(response.status()).toBe(404);
    const text = htmlToText(await response.text());
    expect(text).toContain('Oops! Page not found');
    expect(text).toContain('Return to Home');
  });

  test('links back home and passes axe-core', async ({ page }, testInfo) => {
    const response = await page.goto('/no-such-page');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Oops! Page not found');

    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations).toEqual([]);

    await page.evaluate(() => document.fonts.ready);
    await saveScreenshot(page, reviewShotPath(testInfo, 'not-found'), {
      fullPage: true,
      animations: 'disabled',
    });

    await page.getByRole('link', { name: 'Return to Home' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('$PEPA');
  });
});
