import { buttonClass } from '../../components/ui/button-styles';
import { MicIcon } from '../../components/ui/icons';

/** Intrinsic size of /pepa-avatar.svg. */
const AVATAR_SIZE = 240;

/** Talk to Pepa, idle: the avatar, the status line, a hint and the button that starts a call. */
export function TalkSection() {
  return (
    <section id="talk" aria-labelledby="talk-title" className="relative px-5 py-24 sm:px-8">
      <div className="relative mx-auto max-w-3xl overflow-hidden rounded-[2.5rem] border border-gold-400/30 bg-linear-to-b from-court-800 via-court-850 to-court-950 px-6 py-14 text-center shadow-[0_40px_100px_-40px_rgba(0,0,0,0.9),inset_0_1px_0_rgba(245,225,160,0.15)] sm:px-12">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-3 rounded-[2rem] border border-gold-400/15"
        />
        <div
          aria-hidden="true"
          className="pointer-events-none absolute -top-32 left-1/2 size-96 -translate-x-1/2 rounded-full bg-gold-400/15 blur-3xl"
        />

        <p className="relative font-display text-xs tracking-[0.35em] text-gold-300 uppercase">
          An audience with the Queen
        </p>
        <h2
          id="talk-title"
          className="relative mt-3 font-display text-4xl font-bold text-ivory sm:text-5xl"
        >
          Talk to Pepa
        </h2>
        <p className="relative mx-auto mt-4 max-w-md leading-relaxed text-mist">
          Her Royal Ribbitness grants audiences by voice. Speak your mind; the throne is listening.
        </p>

        <div className="relative mx-auto mt-10 grid size-48 place-items-center sm:size-56">
          <span
            aria-hidden="true"
            className="absolute inset-0 rounded-full border border-gold-300/40 motion-safe:animate-halo"
          />
          <span
            aria-hidden="true"
            className="absolute inset-0 rounded-full border border-gold-300/30 motion-safe:animate-halo motion-safe:[animation-delay:1.6s]"
          />
          <span className="relative block rounded-full bg-linear-to-b from-gold-200 via-gold-400 to-gold-600 p-1.5 shadow-[0_0_60px_-10px_rgba(226,184,74,0.6)]">
            <img
              src="/pepa-avatar.svg"
              alt="Pepa, the frog queen"
              width={AVATAR_SIZE}
              height={AVATAR_SIZE}
              loading="lazy"
              decoding="async"
              className="size-40 rounded-full bg-court-900 sm:size-48"
            />
          </span>
        </div>

        <p
          role="status"
          aria-live="polite"
          className="relative mt-8 inline-flex items-center gap-2.5 rounded-full border border-court-500/60 bg-court-950/60 px-4 py-1.5 text-sm font-semibold text-court-300"
        >
          <span
            aria-hidden="true"
            className="size-2 rounded-full bg-court-300 shadow-[0_0_10px_var(--color-court-300)]"
          />
          Ready to chat
        </p>
        <p className="relative mt-4 text-mist">Click the button below to start talking</p>

        <button type="button" className={buttonClass('gold', 'lg', 'relative mt-8 min-w-52')}>
          <MicIcon className="size-5" />
          Start Talking
        </button>
      </div>
    </section>
  );
}
