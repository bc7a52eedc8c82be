import type { ComponentType } from 'react';
import { Card } from '../../components/ui/card';
import { ComingSoonButton } from '../../components/ui/coming-soon-button';
import { BallotIcon, CrownIcon, FlameIcon, SwordsIcon } from '../../components/ui/icons';
import { SectionHeading } from '../../components/ui/section-heading';

export const STREAM_FEATURES: { title: string; text: string; Icon: ComponentType }[] = [
  {
    title: 'Live Battles',
    text: 'Meme against meme, frog against frog. The court watches live and the sharpest wit wins.',
    Icon: SwordsIcon,
  },
  {
    title: 'Viral Voting',
    text: "Every holder has a voice. Cast yours and raise tomorrow's legends to the throne.",
    Icon: BallotIcon,
  },
  {
    title: 'Trending Now',
    text: 'The hottest memes in the kingdom, fresh from the lily pads and rising fast.',
    Icon: FlameIcon,
  },
];

export function MemeStreamSection() {
  return (
    <section
      id="stream"
      aria-labelledby="stream-title"
      className="render-near-view relative border-t border-gold-400/10 bg-court-950 px-5 py-24 sm:px-8"
    >
      <SectionHeading id="stream-title" eyebrow="Where memes are crowned" title="The Meme Stream">
        The court&apos;s endless river of memes, battled over, voted on and crowned by the
        community.
      </SectionHeading>
      <ul className="mx-auto mt-14 grid max-w-6xl grid-cols-1 gap-6 md:grid-cols-3">
        {STREAM_FEATURES.map(({ title, text, Icon }) => (
          <li key={title}>
            <Card title={title} icon={<Icon />} footer={<ComingSoonButton className="w-full" />}>
              {text}
            </Card>
          </li>
        ))}
      </ul>

      <div className="relative mx-auto mt-12 max-w-6xl overflow-hidden rounded-3xl border border-gold-300/50 bg-linear-to-r from-gold-700/40 via-court-800 to-gold-700/40 px-6 py-8 text-center shadow-[0_0_60px_-20px_rgba(226,184,74,0.5)]">
        <span
          aria-hidden="true"
          className="pointer-events-none absolute inset-0 bg-[linear-gradient(110deg,transparent_35%,rgba(245,225,160,0.14)_50%,transparent_65%)] bg-size-[250%_100%] motion-safe:animate-shimmer"
        />
        <p className="relative flex flex-col items-center justify-center gap-3 font-display text-xl font-bold text-ivory sm:flex-row sm:text-2xl">
          <CrownIcon className="size-7 text-gold-300" />
          <span className="text-balance">
            Street Cred Status: <span className="text-gold-200">Legendary</span>
          </span>
        </p>
      </div>
    </section>
  );
}
