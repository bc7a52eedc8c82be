/** Looks a link or a button can take. Links that act as buttons share these classes. */
export type ButtonVariant = 'gold' | 'outline' | 'ghost';

const base =
  // Labels stay on one line wherever they fit and wrap only on the narrowest screens (200 % zoom).
  'inline-flex items-center justify-center gap-2 rounded-full text-center font-semibold tracking-wide ' +
  'transition duration-200 select-none disabled:cursor-not-allowed';

const variants: Record<ButtonVariant, string> = {
  gold:
    'bg-linear-to-b from-gold-200 via-gold-300 to-gold-500 text-court-950 ' +
    'shadow-[0_10px_30px_-10px_rgba(226,184,74,0.65),inset_0_1px_0_rgba(255,255,255,0.55)] ' +
    'hover:from-gold-100 hover:via-gold-200 hover:to-gold-400 hover:-translate-y-0.5',
  outline:
    'border border-gold-400/70 bg-court-950/40 text-gold-200 ' +
    'hover:border-gold-200 hover:bg-gold-300/10 hover:text-gold-100 hover:-translate-y-0.5',
  // Disabled 'Coming Soon' buttons: quiet, but still readable against the cards.
  ghost: 'border border-dashed border-gold-300/45 bg-court-950/50 text-gold-200/90',
};

const sizes = {
  md: 'min-h-11 px-5 py-1 text-sm',
  lg: 'min-h-13 px-7 py-1 text-base',
} as const;

export function buttonClass(
  variant: ButtonVariant,
  size: keyof typeof sizes = 'md',
  extra = '',
): string {
  return `${base} ${variants[variant]} ${sizes[size]} ${extra}`.trim();
}
