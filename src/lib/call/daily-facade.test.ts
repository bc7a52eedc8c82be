import { describe, expect, it, vi } from 'vitest';
import { DailyEventHub } from './daily-facade';

describe('the Daily-shaped event hub', () => {
  it('delivers to listeners in order, stops after off, and counts them', () => {
    const hub = new DailyEventHub();
    const seen: string[] = [];
    const first = () => seen.push('first');
    const second = () => seen.push('second');
    expect(hub.on('left-meeting', first).on('left-meeting', second)).toBe(hub);
    expect(hub.listenerCount()).toBe(2);
    hub.emit('left-meeting', { action: 'left-meeting' });
    hub.off('left-meeting', first);
    hub.emit('left-meeting', { action: 'left-meeting' });
    expect(seen).toEqual(['first', 'second', 'second']);
    hub.off('left-meeting', second);
    expect(hub.listenerCount()).toBe(0);
  });

  it('lets a listener unsubscribe while an event is delivered, without skipping the others', () => {
    const hub = new DailyEventHub();
    const later = vi.fn();
    const once = () => hub.off('local-audio-level', once);
    hub.on('local-audio-level', once).on('local-audio-level', later);
    hub.emit('local-audio-level', { audioLevel: 0.5 });
    expect(later).toHaveBeenCalledWith({ audioLevel: 0.5 });
    expect(hub.listenerCount()).toBe(1);
  });
});
