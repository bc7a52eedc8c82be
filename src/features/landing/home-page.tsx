import { TalkSection } from '../talk/talk-section';
import { HeroSection } from './hero-section';
import { MemeStreamSection } from './meme-stream-section';
import { NavBar } from './nav-bar';
import { PondSection } from './pond-section';
import { SecretGrottoSection } from './secret-grotto-section';
import { SiteFooter } from './site-footer';
import { VanityLoungeSection } from './vanity-lounge-section';

/** Route "/": the sections in the spec's order. Only the nav bar holds client-side state. */
export function HomePage() {
  return (
    <>
      <NavBar />
      <main>
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
