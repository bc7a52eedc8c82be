import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  START_AFTER_PAINT,
  START_AFTER_PAINT_HASH,
  startAfterPaintTag,
} from './start-after-paint.mjs';

type PaintCallback = (list: { getEntriesByName: (name: string) => unknown[] }) => void;

/** A PerformanceObserver whose paint entries the test delivers. */
function fakePaintTiming() {
  const observers: { callback: PaintCallback; disconnected: boolean }[] = [];
  class FakeObserver {
    static readonly supportedEntryTypes = ['paint', 'largest-contentful-paint'];
    private readonly record: { callback: PaintCallback; disconnected: boolean };
    constructor(callback: PaintCallback) {
      this.record = { callback, disconnected: false };
      observers.push(this.record);
    }
    observe() {}
    disconnect() {
      this.record.disconnected = true;
    }
  }
  vi.stubGlobal('PerformanceObserver', FakeObserver);
  return {
    observers,
    paint(name: string) {
      for (const observer of observers) {
        if (!observer.disconnected)
          observer.callback({ getEntriesByName: (n) => (n === name ? [{}] : []) });
      }
    },
  };
}

/** Runs the inline script as the browser would, with `document.currentScript` set to its tag. */
function runInlineScript(attributes: Record<string, string>) {
  const tag = document.createElement('script');
  for (const [name, value] of Object.entries(attributes)) tag.setAttribute(name, value);
  vi.spyOn(document, 'currentScript', 'get').mockReturnValue(tag);
  new Function(START_AFTER_PAINT)();
}

const appScripts = () => [...document.head.querySelectorAll('script[type="module"]')];

afterEach(() => {
  // A load listener is `once`; fire it so none is left for the next test.
  window.dispatchEvent(new Event('load'));
  document.head.replaceChildren();
});

describe('the start-after-paint script', () => {
  it('adds the app and the manifest only after the first contentful paint', () => {
    const timing = fakePaintTiming();
    runInlineScript({ 'data-entry': '/assets/index-abc.js', 'data-manifest': '/site.webmanifest' });
    expect(appScripts()).toHaveLength(0);
    timing.paint('first-paint');
    expect(appScripts()).toHaveLength(0);

    timing.paint('first-contentful-paint');
    expect(appScripts().map((script) => script.getAttribute('src'))).toEqual([
      '/assets/index-abc.js',
    ]);
    expect(document.head.querySelector('link[rel="manifest"]')?.getAttribute('href')).toBe(
      '/site.webmanifest',
    );
    expect(timing.observers.every((observer) => observer.disconnected)).toBe(true);
  });

  it('waits for the paint even when the page has loaded first', () => {
    const timing = fakePaintTiming();
    runInlineScript({ 'data-entry': '/assets/index-abc.js' });
    window.dispatchEvent(new Event('load'));
    expect(appScripts()).toHaveLength(0);
    timing.paint('first-contentful-paint');
    expect(appScripts()).toHaveLength(1);
    expect(document.head.querySelector('link[rel="manifest"]')).toBeNull();
  });

  it('starts the app on load where paint timing is not reported', () => {
    vi.stubGlobal('PerformanceObserver', class {});
    runInlineScript({ 'data-entry': '/assets/index-abc.js' });
    expect(appScripts()).toHaveLength(0);
    window.dispatchEvent(new Event('load'));
    expect(appScripts()).toHaveLength(1);
  });

  it('is allowed by a hash that does not depend on the build', () => {
    const digest = createHash('sha256').update(START_AFTER_PAINT).digest('base64');
    expect(START_AFTER_PAINT_HASH).toBe(`'sha256-${digest}'`);
    const tag = startAfterPaintTag({ entry: '/assets/index-1.js' });
    expect(tag).toBe(`<script data-entry="/assets/index-1.js">${START_AFTER_PAINT}</script>`);
    expect(startAfterPaintTag({ entry: '/assets/index-2.js' })).toContain(START_AFTER_PAINT);
  });
});
