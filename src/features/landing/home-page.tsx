import { SkipLink } from '../../components/ui/skip-link';
import { TalkSection } from '../talk/talk-section';
import { HeroSection } from './hero-section';
import { MemeStreamSection } from './meme-stream-section';
import { NavBar } from './nav-bar';
import { PondSection } from './pond-section';
import { SecretGrottoSection } from './secret-grotto-section';
import { SiteFooter } from './site-footer';
import { VanityLoungeSection } from './vanity-lounge-section';

export const MAIN_ID = 'main';

/** Route "/": the sections in the spec's order. Only the nav bar holds client-side state. */
export function HomePage() {
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
