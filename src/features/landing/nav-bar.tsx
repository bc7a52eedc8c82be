import { useEffect, useRef, useState } from 'react';
import { CloseIcon, CrownIcon, MenuIcon } from '../../components/ui/icons';
import { NAV_LINKS } from './section-links';

const MENU_ID = 'mobile-menu';
const TALK_HREF = '#talk';
/** Talk to Pepa, the page's reason to exist, stands out from the section links. */
const TALK_PILL =
  'rounded-full border border-gold-400/60 text-sm font-semibold whitespace-nowrap text-gold-200 transition hover:border-gold-200 hover:bg-gold-300/10';

/**
 * The fixed bar on top of the page. From `md` up the links sit in the bar; below it they fold
 * into a disclosure menu. The menu's open state is the only client-side state on the landing page.
 */
export function NavBar() {
  const [open, setOpen] = useState(false);
  const toggleRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    function onKeyDown(event: KeyboardEvent) {
      if (event.key !== 'Escape') return;
      // This Escape is the menu's: marked as handled, so a call in progress does not end too.
      event.preventDefault();
      setOpen(false);
      toggleRef.current?.focus();
    }
    // In the capture phase, so the menu sees Escape before any other listener on the page.
    document.addEventListener('keydown', onKeyDown, true);
    return () => document.removeEventListener('keydown', onKeyDown, true);
  }, [open]);

  const close = () => setOpen(false);

  return (
    // A shadow, not a border, draws the bar's edge: the bar stays exactly 4rem tall, the
    // scroll-padding-top in styles.css.
    <header className="fixed inset-x-0 top-0 z-50 bg-court-950/85 shadow-[0_1px_0_rgba(226,184,74,0.15)] backdrop-blur-md">
      <nav aria-label="Main">
        <div className="mx-auto flex h-16 max-w-7xl items-center justify-between px-3 min-[22rem]:px-5 sm:px-8">
          <a
            href="#home"
            className="flex items-center gap-2 font-display text-xl font-bold tracking-wider whitespace-nowrap text-gold-300 transition hover:text-gold-200"
          >
            {/* The bar keeps the words, not the ornament, where room is short: under 22rem (200 % zoom
                on a small phone) and between md and lg, where all the links share the bar. */}
            <CrownIcon className="size-6 max-[22rem]:hidden md:max-lg:hidden" />
            $PEPA
          </a>

          <ul className="hidden items-center gap-0.5 md:flex lg:gap-1">
            {NAV_LINKS.map((link) => (
              <li key={link.href}>
                <a
                  href={link.href}
                  className={
                    link.href === TALK_HREF
                      ? `${TALK_PILL} px-2.5 py-2 lg:px-4`
                      : 'rounded-full px-2 py-2 text-sm font-medium whitespace-nowrap text-ivory/85 transition hover:bg-gold-300/10 hover:text-gold-200 lg:px-4'
                  }
                >
                  {link.label}
                </a>
              </li>
            ))}
          </ul>

          {/* Phones: Pepa is one tap away without opening the menu (where the link also is). */}
          <a
            href={TALK_HREF}
            className={`${TALK_PILL} ml-auto hidden h-11 items-center px-4 min-[22rem]:inline-flex md:hidden`}
          >
            Talk to Pepa
          </a>
          <button
            ref={toggleRef}
            type="button"
            data-early=""
            className="ml-3 grid size-11 shrink-0 place-items-center rounded-full border border-gold-400/30 text-gold-200 transition hover:border-gold-300 hover:bg-gold-300/10 md:hidden"
            aria-label="Menu"
            aria-expanded={open}
            aria-controls={MENU_ID}
            onClick={() => setOpen((was) => !was)}
          >
            {open ? <CloseIcon /> : <MenuIcon />}
          </button>
        </div>

        <div
          id={MENU_ID}
          hidden={!open}
          className="max-h-[calc(100svh-4rem)] overflow-y-auto border-t border-gold-400/15 md:hidden"
        >
          <ul className="mx-auto flex max-w-7xl flex-col px-5 py-3 sm:px-8">
            {NAV_LINKS.map((link) => (
              <li key={link.href} className="border-b border-gold-400/10 last:border-0">
                <a
                  href={link.href}
                  onClick={close}
                  className="flex items-center justify-between py-4 font-display text-lg font-bold text-ivory transition hover:text-gold-200"
                >
                  {link.label}
                  <span aria-hidden="true" className="text-gold-400">
                    ›
                  </span>
                </a>
              </li>
            ))}
          </ul>
        </div>
      </nav>
    </header>
  );
}
