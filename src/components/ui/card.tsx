import type { ReactNode } from 'react';

interface CardProps {
  title: string;
  icon: ReactNode;
  children: ReactNode;
  /** Sits under the text, aligned to the card's bottom edge (a badge or a button). */
  footer?: ReactNode;
  headingLevel?: 'h3' | 'h4';
}

/** A gilded panel: medallion icon, title, short copy, optional footer. */
export function Card({ title, icon, children, footer, headingLevel = 'h3' }: CardProps) {
  const Heading = headingLevel;
  return (
    <article className="group relative flex h-full flex-col rounded-3xl border border-gold-400/20 bg-linear-to-b from-court-800/90 to-court-900/90 p-6 shadow-[0_20px_50px_-25px_rgba(0,0,0,0.8)] transition duration-300 hover:-translate-y-1 sm:p-7 hover:border-gold-300/50">
      <span
        aria-hidden="true"
        className="pointer-events-none absolute inset-x-8 top-0 h-px bg-linear-to-r from-transparent via-gold-300/70 to-transparent"
      />
      {/* Phones: medallion beside the title, to keep the stacked cards short. */}
      <div className="flex items-center gap-4 sm:block">
        <span className="grid size-12 shrink-0 place-items-center rounded-full border border-gold-300/50 bg-court-950/70 text-gold-300 shadow-[inset_0_0_18px_rgba(226,184,74,0.18)] transition group-hover:border-gold-200 group-hover:text-gold-200 sm:size-14">
          {icon}
        </span>
        <Heading className="font-display text-xl font-bold text-balance text-ivory sm:mt-6">
          {title}
        </Heading>
      </div>
      <p className="mt-4 flex-1 leading-relaxed text-mist">{children}</p>
      {footer ? <div className="mt-6">{footer}</div> : null}
    </article>
  );
}
