import type { ComponentType } from 'react';
import { ExternalLink } from '../../components/ui/external-link';
import { CrownIcon, DiscordIcon, TelegramIcon, XLogoIcon } from '../../components/ui/icons';
import { PRIVACY_ANCHOR, PRIVACY_HEADING, privacyParagraphs } from '../../config/privacy';
import { siteConfig } from '../../config/site';
import { QUICK_LINKS } from './section-links';

const SOCIAL_LINKS: { href: string; label: string; Icon: ComponentType<{ className?: string }> }[] =
  [
    { href: siteConfig.links.footerX, label: '$PEPA on X', Icon: XLogoIcon },
    { href: siteConfig.links.footerTelegram, label: '$PEPA on Telegram', Icon: TelegramIcon },
    { href: siteConfig.links.footerDiscord, label: '$PEPA on Discord', Icon: DiscordIcon },
  ];

export const COPYRIGHT = '© 2025 $PEPA. All rights reserved.';

export function SiteFooter() {
  return (
    <footer className="render-near-view border-t border-gold-400/20 bg-court-950 px-5 pt-16 pb-10 sm:px-8">
      <div className="mx-auto grid max-w-6xl grid-cols-1 gap-12 md:grid-cols-[1.4fr_1fr_1fr]">
        <div>
          <a
            href="#home"
            className="inline-flex items-center gap-2 font-display text-2xl font-bold tracking-wider text-gold-300 transition hover:text-gold-200"
          >
            <CrownIcon className="size-7" />
            $PEPA
          </a>
          <p className="mt-4 max-w-sm leading-relaxed text-mist">
            The royal court of rare frogs. Long may she reign.
          </p>
        </div>

        <nav aria-labelledby="footer-links-title">
          <h2
            id="footer-links-title"
            className="font-display text-sm font-bold tracking-[0.25em] text-gold-300 uppercase"
          >
            Quick Links
          </h2>
          <ul className="mt-4 space-y-1">
            {QUICK_LINKS.map((link) => (
              <li key={link.href}>
                <a
                  href={link.href}
                  className="inline-block py-1.5 text-ivory/85 transition hover:text-gold-200"
                >
                  {link.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>

        <div>
          <h2 className="font-display text-sm font-bold tracking-[0.25em] text-gold-300 uppercase">
            Follow the Court
          </h2>
          <ul className="mt-5 flex flex-wrap gap-3">
            {SOCIAL_LINKS.map(({ href, label, Icon }) => (
              <li key={label}>
                <ExternalLink
                  href={href}
                  aria-label={label}
                  className="grid size-12 place-items-center rounded-full border border-gold-400/35 text-gold-200 transition hover:-translate-y-0.5 hover:border-gold-200 hover:bg-gold-300/10"
                >
                  <Icon className="size-5" />
                </ExternalLink>
              </li>
            ))}
          </ul>
        </div>
      </div>

      <section
        id={PRIVACY_ANCHOR}
        aria-labelledby="privacy-title"
        className="mx-auto mt-12 max-w-6xl scroll-mt-20"
      >
        <h2
          id="privacy-title"
          className="font-display text-sm font-bold tracking-[0.25em] text-gold-300 uppercase"
        >
          {PRIVACY_HEADING}
        </h2>
        <div className="mt-4 max-w-3xl space-y-2 text-sm leading-relaxed text-mist">
          {privacyParagraphs(siteConfig.voice.recording).map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </div>
      </section>

      <div className="gold-rule mx-auto mt-14 max-w-6xl opacity-40" aria-hidden="true" />
      <p className="mt-8 text-center text-sm text-mist">{COPYRIGHT}</p>
    </footer>
  );
}
