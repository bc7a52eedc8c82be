import { SkipLink } from '../../components/ui/skip-link';
import { TalkSection } from '../../features/talk/section/talk-section';
import { HeroSection } from '../../features/landing/hero-section';
import { useInPageLinksLand } from '../../features/landing/in-page-links';
import { MemeStreamSection } from '../../features/landing/meme-stream-section';
import { NavBar } from '../../features/landing/nav-bar';
import { PondSection } from '../../features/landing/pond-section';
import { SecretGrottoSection } from '../../features/landing/secret-grotto-section';
import { SiteFooter } from '../../features/landing/site-footer';
import { VanityLoungeSection } from '../../features/landing/vanity-lounge-section';

export const MAIN_ID = 'main';

/**
 * Route "/": the sections in the spec's order. Only the nav bar holds client-side state; in-page
 * links are made to land where they point.
 */
export function HomePage() {
  useInPageLinksLand();
  return (
    <>
      <SkipLink targetId={MAIN_ID}>Skip to content</SkipLink>
      <NavBar />
      {/* Focusable from script only: the skip link moves focus here, past the navigation. */}
      <main id={MAIN_ID} tabIndex={-1} className="outline-none">
        <HeroSection />
        <TalkSection />
        <PondSection />
        <MemeStreamSection />
        <VanityLoungeSection />
        <SecretGrottoSection />
      </main>
      <SiteFooter />
    </>
  );
}
