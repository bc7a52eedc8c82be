import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  START_AFTER_PAINT,
  START_AFTER_PAINT_HASH,
  START_BOUND_MS,
  HIDDEN_START_BOUND_MS,
  PAINT_WAIT_FRAMES,
  PAINT_START_BOUND_MS,
  startAfterPaintTag,
} from './start-after-paint.mjs';

/** Runs the inline script as the browser would, with `document.currentScript` set to its tag. */
function runInlineScript(attributes: Record<string, string>) {
  const added = vi.spyOn(document, 'addEventListener');
  cleanups.push(() => {
    for (const [type, listener] of added.mock.calls) {
      document.removeEventListener(type, listener as EventListener);
    }
  });
  const tag = document.createElement('script');
  for (const [name, value] of Object.entries(attributes)) tag.setAttribute(name, value);
  vi.spyOn(document, 'currentScript', 'get').mockReturnValue(tag);
  new Function(START_AFTER_PAINT)();
}

/** Makes the page hidden (true) or shown (false), telling it as the browser does. */
function setHidden(hidden: boolean) {
  vi.spyOn(document, 'visibilityState', 'get').mockReturnValue(hidden ? 'hidden' : 'visible');
  document.dispatchEvent(new Event('visibilitychange'));
}

/**
 * An engine that reports paint timing: a PerformanceObserver that knows the 'paint' entry type.
 * `paint()` reports the first contentful paint to the observers of paint entries, as the engine
 * does once that paint is on the screen; one that has already happened is delivered to an observer
 * that asks for buffered entries.
 */
function reportPaintTiming() {
  const observers: { callback: PerformanceObserverCallback; observer: PerformanceObserver }[] = [];
  let painted = false;
  const firstContentfulPaint = () =>
    ({
      getEntriesByName: (name: string) =>
        name === 'first-contentful-paint' ? [{ name, entryType: 'paint', startTime: 12 }] : [],
    }) as unknown as PerformanceObserverEntryList;
  class FakePerformanceObserver {
    static supportedEntryTypes = ['mark', 'measure', 'paint', 'resource'];
    constructor(private readonly callback: PerformanceObserverCallback) {}
    observe(options: PerformanceObserverInit) {
      if (options.type !== 'paint') return;
      const entry = { callback: this.callback, observer: this as unknown as PerformanceObserver };
      observers.push(entry);
      if (painted && options.buffered) {
        queueMicrotask(() => entry.callback(firstContentfulPaint(), entry.observer));
      }
    }
    disconnect() {
      const self = this as unknown as PerformanceObserver;
      observers.splice(0, observers.length, ...observers.filter((o) => o.observer !== self));
    }
  }
  vi.stubGlobal('PerformanceObserver', FakePerformanceObserver);
  return {
    paint() {
      painted = true;
      for (const { callback, observer } of [...observers]) {
        callback(firstContentfulPaint(), observer);
      }
    },
    observing: () => observers.length,
  };
}

const cleanups: (() => void)[] = [];
const appScripts = () => [...document.head.querySelectorAll('script[type="module"]')];
const APP = { 'data-entry': '/assets/index-abc.js' };
/** Past the bound by far: what a start that does not wait would have done by then. */
const LONG_AFTER_MS = START_BOUND_MS * 30;

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  // The script's listeners go, and its timers and frames run, so none is left for the next test.
  for (const cleanup of cleanups.splice(0)) cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  vi.runAllTimers();
  vi.useRealTimers();
  document.head.replaceChildren();
  delete window.__pepaEarlyTaps;
});

describe('the start-after-paint script, where the engine reports paint timing', () => {
  it('adds the app and the manifest at the first contentful paint, not at the frames before it', () => {
    const engine = reportPaintTiming();
    runInlineScript({ ...APP, 'data-manifest': '/site.webmanifest' });
    for (let frame = 1; frame < PAINT_WAIT_FRAMES; frame += 1) vi.advanceTimersToNextFrame();
    expect(appScripts()).toHaveLength(0);

    engine.paint();
    expect(appScripts().map((script) => script.getAttribute('src'))).toEqual([
      '/assets/index-abc.js',
    ]);
    expect(document.head.querySelector('link[rel="manifest"]')?.getAttribute('href')).toBe(
      '/site.webmanifest',
    );
    expect(engine.observing()).toBe(0);
    // The frames and the bound, run out later, start nothing more.
    vi.runAllTimers();
    expect(appScripts()).toHaveLength(1);
  });

  it('finds a first contentful paint that came before the script ran', async () => {
    const engine = reportPaintTiming();
    engine.paint();
    runInlineScript(APP);
    await Promise.resolve();
    expect(appScripts()).toHaveLength(1);
  });

  it('waits for the page to be parsed, even when the paint comes first', () => {
    vi.spyOn(document, 'readyState', 'get').mockReturnValue('loading');
    const engine = reportPaintTiming();
    runInlineScript(APP);
    engine.paint();
    vi.advanceTimersByTime(LONG_AFTER_MS);
    expect(appScripts()).toHaveLength(0);
    document.dispatchEvent(new Event('DOMContentLoaded'));
    expect(appScripts()).toHaveLength(1);
  });

  it('a page at the top waits for the paint however many frames begin before it', () => {
    const engine = reportPaintTiming();
    runInlineScript(APP);
    for (let frame = 0; frame < PAINT_WAIT_FRAMES * 5; frame += 1) vi.advanceTimersToNextFrame();
    expect(appScripts()).toHaveLength(0);
    engine.paint();
    expect(appScripts()).toHaveLength(1);
  });

  it('a scrolled page starts after a few frames when no paint is reported (Firefox, for a page that first paints scrolled)', () => {
    reportPaintTiming();
    vi.spyOn(window, 'pageYOffset', 'get').mockReturnValue(1200);
    runInlineScript(APP);
    for (let frame = 1; frame < PAINT_WAIT_FRAMES; frame += 1) vi.advanceTimersToNextFrame();
    expect(appScripts()).toHaveLength(0);
    vi.advanceTimersToNextFrame();
    expect(appScripts()).toHaveLength(1);
  });

  it('a page at the top whose paint is never reported starts at the paint bound', () => {
    reportPaintTiming();
    runInlineScript(APP);
    vi.advanceTimersByTime(PAINT_START_BOUND_MS - 1);
    expect(appScripts()).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(appScripts()).toHaveLength(1);
  });

  it('falls back to frames where the engine refuses to observe paint by type (an older engine)', () => {
    class OldPerformanceObserver {
      static supportedEntryTypes = ['paint'];
      observe(options: PerformanceObserverInit) {
        if (!options.entryTypes) throw new TypeError('entryTypes is required');
      }
    }
    vi.stubGlobal('PerformanceObserver', OldPerformanceObserver);
    runInlineScript(APP);
    vi.advanceTimersToNextFrame();
    vi.advanceTimersToNextFrame();
    expect(appScripts()).toHaveLength(1);
  });

  it('a page opened in a background tab and painted when shown starts at that paint', () => {
    const engine = reportPaintTiming();
    setHidden(true);
    runInlineScript(APP);
    vi.advanceTimersByTime(HIDDEN_START_BOUND_MS / 2);
    expect(appScripts()).toHaveLength(0);
    setHidden(false);
    for (let frame = 1; frame < PAINT_WAIT_FRAMES; frame += 1) vi.advanceTimersToNextFrame();
    expect(appScripts()).toHaveLength(0);
    engine.paint();
    expect(appScripts()).toHaveLength(1);
  });
});

describe('the start-after-paint script, where the engine reports no paint timing', () => {
  beforeEach(() => {
    // An engine with an observer that knows no 'paint' entries.
    vi.stubGlobal(
      'PerformanceObserver',
      class {
        static supportedEntryTypes = ['mark', 'measure'];
        observe() {
          throw new Error('the script observed paint entries the engine does not have');
        }
      },
    );
  });

  it('adds the app and the manifest once two frames have begun: the page has painted', () => {
    runInlineScript({ ...APP, 'data-manifest': '/site.webmanifest' });
    expect(appScripts()).toHaveLength(0);
    vi.advanceTimersToNextFrame();
    expect(appScripts()).toHaveLength(0);
    vi.advanceTimersToNextFrame();
    expect(appScripts().map((script) => script.getAttribute('src'))).toEqual([
      '/assets/index-abc.js',
    ]);
    expect(document.head.querySelector('link[rel="manifest"]')?.getAttribute('href')).toBe(
      '/site.webmanifest',
    );
    // The bound, run out later, starts nothing more.
    vi.runAllTimers();
    expect(appScripts()).toHaveLength(1);
  });

  it('needs no PerformanceObserver at all (an old engine)', () => {
    vi.stubGlobal('PerformanceObserver', undefined);
    runInlineScript(APP);
    vi.advanceTimersToNextFrame();
    vi.advanceTimersToNextFrame();
    expect(appScripts()).toHaveLength(1);
    expect(document.head.querySelector('link[rel="manifest"]')).toBeNull();
  });

  it('starts within the bound on a shown page that draws no frame', () => {
    vi.stubGlobal('requestAnimationFrame', () => 0);
    runInlineScript(APP);
    vi.advanceTimersByTime(START_BOUND_MS - 1);
    expect(appScripts()).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(appScripts()).toHaveLength(1);
  });

  it('waits for the page to be parsed before it counts frames', () => {
    vi.spyOn(document, 'readyState', 'get').mockReturnValue('loading');
    runInlineScript(APP);
    vi.advanceTimersByTime(LONG_AFTER_MS);
    expect(appScripts()).toHaveLength(0);
    document.dispatchEvent(new Event('DOMContentLoaded'));
    vi.advanceTimersToNextFrame();
    vi.advanceTimersToNextFrame();
    expect(appScripts()).toHaveLength(1);
  });

  it('a page opened in a background tab starts only when it is first shown', () => {
    setHidden(true);
    runInlineScript(APP);
    vi.advanceTimersByTime(HIDDEN_START_BOUND_MS - 1);
    expect(appScripts()).toHaveLength(0);

    setHidden(false);
    vi.advanceTimersToNextFrame();
    vi.advanceTimersToNextFrame();
    expect(appScripts()).toHaveLength(1);
  });

  it('a page that stays hidden (a tab never shown, a browser that never reports it shown) starts at the hidden bound', () => {
    setHidden(true);
    runInlineScript(APP);
    vi.advanceTimersByTime(HIDDEN_START_BOUND_MS - 1);
    expect(appScripts()).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(appScripts()).toHaveLength(1);
    // Shown later, it starts nothing more.
    setHidden(false);
    vi.runAllTimers();
    expect(appScripts()).toHaveLength(1);
  });

  it('counts the hidden bound from the page being parsed, not from the script running', () => {
    vi.spyOn(document, 'readyState', 'get').mockReturnValue('loading');
    setHidden(true);
    runInlineScript(APP);
    vi.advanceTimersByTime(HIDDEN_START_BOUND_MS * 3);
    expect(appScripts()).toHaveLength(0);
    document.dispatchEvent(new Event('DOMContentLoaded'));
    vi.advanceTimersByTime(HIDDEN_START_BOUND_MS);
    expect(appScripts()).toHaveLength(1);
  });

  it('a page hidden again before its bound waits for the next showing', () => {
    vi.stubGlobal('requestAnimationFrame', () => 0);
    runInlineScript(APP);
    setHidden(true);
    vi.advanceTimersByTime(HIDDEN_START_BOUND_MS - 1);
    expect(appScripts()).toHaveLength(0);
    setHidden(false);
    vi.advanceTimersByTime(START_BOUND_MS);
    expect(appScripts()).toHaveLength(1);
  });

  it("lets the kept taps go when the app's script fails to load", () => {
    const control = document.createElement('button');
    control.setAttribute('data-pressed', '');
    const take = vi.fn(() => [{ control, label: '', at: 0 }]);
    window.__pepaEarlyTaps = take;
    runInlineScript(APP);
    vi.advanceTimersByTime(START_BOUND_MS);
    expect(take).not.toHaveBeenCalled();

    appScripts()[0]?.dispatchEvent(new Event('error'));
    expect(take).toHaveBeenCalledTimes(1);
    expect(control.hasAttribute('data-pressed')).toBe(false);
  });

  it('is allowed by a hash that does not depend on the build', () => {
    const digest = createHash('sha256').update(START_AFTER_PAINT).digest('base64');
    expect(START_AFTER_PAINT_HASH).toBe(`'sha256-${digest}'`);
    const tag = startAfterPaintTag({ entry: '/assets/index-1.js' });
    expect(tag).toBe(`<script data-entry="/assets/index-1.js">${START_AFTER_PAINT}</script>`);
    expect(startAfterPaintTag({ entry: '/assets/index-2.js' })).toContain(START_AFTER_PAINT);
  });
});
