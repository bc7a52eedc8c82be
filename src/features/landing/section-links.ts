/** The page's anchors as the nav bar names them; the footer's quick links are the last four. */
export const NAV_LINKS = [
  { href: '#home', label: 'Home' },
  { href: '#pond', label: "Pepa's Pond" },
  { href: '#stream', label: 'Meme Stream' },
  { href: '#lounge', label: 'Vanity Lounge' },
  { href: '#grotto', label: 'Secret Grotto' },
] as const;

export const QUICK_LINKS = NAV_LINKS.slice(1);
