import { buttonClass } from '../../components/ui/button-styles';
import { HomeArrowIcon } from '../../components/ui/icons';
import avatarArt from '../../assets/art/pepa-avatar.svg?inline';

/** Every path other than "/": served as 404.html with an HTTP 404 by the static host. */
export function NotFoundPage() {
  return (
    <main className="relative isolate grid min-h-svh place-items-center overflow-hidden px-5 py-16 text-center">
      <div
        aria-hidden="true"
        className="absolute inset-0 -z-10 bg-[radial-gradient(ellipse_60%_50%_at_50%_40%,rgba(226,184,74,0.14),transparent_70%),linear-gradient(180deg,var(--color-court-950),var(--color-court-900))]"
      />
      <div className="max-w-lg">
        <img
          src={avatarArt}
          alt=""
          width={240}
          height={240}
          className="mx-auto size-32 rounded-full border-2 border-gold-400/60 bg-court-800 shadow-[0_0_60px_-15px_rgba(226,184,74,0.6)]"
        />
        <p
          aria-hidden="true"
          className="text-gilded mt-8 font-display text-7xl leading-none font-bold sm:text-8xl"
        >
          404
        </p>
        <h1 className="mt-6 font-display text-3xl font-bold text-ivory sm:text-4xl">
          Oops! Page not found
        </h1>
        <p className="mt-4 leading-relaxed text-mist">
          This lily pad is empty. The court has moved on; the throne is just a hop away.
        </p>
        <a href="/" className={buttonClass('gold', 'lg', 'mt-10')}>
          <HomeArrowIcon className="size-5" />
          Return to Home
        </a>
      </div>
    </main>
  );
}
