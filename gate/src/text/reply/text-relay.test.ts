import { describe, expect, it } from 'vitest';
import { headWithin } from './text-relay';

describe('the head of a reply within a bound', () => {
  it('counts characters, not UTF-16 units', () => {
    expect(headWithin('🐸🐸🐸', 2)).toBe('🐸🐸');
  });

  it('never parts a letter from its mark, nor an emoji sequence', () => {
    expect(headWithin('cafe\u0301!', 4)).toBe('caf');
    expect(headWithin('ok \u{1f469}\u200d\u{1f469}\u200d\u{1f467}', 5)).toBe('ok ');
    expect(headWithin('\u2764\ufe0f\u2764\ufe0f', 3)).toBe('\u2764\ufe0f');
  });

  it('is the whole text when it fits, and nothing when there is no room', () => {
    expect(headWithin('Ribbit', 6)).toBe('Ribbit');
    expect(headWithin('Ribbit', 0)).toBe('');
  });
});
