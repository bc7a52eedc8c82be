// The arrival matrix, by address: a plain address, each section's address, a reload at a section
// reached by a nav link, a reload after scrolling, and the 404 page's way home.
import { expect } from 'vitest';
import {
  describeArrivals,
  expectLive,
  HOME,
  menuButton,
  PAGE_NOT_FOUND,
  type Arrival,
} from './arrival-matrix';

const SECTIONS = ['home', 'talk', 'pond', 'stream', 'lounge', 'grotto'];

/**
 * The page has scrolled to the section with this id: the address names it and the section's top is
 * where a scroll to it ends (below the header's scroll padding), or the page is at its very end.
 */
function scrolledTo(id: string) {
  const section = document.getElementById(id);
  if (!section || window.location.hash !== `#${id}`) return false;
  const margin =
    (parseFloat(getComputedStyle(document.documentElement).scrollPaddingTop) || 0) +
    (parseFloat(getComputedStyle(section).scrollMarginTop) || 0);
  const atEnd =
    window.scrollY > 0 &&
    window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1;
  return Math.abs(section.getBoundingClientRect().top - margin) < 2 || atEnd;
}

const ARRIVALS: Arrival[] = [
  {
    name: 'a plain address',
    async run(page) {
      await page.goto(HOME, { hydrated: false });
      await expectLive(page);
    },
  },
  ...SECTIONS.map((id): Arrival => ({
    name: `a section's address, #${id}`,
    async run(page) {
      await page.goto(`${HOME}#${id}`, { hydrated: false });
      await expectLive(page);
    },
  })),
  {
    name: 'a nav link, then reload at its section',
    async run(page) {
      await page.goto(HOME);
      await page.click(menuButton);
      await page.click({ role: 'link', name: 'Secret Grotto', within: '#mobile-menu' });
      // The page scrolls there (gliding, with motion); the visitor reloads once they see it (a reload
      // mid-scroll would keep the position the scroll had reached, perhaps the very top).
      await page.waitFor('the scroll to the section', scrolledTo, ['grotto']);
      await page.reload();
      expect(await page.evaluate(() => window.location.hash)).toBe('#grotto');
      await page.waitFor('the page at its section', () => window.scrollY > 0, []);
      await expectLive(page);
    },
  },
  {
    name: 'scroll down, then reload (no section in the address)',
    async run(page) {
      await page.goto(HOME);
      await page.evaluate(() => window.scrollTo({ top: 2000, behavior: 'instant' }));
      await page.waitFor('the scroll', () => window.scrollY > 1000, []);
      await page.reload();
      await page.waitFor('the page where it was scrolled', () => window.scrollY > 0, []);
      await expectLive(page);
    },
  },
  {
    name: "the 404 page's Return to Home",
    async run(page) {
      await page.goto('/no-such-page');
      await page.click({ role: 'link', name: 'Return to Home' });
      await page.waitFor('home', () => window.location.pathname === '/', []);
      await expectLive(page, PAGE_NOT_FOUND);
    },
  },
];

describeArrivals('by address', ARRIVALS);
