import { useEffect, useState } from 'react';
import { buttonClass } from '../../../components/ui/button-styles';
import { ExternalLink } from '../../../components/ui/external-link';
import { CheckIcon, CopyIcon, CrownIcon } from '../../../components/ui/icons';
import { siteConfig } from '../../../config/site';
import type { SiteCardShown } from './use-page-tools';

export const SITE_CARD_TITLE = 'From the $PEPA site';
export const SITE_CARD_NOTE =
  "Official: shown by this site from its own settings, never from Pepa's words.";
export const COPY_ADDRESS_LABEL = 'Copy the official contract address';
export const ADDRESS_COPIED = 'Official contract address copied';
export const BUY_LABEL = 'Buy $PEPA';
export const BUY_NOTE =
  'Opens the swap page in a new tab when you press it. A meme token: not advice.';
/** How long Copy reads 'Copied'. */
const COPIED_MS = 2000;

/**
 * The facts Pepa may point to, from the site's configuration only: the contract address with
 * Copy, the Buy button (the visitor presses it; the page never opens it by itself) and the
 * community links.
 */
export function SiteCard({ shown }: { shown: SiteCardShown }) {
  const [copied, setCopied] = useState(false);
  const [announcement, setAnnouncement] = useState('');

  useEffect(() => {
    if (!copied) return;
    const timer = window.setTimeout(() => setCopied(false), COPIED_MS);
    return () => window.clearTimeout(timer);
  }, [copied]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(siteConfig.tokenMint);
      setCopied(true);
      setAnnouncement(ADDRESS_COPIED);
    } catch {
      setAnnouncement('Your browser did not allow copying. Select the address and copy it.');
    }
  };

  return (
    <section
      aria-labelledby="site-card-title"
      data-testid="site-card"
      className="w-full rounded-2xl border border-gold-400/50 bg-court-950/70 p-4 text-left text-sm"
    >
      <h3
        id="site-card-title"
        className="flex items-center gap-2 font-display text-xs font-bold tracking-widest text-gold-200 uppercase"
      >
        <CrownIcon className="size-4" />
        {SITE_CARD_TITLE}
      </h3>
      <p className="mt-1 text-xs text-mist">{SITE_CARD_NOTE}</p>
      {shown.contract && (
        <div className="mt-3">
          <p className="text-xs font-semibold text-gold-200">Contract address</p>
          <p className="mt-1 font-semibold break-all text-ivory" data-testid="official-address">
            {siteConfig.tokenMint}
          </p>
          <button
            type="button"
            onClick={() => void copy()}
            className={buttonClass('outline', 'md', 'mt-2')}
          >
            {copied ? <CheckIcon className="size-4" /> : <CopyIcon className="size-4" />}
            <span aria-hidden="true">{copied ? 'Copied' : 'Copy'}</span>
            <span className="sr-only">{COPY_ADDRESS_LABEL}</span>
          </button>
        </div>
      )}
      {shown.buy && (
        <div className="mt-3">
          <ExternalLink href={siteConfig.buyUrl} className={buttonClass('gold', 'md')}>
            {BUY_LABEL}
          </ExternalLink>
          <p className="mt-1 text-xs text-mist">{BUY_NOTE}</p>
        </div>
      )}
      <p className="mt-3 flex flex-wrap gap-x-4 gap-y-1">
        <ExternalLink
          href={siteConfig.links.court}
          className="text-gold-200 underline underline-offset-2"
        >
          Join the Court
        </ExternalLink>
        <ExternalLink
          href={siteConfig.links.social}
          className="text-gold-200 underline underline-offset-2"
        >
          $PEPA on X
        </ExternalLink>
      </p>
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>
    </section>
  );
}
