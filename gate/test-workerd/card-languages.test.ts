/**
 * Ordinary remarks in each language Pepa may be asked in: those in a script the card draws become
 * cards and are drawn with real glyphs; the others are refused for their script, with that
 * reason, rather than drawn as boxes.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Problem } from '../../generated/gate/types.gen';
import { renderCard } from '../src/cards/card-render';
import { blocklistFrom, cardWords, REFUSAL_REASONS } from '../src/cards/words/card-words';
import { DRAWN_REMARKS, UNDRAWN_REMARKS } from './card-language-remarks';
import { cardOfCall, emptyCards, madeCard, pepaSays, recordCall } from './card-support';
import { addr } from './bench';
import { body } from './gate-fetch';
import { admit } from './visitor-calls';

beforeEach(emptyCards);

const blocklist = blocklistFrom('');

describe('remarks in a script the card draws', () => {
  it.each(Object.entries(DRAWN_REMARKS))(
    'every ordinary remark in %s becomes a card, unchanged',
    (language, remarks) => {
      expect(remarks.length).toBeGreaterThanOrEqual(20);
      const refused = remarks.filter((remark) => !cardWords(remark, blocklist).ok);
      console.info(`${language}: ${remarks.length} remarks, ${refused.length} refused`);
      expect(refused).toEqual([]);
      for (const remark of remarks)
        expect(cardWords(remark, blocklist)).toEqual({ ok: true, words: remark });
    },
  );

  it.each(Object.entries(DRAWN_REMARKS))(
    'a remark in %s is made a card through the Worker, drawn',
    async (_language, remarks) => {
      const callId = await admit(addr(1));
      recordCall(callId, pepaSays([remarks[0] ?? '', remarks[1] ?? '']));
      for (const remark of [1, 2]) {
        const card = await madeCard(await cardOfCall(callId, remark));
        expect(card.words).toBe(remarks[remark - 1]);
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

describe('remarks in a script the card cannot draw', () => {
  it.each(Object.entries(UNDRAWN_REMARKS))(
    'every remark in %s is refused for its script, through the Worker',
    async (language, remarks) => {
      const callId = await admit(addr(1));
      recordCall(callId, pepaSays([...remarks]));
      for (const [n, remark] of remarks.entries()) {
        expect(cardWords(remark, blocklist)).toEqual({ ok: false, refusal: 'script' });
        const answer = await cardOfCall(callId, n + 1);
        expect(answer.status).toBe(422);
        expect((await body<Problem>(answer)).detail).toBe(REFUSAL_REASONS.script);
      }
      console.info(
        `${language}: ${remarks.length} remarks, ${remarks.length} refused for their script`,
      );
    },
  );
});
