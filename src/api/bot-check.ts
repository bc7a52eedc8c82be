/**
 * The bot check before a call: Cloudflare Turnstile, invisible, its script loaded only when a
 * visitor shows interest in talking (like the voice chunk). A token is good for one request, so
 * each start asks for a fresh one. The demo uses Cloudflare's documented dummy token instead of
 * the widget (offline), and the gate's stand-in verifies it as Cloudflare's test secret would.
 */
import { GateApiError } from './gate-client';

export const TURNSTILE_SCRIPT =
  'https://challenges.cloudflare.com/turnstile/v0/api.js?render=explicit';
/** What Cloudflare's test site keys produce, and the demo sends. */
export const DUMMY_TOKEN = 'XXXX.DUMMY.TOKEN.XXXX';
/** A check that has not answered by then has failed (the script did not load, or hangs). */
export const BOT_CHECK_TIMEOUT_MS = 15_000;

interface TurnstileApi {
  render(
    container: HTMLElement,
    options: {
      sitekey: string;
      size?: 'invisible' | 'normal' | 'compact' | 'flexible';
      appearance?: 'always' | 'execute' | 'interaction-only';
      execution?: 'render' | 'execute';
      /** Reported back by siteverify; the gate checks it. */
      action?: string;
      callback(token: string): void;
      'error-callback'(code: string): void;
      'expired-callback'(): void;
    },
  ): string;
  execute(widget: string): void;
  reset(widget: string): void;
  remove(widget: string): void;
}

declare global {
  interface Window {
    turnstile?: TurnstileApi;
  }
}

function unavailable(detail: string): GateApiError {
  return new GateApiError(
    `The bot check did not answer: ${detail}`,
    'http',
    503,
    'bot-check-unavailable',
    null,
  );
}

let scriptLoad: Promise<TurnstileApi> | null = null;

/** Loads Turnstile's script once; a failed load is forgotten, so the next start tries again. */
export function loadTurnstile(): Promise<TurnstileApi> {
  if (window.turnstile) return Promise.resolve(window.turnstile);
  scriptLoad ??= new Promise<TurnstileApi>((resolve, reject) => {
    const script = document.createElement('script');
    script.src = TURNSTILE_SCRIPT;
    script.async = true;
    script.onload = () =>
      window.turnstile ? resolve(window.turnstile) : reject(unavailable('no turnstile'));
    script.onerror = () => {
      script.remove();
      reject(unavailable('its script did not load'));
    };
    document.head.append(script);
  }).catch((error: unknown) => {
    scriptLoad = null;
    throw error;
  });
  return scriptLoad;
}

/** A fresh token from an invisible widget, which is removed again once it has answered. */
export function turnstileToken(siteKey: string, signal: AbortSignal): Promise<string> {
  return loadTurnstile().then(
    (turnstile) =>
      new Promise<string>((resolve, reject) => {
        const container = document.createElement('div');
        container.hidden = true;
        document.body.append(container);
        let widget: string | null = null;
        const finish = () => {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          if (widget !== null) turnstile.remove(widget);
          container.remove();
        };
        const onAbort = () => {
          finish();
          reject(signal.reason);
        };
        const timer = setTimeout(() => {
          finish();
          reject(unavailable('it timed out'));
        }, BOT_CHECK_TIMEOUT_MS);
        signal.addEventListener('abort', onAbort, { once: true });
        widget = turnstile.render(container, {
          sitekey: siteKey,
          size: 'invisible',
          execution: 'render',
          // The gate accepts a token only for this action (gate/src/floor/bot-check.ts).
          action: 'start-call',
          callback: (token) => {
            finish();
            resolve(token);
          },
          'error-callback': (code) => {
            finish();
            reject(
              new GateApiError(
                `The bot check failed (${code})`,
                'http',
                403,
                'bot-check-failed',
                null,
              ),
            );
          },
          'expired-callback': () => undefined,
        });
      }),
  );
}

/**
 * The demo's stand-in for the widget: Cloudflare's dummy token, offline, after a beat or after
 * `solveMs` (the field latency model's invisible solve).
 */
export function demoToken(signal: AbortSignal, solveMs = 0): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    if (solveMs <= 0) {
      queueMicrotask(() => (signal.aborted ? reject(signal.reason) : resolve(DUMMY_TOKEN)));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(DUMMY_TOKEN);
    }, solveMs);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
