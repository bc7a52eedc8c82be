/** The page's anchors as the nav bar names them, in page order. */
export const NAV_LINKS = [
  { href: '#home', label: 'Home' },
  { href: '#talk', label: 'Talk to Pepa' },
  { href: '#pond', label: "Pepa's Pond" },
  { href: '#stream', label: 'Meme Stream' },
  { href: '#lounge', label: 'Vanity Lounge' },
  { href: '#grotto', label: 'Secret Grotto' },
] as const;

export const QUICK_LINKS = NAV_LINKS.slice(1);
