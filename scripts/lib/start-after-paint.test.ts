import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  START_AFTER_PAINT,
  START_AFTER_PAINT_HASH,
  START_BOUND_MS,
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
  vi.runAllTimers();
  vi.useRealTimers();
  document.head.replaceChildren();
  delete window.__pepaEarlyTaps;
});

describe('the start-after-paint script', () => {
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

  it('needs no paint timing (Firefox reports none for a page first painted scrolled)', () => {
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
    vi.advanceTimersByTime(LONG_AFTER_MS);
    expect(appScripts()).toHaveLength(0);

    setHidden(false);
    vi.advanceTimersToNextFrame();
    vi.advanceTimersToNextFrame();
    expect(appScripts()).toHaveLength(1);
  });

  it('a page hidden again before its bound waits for the next showing', () => {
    vi.stubGlobal('requestAnimationFrame', () => 0);
    runInlineScript(APP);
    setHidden(true);
    vi.advanceTimersByTime(LONG_AFTER_MS);
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
