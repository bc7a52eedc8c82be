import type { ReactNode } from 'react';

interface SectionHeadingProps {
  /** The heading's id, for the section's `aria-labelledby`. */
  id: string;
  eyebrow: ReactNode;
  title: string;
  children?: ReactNode;
}

/** The centred heading block every court section opens with: eyebrow, title, ornament, intro. */
export function SectionHeading({ id, eyebrow, title, children }: SectionHeadingProps) {
  return (
    <div className="mx-auto max-w-2xl text-center">
      <p className="font-display text-xs tracking-[0.35em] text-balance text-gold-300 uppercase">
        {eyebrow}
      </p>
      <h2
        id={id}
        className="mt-3 font-display text-4xl leading-tight font-bold text-balance text-ivory sm:text-5xl"
      >
        {title}
      </h2>
      <div className="mx-auto mt-5 flex max-w-xs items-center gap-3" aria-hidden="true">
        <span className="gold-rule flex-1" />
        <span className="size-2 rotate-45 border border-gold-300 bg-gold-400/30" />
        <span className="gold-rule flex-1" />
      </div>
      {children ? (
        <p className="mt-5 text-base leading-relaxed text-balance text-mist">{children}</p>
      ) : null}
    </div>
  );
}
