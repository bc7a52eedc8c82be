import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { siteConfig } from '../../config/site';
import { NATIVE_MINT } from '../../config/site-config';
import { HomePage } from './home-page';

function renderPage() {
  render(<HomePage />);
  const section = (id: string) => {
    const element = document.getElementById(id);
    if (!element) throw new Error(`#${id} is missing`);
    return element;
  };
  return { section };
}

function expectExternal(link: HTMLElement) {
  expect(link).toHaveAttribute('target', '_blank');
  expect(link.getAttribute('rel')?.split(' ')).toEqual(
    expect.arrayContaining(['noopener', 'noreferrer']),
  );
}

describe('HomePage', () => {
  it('renders the sections in the spec order, then the footer', () => {
    const { container } = render(<HomePage />);
    const ids = Array.from(container.querySelectorAll('main > section')).map((s) => s.id);
    expect(ids).toEqual(['home', 'talk', 'pond', 'stream', 'lounge', 'grotto']);
    expect(container.lastElementChild?.tagName).toBe('FOOTER');
  });

  it('hero: title, tagline word for word, the two calls to action and the throne', () => {
    const { section } = renderPage();
    const hero = within(section('home'));
    expect(hero.getByRole('heading', { level: 1 })).toHaveTextContent('$PEPA');
    expect(
      hero.getByText(
        "Join the most luxurious meme ecosystem where rare frogs reign supreme. Stake, meme, and prosper in Pepa's kingdom.",
      ),
    ).toBeInTheDocument();

    const court = hero.getByRole('link', { name: 'Join the Court NOW' });
    expect(court).toHaveAttribute('href', siteConfig.links.court);
    expectExternal(court);

    const social = hero.getByRole('link', { name: '$PEPA on X' });
    expect(social).toHaveAttribute('href', siteConfig.links.social);
    expectExternal(social);

    const throne = hero.getByRole('img', { name: 'Pepa on Throne' });
    expect(throne).toHaveAttribute('width');
    expect(throne).toHaveAttribute('height');
    // The art travels inside the page: nothing to request before the first paint.
    expect(throne.getAttribute('src')).toMatch(/^data:image\/svg\+xml/);
    expect(throne).not.toHaveAttribute('loading', 'lazy');
  });

  it('Buy $PEPA swaps the native coin (input) for the token mint (output)', () => {
    const { section } = renderPage();
    const buy = within(section('home')).getByRole('link', { name: 'Buy $PEPA' });
    expectExternal(buy);
    const url = new URL(buy.getAttribute('href') ?? '');
    expect(url.searchParams.get('sell')).toBe(NATIVE_MINT);
    expect(url.searchParams.get('buy')).toBe(siteConfig.tokenMint);
  });

  it('Talk to Pepa shows its idle state', () => {
    const { section } = renderPage();
    const talk = within(section('talk'));
    expect(talk.getByRole('heading', { name: 'Talk to Pepa' })).toBeInTheDocument();
    expect(talk.getByRole('status')).toHaveTextContent('Ready to chat');
    expect(talk.getByText('Click the button below to start talking')).toBeInTheDocument();
    expect(talk.getByRole('button', { name: 'Start Talking' })).toBeEnabled();
    expect(talk.getByRole('img', { name: /pepa/i })).toHaveAttribute('width', '240');
  });

  it("Pepa's Pond: the Coming Soon label and three cards", () => {
    const { section } = renderPage();
    const pond = within(section('pond'));
    expect(pond.getByRole('heading', { level: 2 })).toHaveTextContent("Pepa's Pond");
    expect(pond.getByText('Coming Soon')).toBeInTheDocument();
    expect(pond.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual([
      'Stake & Chill',
      'APY Fit for Kings',
      'Gossip Flows',
    ]);
  });

  it('The Meme Stream: three cards with a disabled Coming Soon button each, and the banner', () => {
    const { section } = renderPage();
    const stream = within(section('stream'));
    expect(stream.getByRole('heading', { level: 2 })).toHaveTextContent('The Meme Stream');
    const cards = stream.getAllByRole('article');
    expect(cards.map((card) => within(card).getByRole('heading').textContent)).toEqual([
      'Live Battles',
      'Viral Voting',
      'Trending Now',
    ]);
    for (const card of cards) {
      expect(within(card).getByRole('button', { name: 'Coming Soon' })).toBeDisabled();
    }
    expect(stream.getByText(/^Street Cred Status:/).textContent).toBe(
      'Street Cred Status: Legendary',
    );
  });

  it('The Vanity Lounge: three events with cadences and RSVP buttons, plus Coming Soon', () => {
    const { section } = renderPage();
    const lounge = within(section('lounge'));
    expect(lounge.getByRole('heading', { level: 2 })).toHaveTextContent('The Vanity Lounge');
    for (const [event, cadence] of [
      ['Royal Fashion Show', 'Every Friday'],
      ['Avatar Makeover Night', 'Bi-Weekly'],
      ['VIP Meet & Greet', 'Monthly'],
    ] as const) {
      const item = lounge.getByRole('heading', { name: event }).closest('li');
      if (!item) throw new Error(`${event} is not in a list item`);
      expect(within(item).getByText(cadence)).toBeInTheDocument();
      // Not open yet: a real button, disabled, that says it is coming.
      const rsvp = within(item).getByRole('button', { name: `RSVP for ${event} (Coming Soon)` });
      expect(rsvp).toHaveTextContent(/^RSVP\s*Coming Soon$/);
      expect(rsvp).toHaveAttribute('type', 'button');
      expect(rsvp).toBeDisabled();
    }
    expect(lounge.getByRole('button', { name: 'Coming Soon' })).toBeDisabled();
  });

  it('The Secret Grotto: four cards and a disabled Coming Soon button', () => {
    const { section } = renderPage();
    const grotto = within(section('grotto'));
    expect(grotto.getByRole('heading', { level: 2 })).toHaveTextContent('The Secret Grotto');
    expect(grotto.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual([
      'Limited NFTs',
      'Hidden Quests',
      'Secret Lore',
      'Private Parties',
    ]);
    expect(grotto.getByRole('button', { name: 'Coming Soon' })).toBeDisabled();
  });

  it('opens with a skip link to the main content, which can take focus', () => {
    renderPage();
    const skip = screen.getAllByRole('link')[0];
    expect(skip).toHaveTextContent('Skip to content');
    expect(skip).toHaveAttribute('href', '#main');
    expect(screen.getByRole('main')).toHaveAttribute('id', 'main');
    expect(screen.getByRole('main')).toHaveAttribute('tabindex', '-1');
  });

  it('shows the contract address in the hero with a copy button', () => {
    const { section } = renderPage();
    const hero = within(section('home'));
    expect(hero.getByText(siteConfig.tokenMint, { selector: '.sr-only' })).toBeInTheDocument();
    expect(hero.getByRole('button', { name: 'Copy contract address' })).toBeEnabled();
  });

  it('every Coming Soon button on the page is a real disabled button', () => {
    renderPage();
    const buttons = screen.getAllByRole('button', { name: 'Coming Soon' });
    expect(buttons).toHaveLength(5);
    for (const button of buttons) {
      expect(button.tagName).toBe('BUTTON');
      expect(button).toBeDisabled();
    }
  });

  it('footer: quick links, three named social links, the 2025 copyright', () => {
    renderPage();
    const footer = within(screen.getByRole('contentinfo'));
    const quick = within(footer.getByRole('navigation', { name: 'Quick Links' }));
    expect(quick.getAllByRole('link').map((link) => link.getAttribute('href'))).toEqual([
      '#talk',
      '#pond',
      '#stream',
      '#lounge',
      '#grotto',
    ]);
    for (const [name, href] of [
      ['$PEPA on X', siteConfig.links.footerX],
      ['$PEPA on Telegram', siteConfig.links.footerTelegram],
      ['$PEPA on Discord', siteConfig.links.footerDiscord],
    ] as const) {
      const link = footer.getByRole('link', { name });
      expect(link).toHaveAttribute('href', href);
      expectExternal(link);
    }
    expect(footer.getByText('© 2025 $PEPA. All rights reserved.')).toBeInTheDocument();
  });

  it('opens every external link in a new tab without opener or referrer', () => {
    renderPage();
    const external = screen
      .getAllByRole('link')
      .filter((link) => /^https?:/.test(link.getAttribute('href') ?? ''));
    expect(external).toHaveLength(6);
    external.forEach(expectExternal);
  });
});
