import type { ComponentType } from 'react';
import { buttonClass } from '../../components/ui/button-styles';
import { ComingSoonButton } from '../../components/ui/coming-soon-button';
import { HangerIcon, SparklesIcon, TicketIcon } from '../../components/ui/icons';
import { SectionHeading } from '../../components/ui/section-heading';

export const LOUNGE_EVENTS: {
  title: string;
  cadence: string;
  text: string;
  Icon: ComponentType<{ className?: string }>;
}[] = [
  {
    title: 'Royal Fashion Show',
    cadence: 'Every Friday',
    text: 'Crowns, capes and couture parade down the lily-pad runway.',
    Icon: HangerIcon,
  },
  {
    title: 'Avatar Makeover Night',
    cadence: 'Bi-Weekly',
    text: 'Bring your frog and leave with a look fit for the palace.',
    Icon: SparklesIcon,
  },
  {
    title: 'VIP Meet & Greet',
    cadence: 'Monthly',
    text: "An evening in the inner circle with the court's finest.",
    Icon: TicketIcon,
  },
];

export function VanityLoungeSection() {
  return (
    <section
      id="lounge"
      aria-labelledby="lounge-title"
      className="render-near-view relative overflow-hidden border-t border-gold-400/10 bg-court-900 px-5 py-24 sm:px-8"
    >
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-0 bg-[radial-gradient(ellipse_60%_50%_at_50%_0%,rgba(226,184,74,0.12),transparent_70%)]"
      />
      <div className="relative">
        <SectionHeading id="lounge-title" eyebrow="Dress code: regal" title="The Vanity Lounge">
          Pepa&apos;s private salon, where the court&apos;s most fashionable frogs gather to see and
          be seen.
        </SectionHeading>

        <ul className="mx-auto mt-14 max-w-4xl divide-y divide-gold-400/15 overflow-hidden rounded-3xl border border-gold-400/25 bg-court-950/60">
          {LOUNGE_EVENTS.map(({ title, cadence, text, Icon }) => (
            <li
              key={title}
              className="flex flex-col gap-5 p-6 transition hover:bg-gold-300/5 sm:flex-row sm:items-center sm:p-8"
            >
              <div className="flex flex-1 items-start gap-5">
                <span className="grid size-12 shrink-0 place-items-center rounded-2xl border border-gold-300/40 bg-court-800 text-gold-300 sm:size-14">
                  <Icon />
                </span>
                <div>
                  <h3 className="font-display text-xl font-bold text-balance text-ivory">
                    {title}
                  </h3>
                  <p className="mt-1 text-sm font-semibold tracking-[0.2em] text-gold-300 uppercase">
                    {cadence}
                  </p>
                  <p className="mt-2 leading-relaxed text-mist">{text}</p>
                </div>
              </div>
              {/* The RSVP list is not open yet: a real, disabled button that says so. Its name says
                  which event it is for; it starts with the visible word, as speech input expects. */}
              <button
                type="button"
                disabled
                aria-label={`RSVP for ${title} (Coming Soon)`}
                className={buttonClass('ghost', 'md', 'sm:self-center')}
              >
                RSVP
                <span className="rounded-full bg-gold-300/15 px-2 py-0.5 text-[0.7rem] tracking-wider text-gold-200 uppercase">
                  Coming Soon
                </span>
              </button>
            </li>
          ))}
        </ul>

        <div className="mt-10 flex justify-center">
          <ComingSoonButton />
        </div>
      </div>
    </section>
  );
}
