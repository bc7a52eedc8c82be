import { describe, expect, it } from 'vitest';
import { waitWords } from './wait-words';

describe('a wait in words', () => {
  it('counts seconds while the wait is short, then minutes, then hours', () => {
    expect(waitWords(0.2)).toBe('1 s');
    expect(waitWords(30)).toBe('30 s');
    expect(waitWords(89)).toBe('89 s');
    expect(waitWords(90)).toBe('2 min');
    expect(waitWords(45 * 60)).toBe('45 min');
    // A limit that lifts at UTC midnight, twelve hours away: not "43200 s".
    expect(waitWords(43_200)).toBe('12 h');
  });
});
