import type { ComponentType } from 'react';
import { Card } from '../../components/ui/card';
import { GossipIcon, LilyPadIcon, RisingChartIcon } from '../../components/ui/icons';
import { SectionHeading } from '../../components/ui/section-heading';

export const POND_FEATURES: { title: string; text: string; Icon: ComponentType }[] = [
  {
    title: 'Stake & Chill',
    text: 'Rest your $PEPA on a royal lily pad and let the rewards drift your way while you bask.',
    Icon: LilyPadIcon,
  },
  {
    title: 'APY Fit for Kings',
    text: 'Rewards shaped for royalty, set aside for the loyal frogs who keep the pond full.',
    Icon: RisingChartIcon,
  },
  {
    title: 'Gossip Flows',
    text: 'Court whispers, alpha and rumours ripple across the pond before anyone else hears them.',
    Icon: GossipIcon,
  },
];

export function PondSection() {
  return (
    <section
      id="pond"
      aria-labelledby="pond-title"
      className="render-near-view relative border-t border-gold-400/10 bg-linear-to-b from-court-900 to-court-850 px-5 py-24 sm:px-8"
    >
      <SectionHeading
        id="pond-title"
        title="Pepa's Pond"
        eyebrow={
          <span className="inline-block rounded-full border border-gold-300/50 bg-gold-300/10 px-4 py-1.5 tracking-[0.3em] text-gold-200">
            Coming Soon
          </span>
        }
      >
        Where holders lounge by the water and let their tokens do the swimming.
      </SectionHeading>
      <ul className="mx-auto mt-14 grid max-w-6xl grid-cols-1 gap-6 md:grid-cols-3">
        {POND_FEATURES.map(({ title, text, Icon }) => (
          <li key={title}>
            <Card title={title} icon={<Icon />}>
              {text}
            </Card>
          </li>
        ))}
      </ul>
    </section>
  );
}
