/**
 * Ordinary lines in each language Pepa may be asked in: those in a script the card draws become
 * cards and are drawn with real glyphs; the others are refused for their script, with that
 * reason, rather than drawn as boxes.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Problem } from '../../generated/gate/types.gen';
import { renderCard } from '../src/cards/card-render';
import { blocklistFrom, cardWords, REFUSAL_REASONS } from '../src/cards/words/card-words';
import { DRAWN_LINES, UNDRAWN_LINES } from './card-language-lines';
import { cardOfCall, emptyCards, madeCard, pepaSays, recordCall } from './card-support';
import { addr } from './bench';
import { body } from './gate-fetch';
import { admit } from './visitor-calls';

beforeEach(emptyCards);

const blocklist = blocklistFrom('');

describe('lines in a script the card draws', () => {
  it.each(Object.entries(DRAWN_LINES))(
    'every ordinary line in %s becomes a card, unchanged',
    (language, lines) => {
      expect(lines.length).toBeGreaterThanOrEqual(20);
      const refused = lines.filter((line) => !cardWords(line, blocklist).ok);
      console.info(`${language}: ${lines.length} lines, ${refused.length} refused`);
      expect(refused).toEqual([]);
      for (const line of lines)
        expect(cardWords(line, blocklist)).toEqual({ ok: true, words: line });
    },
  );

  it.each(Object.entries(DRAWN_LINES))(
    'a line in %s is made a card through the Worker, drawn',
    async (_language, lines) => {
      const callId = await admit(addr(1));
      recordCall(callId, pepaSays([lines[0] ?? '', lines[1] ?? '']));
      for (const line of [1, 2]) {
        const card = await madeCard(await cardOfCall(callId, line));
        expect(card.words).toBe(lines[line - 1]);
        expect(card.drawn).toBe(true);
      }
    },
  );

  /** Two cards whose words differ in one letter repeated: equal only if both drew boxes. */
  async function drawsGlyphsOf(first: string, second: string): Promise<boolean> {
    const face = { saidAt: new Date('2030-01-15T12:00:00Z'), site: 'pepa.test' };
    const [a, b] = await Promise.all([
      renderCard({ ...face, words: first.repeat(6) }),
      renderCard({ ...face, words: second.repeat(6) }),
    ]);
    return a.byteLength !== b.byteLength || a.some((byte, n) => byte !== b[n]);
  }

  it.each([
    ['Cyrillic', 'Ж', 'Д'],
    ['Latin with Turkish letters', 'Ğ', 'Ş'],
    ['Latin with Czech and Polish letters', 'Ř', 'Ł'],
  ])('draws %s with the font’s own glyphs, not missing-glyph boxes', async (_s, one, other) => {
    expect(await drawsGlyphsOf(one, other)).toBe(true);
  });
});

describe('lines in a script the card cannot draw', () => {
  it.each(Object.entries(UNDRAWN_LINES))(
    'every line in %s is refused for its script, through the Worker',
    async (language, lines) => {
      const callId = await admit(addr(1));
      recordCall(callId, pepaSays([...lines]));
      for (const [n, line] of lines.entries()) {
        expect(cardWords(line, blocklist)).toEqual({ ok: false, refusal: 'script' });
        const answer = await cardOfCall(callId, n + 1);
        expect(answer.status).toBe(422);
        expect((await body<Problem>(answer)).detail).toBe(REFUSAL_REASONS.script);
      }
      console.info(`${language}: ${lines.length} lines, ${lines.length} refused for their script`);
    },
  );
});
