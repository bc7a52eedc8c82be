import { afterEach, describe, expect, it, vi } from 'vitest';

/** A MessageChannel that records what is posted on its sending end. */
class FakeChannel {
  static made: FakeChannel[] = [];
  readonly posted: unknown[] = [];
  readonly port1: { onmessage: ((event: unknown) => void) | null } = { onmessage: null };
  readonly port2 = { postMessage: (message: unknown) => this.posted.push(message) };
  constructor() {
    FakeChannel.made.push(this);
  }
}

/** Loads the module fresh, as the page does before React, with `FakeChannel` as the browser's. */
async function loadFresh() {
  FakeChannel.made = [];
  vi.stubGlobal('MessageChannel', FakeChannel);
  vi.resetModules();
  return import('./scheduler-channels');
}

function pageshow(persisted: boolean) {
  const event = new Event('pageshow');
  Object.defineProperty(event, 'persisted', { value: persisted });
  window.dispatchEvent(event);
}

const listeners: (() => void)[] = [];

afterEach(() => {
  for (const remove of listeners.splice(0)) remove();
});

describe('the scheduler channels kept alive across a restore', () => {
  it("posts on React's channel when the page comes back from the back/forward cache", async () => {
    const added = vi.spyOn(window, 'addEventListener');
    const { keepSchedulerAliveAcrossRestores } = await loadFresh();
    // What React's scheduler does as it loads: a channel whose receiving end runs its turns.
    const scheduler = new MessageChannel() as unknown as FakeChannel;
    scheduler.port1.onmessage = () => undefined;
    const unused = new MessageChannel() as unknown as FakeChannel;
    keepSchedulerAliveAcrossRestores();
    const [, listener] = added.mock.calls.find(([type]) => type === 'pageshow') ?? [];
    listeners.push(() => window.removeEventListener('pageshow', listener as EventListener));

    // The browser's own constructor again: a channel made later is not recorded.
    expect(window.MessageChannel).toBe(FakeChannel);
    new MessageChannel();

    pageshow(false);
    expect(scheduler.posted).toEqual([]);
    pageshow(true);
    expect(scheduler.posted).toEqual([null]);
    expect(unused.posted).toEqual([]);
    expect(FakeChannel.made.flatMap((channel) => channel.posted)).toEqual([null]);
  });

  it('listens to nothing when no channel was made while React loaded', async () => {
    const added = vi.spyOn(window, 'addEventListener');
    const { keepSchedulerAliveAcrossRestores } = await loadFresh();
    keepSchedulerAliveAcrossRestores();
    expect(added.mock.calls.map(([type]) => type)).not.toContain('pageshow');
  });
});
