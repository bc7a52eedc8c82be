/**
 * One bot-check token solved ahead, so pressing Start does not wait for the solve. Turnstile's
 * tokens live 300 s and are good for one request: at most one is kept, it is handed out once and
 * never again, and it is solved again when it expires. Nothing is solved before `warm()`, which
 * the page calls only when the visitor shows interest in talking.
 */

/** How long a Turnstile token is accepted by siteverify. */
export const TOKEN_LIFETIME_MS = 300_000;
/**
 * A token is given up this long before it expires: a request that carries it must still reach
 * siteverify in time.
 */
export const TOKEN_MARGIN_MS = 15_000;

export type Solve = (signal: AbortSignal) => Promise<string>;

/** The page's visibility, replaceable in tests. */
export interface Visibility {
  visible(): boolean;
  /** Calls `run` once the page is visible again; returns the unsubscribe. */
  onVisible(run: () => void): () => void;
}

const documentVisibility: Visibility = {
  visible: () => typeof document === 'undefined' || document.visibilityState === 'visible',
  onVisible: (run) => {
    const listener = () => {
      if (document.visibilityState === 'visible') run();
    };
    document.addEventListener('visibilitychange', listener);
    return () => document.removeEventListener('visibilitychange', listener);
  },
};

export class TokenAhead {
  private token: string | null = null;
  private solving: { promise: Promise<string>; controller: AbortController } | null = null;
  private expiry: ReturnType<typeof setTimeout> | null = null;
  private stopWatching: (() => void) | null = null;
  private warmed = false;

  constructor(
    private readonly solve: Solve,
    private readonly visibility: Visibility = documentVisibility,
  ) {}

  /** Whether a token is waiting, unused. */
  get ready(): boolean {
    return this.token !== null;
  }

  /** The visitor showed intent: solve one token ahead, unless one is kept or on its way. */
  warm(): void {
    this.warmed = true;
    if (this.token !== null || this.solving) return;
    if (!this.visibility.visible()) {
      // A hidden page is not solving for anyone: solve when it is looked at again.
      this.stopWatching ??= this.visibility.onVisible(() => {
        this.stopWatching?.();
        this.stopWatching = null;
        this.warm();
      });
      return;
    }
    const controller = new AbortController();
    const promise = this.solve(controller.signal);
    const solving = { promise, controller };
    this.solving = solving;
    promise.then(
      (token) => {
        if (this.solving !== solving) return;
        this.solving = null;
        this.keep(token);
      },
      () => {
        // A failed solve ahead costs nothing: the press solves its own.
        if (this.solving === solving) this.solving = null;
      },
    );
  }

  /**
   * A token for one request: the one kept (handed out once), the one being solved, or a fresh
   * solve. Whichever it is, it is nobody else's.
   */
  take(signal: AbortSignal): Promise<string> {
    if (this.token !== null) {
      const token = this.token;
      this.forget();
      return Promise.resolve(token);
    }
    const solving = this.solving;
    if (solving) {
      // The solve under way is this press's: it is no longer kept for anyone else.
      this.solving = null;
      return abortable(solving.promise, signal, () => solving.controller.abort(signal.reason));
    }
    return this.solve(signal);
  }

  /** Drops everything: the kept token, a solve under way, the expiry and the watch. */
  dispose(): void {
    this.warmed = false;
    this.forget();
    this.solving?.controller.abort();
    this.solving = null;
    this.stopWatching?.();
    this.stopWatching = null;
  }

  private keep(token: string): void {
    this.token = token;
    this.expiry = setTimeout(() => {
      this.expiry = null;
      this.token = null;
      // Expired unused: the visitor showed intent, so the next one is solved as this one was.
      if (this.warmed) this.warm();
    }, TOKEN_LIFETIME_MS - TOKEN_MARGIN_MS);
  }

  private forget(): void {
    this.token = null;
    if (this.expiry !== null) clearTimeout(this.expiry);
    this.expiry = null;
  }
}

/** `promise`, rejected as soon as `signal` aborts (`onAbort` then stops the work). */
function abortable<T>(promise: Promise<T>, signal: AbortSignal, onAbort: () => void): Promise<T> {
  if (signal.aborted) {
    onAbort();
    promise.catch(() => undefined);
    return Promise.reject(signal.reason);
  }
  return new Promise<T>((resolve, reject) => {
    const aborted = () => {
      onAbort();
      reject(signal.reason);
    };
    signal.addEventListener('abort', aborted, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', aborted);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', aborted);
        reject(error);
      },
    );
  });
}
