import type { CallError } from '../../../lib/call';

/**
 * What the visitor is told when a start fails. The spec's toast ('Failed to connect': 'Please
 * check your microphone permissions') stays where the microphone is or may be the cause; every
 * other cause gets a reason of its own in the panel, so nobody is sent to their browser's
 * microphone settings because the provider was busy.
 */
export interface StartFailureView {
  /** Show the spec's 'Failed to connect' toast. */
  microphoneToast: boolean;
  /** A reason shown in the panel, or null where the toast (and the microphone help) says it all. */
  reason: string | null;
  /** The provider asked to wait this long before the next start. */
  retryAfterMs: number | null;
  /**
   * Said politely to screen readers (a status, not an alert): nothing went wrong, the court is
   * pacing its day.
   */
  polite?: boolean;
}

export const FAILURE_REASONS = {
  keyRefused: "Pepa can't take calls on this site right now: the provider refused the site's key.",
  busy: 'Pepa is busy right now.',
  provider: 'The voice service had a problem starting the call. Please try again in a moment.',
  network: "Couldn't reach the voice service. Check your connection and try again.",
  malformed:
    "The voice service's answer couldn't be read, so no call was joined. Please try again in a moment.",
  room: "The call's room isn't one Pepa uses, so it wasn't joined.",
  chunk: "The voice chat didn't load. Check your connection and try again.",
  timeout: "Pepa didn't answer in time. Please try again.",
  join: "Couldn't join the call. Check your connection and microphone, then try again.",
  other: 'The call could not start. Please try again.',
  connectionLost: 'The connection to Pepa was lost. Press Start Talking to call her again.',
  rateLimited: "You've asked for Pepa several times in a short while.",
  courtClosed: 'The court is closed for today: Pepa has received all the guests she can.',
  courtResting:
    'Pepa is resting: the court spreads its budget over the day, so guests who come later meet her too.',
  courtFull: 'The court is full right now: more guests are waiting than Pepa can see soon.',
  botCheck: "Your browser didn't pass the court's bot check. Reload the page and try again.",
  botCheckUnavailable: "The court's bot check didn't load. Check your connection and try again.",
  gateDown: "The court's gate can't take calls right now.",
  lineLost:
    'Your place in line was lost while the page was away. Press Start Talking to join the line again.',
  noMicrophone:
    'No microphone was found. Connect one and press Start Talking again, or type to Pepa.',
} as const;

/** When the court opens again, in the visitor's own time: "It opens again at 01:00." */
export function reopensText(reopensAt: string | undefined, locale?: string): string {
  const at = reopensAt ? new Date(reopensAt) : null;
  if (!at || Number.isNaN(at.getTime())) return '';
  const time = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' }).format(at);
  return ` It opens again at ${time}.`;
}

/** When a resting Pepa is back, in the visitor's own time: "She is back at 15:00." */
export function backText(backAt: string | null | undefined, locale?: string): string {
  const at = backAt ? new Date(backAt) : null;
  if (!at || Number.isNaN(at.getTime())) return '';
  const time = new Intl.DateTimeFormat(locale, { hour: '2-digit', minute: '2-digit' }).format(at);
  return ` She is back at ${time}.`;
}

/**
 * How long a busy provider is given when its Retry-After cannot be read: a cross-origin response
 * shows the header only where the provider exposes it (Access-Control-Expose-Headers).
 */
export const BUSY_DEFAULT_WAIT_MS = 5000;

/** How long a full court is given when its Retry-After cannot be read (the gate's shortest). */
export const FULL_DEFAULT_WAIT_MS = 60_000;

const view = (
  reason: string | null,
  microphoneToast = false,
  retryAfterMs: number | null = null,
): StartFailureView => ({ microphoneToast, reason, retryAfterMs });

export function describeStartFailure(error: CallError | null): StartFailureView {
  if (!error) return view(FAILURE_REASONS.other);
  switch (error.type) {
    case 'microphone-permission-denied':
      // The panel's microphone help explains how to allow it.
      return view(null, true);
    case 'microphone-missing':
      // Nothing to allow: the panel says what is missing and offers a typed call.
      return view(FAILURE_REASONS.noMicrophone);
    case 'daily-call-join-error':
      // A join fails when the microphone cannot be opened, too.
      return view(FAILURE_REASONS.join, true);
    case 'web-call-creation-error': {
      if (error.kind === 'network') return view(FAILURE_REASONS.network);
      if (error.kind === 'malformed') return view(FAILURE_REASONS.malformed);
      // The site's gate says why in its own words; none of them is the microphone.
      switch (error.code) {
        case 'rate-limited':
          return view(
            FAILURE_REASONS.rateLimited,
            false,
            error.retryAfterMs ?? BUSY_DEFAULT_WAIT_MS,
          );
        case 'court-closed':
          return view(`${FAILURE_REASONS.courtClosed}${reopensText(error.reopensAt)}`);
        case 'court-resting':
          // The pace: not closed for the day, and not a wait to count down in seconds either.
          return {
            ...view(`${FAILURE_REASONS.courtResting}${backText(error.reopensAt)}`),
            polite: true,
          };
        case 'court-full':
          // No ticket was given: Start rests, counting down to when the line should be shorter.
          return view(FAILURE_REASONS.courtFull, false, error.retryAfterMs ?? FULL_DEFAULT_WAIT_MS);
        case 'bot-check-failed':
          return view(FAILURE_REASONS.botCheck);
        case 'bot-check-unavailable':
          return view(FAILURE_REASONS.botCheckUnavailable);
        case 'gate-unavailable':
          return view(FAILURE_REASONS.gateDown, false, error.retryAfterMs ?? BUSY_DEFAULT_WAIT_MS);
        case 'ticket-gone':
          return view(FAILURE_REASONS.lineLost);
        case 'malformed-answer':
          return view(FAILURE_REASONS.malformed);
        case 'provider-error':
          return view(FAILURE_REASONS.provider, false, error.retryAfterMs ?? null);
        default:
          break;
      }
      const status = error.status ?? 0;
      if (status === 401 || status === 403) return view(FAILURE_REASONS.keyRefused);
      if (status === 429 || status === 503) {
        return view(FAILURE_REASONS.busy, false, error.retryAfterMs ?? BUSY_DEFAULT_WAIT_MS);
      }
      return view(FAILURE_REASONS.provider);
    }
    case 'room-url-refused':
      return view(FAILURE_REASONS.room);
    case 'daily-call-object-creation-error':
      return view(FAILURE_REASONS.chunk);
    case 'start-timeout':
      return view(FAILURE_REASONS.timeout);
    case 'daily-error':
      return view(FAILURE_REASONS.join);
    case 'reconnect-error':
      return view(FAILURE_REASONS.connectionLost);
    default:
      return view(FAILURE_REASONS.other, true);
  }
}

/** After this many failed starts in a row, the next start waits a little longer each time. */
export const BACKOFF_AFTER_FAILURES = 2;
export const BACKOFF_BASE_MS = 2000;
export const BACKOFF_MAX_MS = 30_000;

/**
 * How long Start stays disabled after a failure: what the provider asked for, and after repeated
 * failures at least an exponential back-off, so a visitor pressing again and again does not
 * create call after (billed) call.
 */
export function cooldownMs(consecutiveFailures: number, retryAfterMs: number | null): number {
  const extra = consecutiveFailures - BACKOFF_AFTER_FAILURES;
  const backoff = extra < 0 ? 0 : Math.min(BACKOFF_MAX_MS, BACKOFF_BASE_MS * 2 ** extra);
  return Math.max(backoff, retryAfterMs ?? 0);
}
