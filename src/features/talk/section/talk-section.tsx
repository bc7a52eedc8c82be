import { useEffect, useEffectEvent, useRef, useState, type ComponentType } from 'react';
import { siteConfig } from '../../../config/site';
import { lazyOnce } from '../../../lib/lazy-once';
import { reloadToResume, takeResumeRequest } from '../recovery/chunk-recovery';
import { DOUBLE_TAP_MS, TalkPanel } from './talk-panel';
import { WriteToPepaButton } from '../thread/write-to-pepa';
import type { CallViewProps } from './call-view';

type CallViewModule = {
  CallView: ComponentType<CallViewProps>;
  prefetchCallRuntime(): void;
  warmTextMode(): void;
};

/** The call view's chunk once it has arrived: Write to Pepa can then open within the tap. */
let loadedCallView: CallViewModule | null = null;

/**
 * Loads the call view (the call object, React Query, toasts) once. Called as soon as the visitor
 * shows intent, so that the chunk is warm by the time they press the button.
 */
export const loadCallView = lazyOnce<CallViewModule>(
  () =>
    import('./call-view').then((module) => {
      module.prefetchCallRuntime();
      loadedCallView = module;
      return module;
    }),
  { retry: reloadToResume },
);

const LOAD_FAILED_HINT = "The voice chat didn't load. Check your connection and try again.";

/** Talk to Pepa: prerendered idle, live once the visitor presses 'Start Talking'. */
export function TalkSection() {
  const sectionRef = useRef<HTMLElement>(null);
  const [view, setView] = useState<{
    module: CallViewModule;
    pressedAt?: number;
    text?: boolean;
  } | null>(null);
  const [loading, setLoading] = useState(false);
  const [loadFailed, setLoadFailed] = useState(false);
  const cancelled = useRef(false);
  const lastPress = useRef(Number.NEGATIVE_INFINITY);
  const demo = siteConfig.voice.mode === 'demo';

  // Intent: the section coming near the viewport, a pointer over it, or focus inside it.
  useEffect(() => {
    const section = sectionRef.current;
    if (!section) return;
    const warm = () => void loadCallView().catch(() => undefined);
    const observer =
      typeof IntersectionObserver === 'undefined'
        ? null
        : new IntersectionObserver(
            (entries) => {
              if (entries.some((entry) => entry.isIntersecting)) {
                warm();
                observer?.disconnect();
              }
            },
            { rootMargin: '200px 0px' },
          );
    observer?.observe(section);
    section.addEventListener('pointerenter', warm);
    section.addEventListener('focusin', warm);
    return () => {
      observer?.disconnect();
      section.removeEventListener('pointerenter', warm);
      section.removeEventListener('focusin', warm);
    };
  }, []);

  // Write to Pepa: the chat opens in the same panel; no call starts. With its code here already
  // (fetched as the visitor reached for the button), it opens within the tap, the focus in the
  // field: a phone brings its keyboard up only for a focus its tap gave.
  const onText = () => {
    setLoadFailed(false);
    if (loadedCallView) {
      setView({ module: loadedCallView, text: true });
      return;
    }
    loadCallView().then(
      (module) => setView({ module, text: true }),
      () => setLoadFailed(true),
    );
  };

  const onPrimary = () => {
    const now = performance.now();
    if (now - lastPress.current < DOUBLE_TAP_MS) return;
    lastPress.current = now;
    if (loading) {
      // 'End Call' while the call view is still loading: nothing starts when it arrives.
      cancelled.current = true;
      setLoading(false);
      return;
    }
    cancelled.current = false;
    setLoading(true);
    setLoadFailed(false);
    loadCallView().then(
      (module) => {
        setLoading(false);
        if (!cancelled.current) setView({ module, pressedAt: now });
      },
      () => {
        setLoading(false);
        setLoadFailed(true);
      },
    );
  };

  // The page reloaded because a chunk could not be loaded: start the call the visitor asked for.
  const resume = useEffectEvent(() => {
    sectionRef.current?.scrollIntoView({ block: 'center' });
    onPrimary();
  });
  useEffect(() => {
    if (takeResumeRequest()) resume();
  }, []);

  return (
    <section
      ref={sectionRef}
      id="talk"
      aria-labelledby="talk-title"
      // In the call's room (a call, and after it what it left: talk-panel.tsx) the eyebrow and the
      // intro give way, so the status, the captions and the field fit on one screen at every width.
      // On a phone the top padding is short: reached by its link (#talk), the section's heading,
      // Start Talking and Write to Pepa are on one screen.
      className="group/talk relative px-5 pt-8 pb-24 sm:px-8 sm:pt-24"
    >
      <div className="relative mx-auto max-w-3xl overflow-hidden rounded-[2.5rem] border border-gold-400/30 bg-linear-to-b from-court-800 via-court-850 to-court-950 px-6 py-14 text-center shadow-[0_40px_100px_-40px_rgba(0,0,0,0.9),inset_0_1px_0_rgba(245,225,160,0.15)] sm:px-12">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-3 rounded-[2rem] border border-gold-400/15"
        />
        <div
          aria-hidden="true"
          className="pointer-events-none absolute -top-32 left-1/2 size-96 -translate-x-1/2 rounded-full bg-gold-400/15 blur-3xl"
        />

        <p className="relative font-display text-xs font-bold tracking-[0.35em] text-balance text-gold-300 uppercase group-has-[[data-call-room]]/talk:hidden">
          An audience with the Queen
        </p>
        <h2
          id="talk-title"
          className="relative mt-3 font-display text-4xl font-bold text-balance text-ivory sm:text-5xl"
        >
          Talk to Pepa
        </h2>
        <p className="relative mx-auto mt-4 max-w-md leading-relaxed text-mist group-has-[[data-call-room]]/talk:hidden">
          Her Royal Ribbitness grants audiences by voice. Speak your mind; the throne is listening.
        </p>

        {view ? (
          <view.module.CallView
            {...(view.pressedAt === undefined ? {} : { pressedAt: view.pressedAt })}
            openText={view.text === true}
          />
        ) : (
          <TalkPanel
            phase={loading ? 'connecting' : 'idle'}
            onPrimary={onPrimary}
            secondary={
              siteConfig.voice.route === 'gate' && !loading ? (
                <WriteToPepaButton
                  onClick={onText}
                  onIntent={() =>
                    void loadCallView().then(
                      (module) => module.warmTextMode(),
                      () => undefined,
                    )
                  }
                />
              ) : null
            }
            demo={demo}
            recording={siteConfig.voice.recording}
          >
            {loadFailed && (
              <p role="alert" className="relative mt-4 text-sm text-gold-200">
                {LOAD_FAILED_HINT}
              </p>
            )}
          </TalkPanel>
        )}
      </div>
    </section>
  );
}
