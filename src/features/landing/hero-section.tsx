import { buttonClass } from '../../components/ui/button-styles';
import { ExternalLink } from '../../components/ui/external-link';
import { CrownIcon, XLogoIcon } from '../../components/ui/icons';
import { siteConfig } from '../../config/site';
import { TokenAddress } from './token-address';
// Inlined into the page as a data: URL (2.6 KB with brotli): the first screen paints without
// waiting for a request.
import throneArt from '../../assets/art/pepa-throne.svg?inline';

export const TAGLINE =
  "Join the most luxurious meme ecosystem where rare frogs reign supreme. Stake, meme, and prosper in Pepa's kingdom.";

/** Intrinsic size of the throne art: its box is reserved before the image decodes. */
const THRONE_WIDTH = 480;
const THRONE_HEIGHT = 560;

export function HeroSection() {
  return (
    <section
      id="home"
      aria-labelledby="home-title"
      className="relative isolate flex min-h-svh items-center overflow-hidden pt-16"
    >
      <div
        aria-hidden="true"
        className="bg-court-pattern absolute inset-0 -z-10 [mask-image:radial-gradient(ellipse_at_center,black_30%,transparent_75%)]"
      />
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-20 bg-[radial-gradient(ellipse_80%_60%_at_75%_45%,rgba(226,184,74,0.16),transparent_60%),radial-gradient(ellipse_70%_60%_at_10%_10%,rgba(44,122,79,0.35),transparent_65%),linear-gradient(180deg,var(--color-court-950),var(--color-court-900))]"
      />

      <div className="mx-auto grid w-full max-w-7xl items-center gap-12 px-5 py-14 sm:px-8 md:grid-cols-2 md:gap-8 lg:gap-16">
        <div className="text-center md:text-left">
          <p className="inline-flex max-w-full items-center gap-2 rounded-full border border-gold-400/35 bg-court-950/50 px-4 py-1.5 font-display text-xs font-bold tracking-[0.3em] text-balance text-gold-300 uppercase">
            <CrownIcon className="size-4 shrink-0" />
            The Royal Frog Court
          </p>
          <h1
            id="home-title"
            className="text-gilded mt-6 font-display text-7xl leading-none font-bold tracking-wide drop-shadow-[0_6px_30px_rgba(226,184,74,0.25)] max-[380px]:text-[19vw] sm:text-8xl lg:text-9xl"
          >
            $PEPA
          </h1>
          <p className="mx-auto mt-6 max-w-xl text-base leading-relaxed text-ivory/90 sm:text-xl md:mx-0">
            {TAGLINE}
          </p>

          <div className="mx-auto mt-9 flex max-w-xs flex-col items-stretch gap-4 sm:max-w-none sm:flex-row sm:items-center sm:justify-center md:justify-start">
            <ExternalLink href={siteConfig.links.court} className={buttonClass('gold', 'lg')}>
              Join the Court NOW
            </ExternalLink>
            <ExternalLink href={siteConfig.buyUrl} className={buttonClass('outline', 'lg')}>
              Buy $PEPA
            </ExternalLink>
            <ExternalLink
              href={siteConfig.links.social}
              aria-label="$PEPA on X"
              className="grid size-13 place-items-center self-center rounded-full border border-gold-400/40 text-gold-200 transition hover:-translate-y-0.5 hover:border-gold-200 hover:bg-gold-300/10"
            >
              <XLogoIcon className="size-5" />
            </ExternalLink>
          </div>
          <TokenAddress address={siteConfig.tokenMint} />
        </div>

        <div className="relative mx-auto w-full max-w-sm sm:max-w-md lg:max-w-lg">
          <div
            aria-hidden="true"
            className="absolute inset-x-6 top-8 bottom-4 -z-10 rounded-t-full border border-gold-400/25 bg-[radial-gradient(circle_at_50%_40%,rgba(237,205,109,0.28),rgba(17,45,30,0.6)_55%,transparent_75%)]"
          />
          <img
            src={throneArt}
            alt="Pepa on Throne"
            width={THRONE_WIDTH}
            height={THRONE_HEIGHT}
            className="h-auto w-full motion-safe:animate-float"
          />
        </div>
      </div>
    </section>
  );
}
