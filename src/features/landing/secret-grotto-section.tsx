import type { ComponentType } from 'react';
import { Card } from '../../components/ui/card';
import { ComingSoonButton } from '../../components/ui/coming-soon-button';
import { BookIcon, CompassIcon, GemIcon, GobletIcon } from '../../components/ui/icons';
import { SectionHeading } from '../../components/ui/section-heading';

export const GROTTO_FEATURES: { title: string; text: string; Icon: ComponentType }[] = [
  {
    title: 'Limited NFTs',
    text: 'Rare frogs minted in tiny numbers, each one a treasure of the royal vault.',
    Icon: GemIcon,
  },
  {
    title: 'Hidden Quests',
    text: 'Riddles and trials scattered through the kingdom, with spoils for those who solve them.',
    Icon: CompassIcon,
  },
  {
    title: 'Secret Lore',
    text: "The untold history of Pepa's reign, revealed one scroll at a time.",
    Icon: BookIcon,
  },
  {
    title: 'Private Parties',
    text: 'Invitation-only revels deep in the grotto, where the court lets loose.',
    Icon: GobletIcon,
  },
];

export function SecretGrottoSection() {
  return (
    <section
      id="grotto"
      aria-labelledby="grotto-title"
      className="render-near-view relative overflow-hidden border-t border-gold-400/10 bg-court-950 px-5 py-24 sm:px-8"
    >
      <div
        aria-hidden="true"
        className="bg-court-pattern pointer-events-none absolute inset-0 [mask-image:radial-gradient(ellipse_at_center,black_20%,transparent_70%)]"
      />
      <div className="relative">
        <SectionHeading id="grotto-title" eyebrow="For the chosen few" title="The Secret Grotto">
          Beneath the throne room lies a hidden cave of treasures, open only to those who know the
          way.
        </SectionHeading>
        <ul className="mx-auto mt-14 grid max-w-6xl grid-cols-1 gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {GROTTO_FEATURES.map(({ title, text, Icon }) => (
            <li key={title}>
              <Card title={title} icon={<Icon />}>
                {text}
              </Card>
            </li>
          ))}
        </ul>
        <div className="mt-12 flex justify-center">
          <ComingSoonButton />
        </div>
      </div>
    </section>
  );
}
