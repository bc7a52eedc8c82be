import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { NavBar } from './nav-bar';

function setup() {
  const user = userEvent.setup();
  render(<NavBar />);
  const toggle = screen.getByRole('button', { name: 'Menu' });
  const menu = document.getElementById('mobile-menu');
  if (!menu) throw new Error('the mobile menu is not rendered');
  return { user, toggle, menu };
}

describe('NavBar', () => {
  it('links the brand and every section', () => {
    render(<NavBar />);
    const nav = screen.getByRole('navigation', { name: 'Main' });
    expect(within(nav).getByRole('link', { name: '$PEPA' })).toHaveAttribute('href', '#home');
    // The bar's own list (the menu's copy is hidden until opened).
    const links = within(nav).getAllByRole('link').slice(1);
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Home', '#home'],
      ['Talk to Pepa', '#talk'],
      ["Pepa's Pond", '#pond'],
      ['Meme Stream', '#stream'],
      ['Vanity Lounge', '#lounge'],
      ['Secret Grotto', '#grotto'],
      // The phones' shortcut beside the menu button.
      ['Talk to Pepa', '#talk'],
    ]);
  });

  it('starts closed, with the toggle naming what it controls', () => {
    const { toggle, menu } = setup();
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveAttribute('aria-controls', 'mobile-menu');
    expect(menu).not.toBeVisible();
  });

  it('opens and closes with the toggle', async () => {
    const { user, toggle, menu } = setup();
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(menu).toBeVisible();
    expect(within(menu).getAllByRole('link')).toHaveLength(6);
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(menu).not.toBeVisible();
  });

  it('closes when a link is chosen', async () => {
    const { user, toggle, menu } = setup();
    await user.click(toggle);
    await user.click(within(menu).getByRole('link', { name: 'Secret Grotto' }));
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(menu).not.toBeVisible();
  });

  it('closes on Escape and gives focus back to the toggle', async () => {
    const { user, toggle, menu } = setup();
    await user.click(toggle);
    within(menu).getByRole('link', { name: 'Home' }).focus();
    await user.keyboard('{Escape}');
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(menu).not.toBeVisible();
    expect(toggle).toHaveFocus();
  });

  it('ignores other keys and stops listening once closed', async () => {
    const { user, toggle } = setup();
    await user.click(toggle);
    await user.keyboard('a');
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    await user.keyboard('{Escape}');
    toggle.blur();
    await user.keyboard('{Escape}');
    expect(toggle).not.toHaveFocus();
  });
});
