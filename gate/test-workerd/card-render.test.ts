/** A card drawn in the Workers runtime: a 1200×630 PNG, its WebAssembly ready on first use. */
import { describe, expect, it } from 'vitest';
import { CARD_HEIGHT, CARD_WIDTH, renderCard } from '../src/cards/card-render';

function pngSize(png: Uint8Array): { width: number; height: number } {
  const view = new DataView(png.buffer, png.byteOffset, png.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

describe('a card drawn on the Worker', () => {
  it('is a 1200×630 PNG under 5 MB', async () => {
    const png = await renderCard({
      words: 'Ribbit! The court is open to every frog with a kind heart.',
      saidAt: new Date('2026-11-27T10:00:00Z'),
      site: 'pepa.example',
    });
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect(pngSize(png)).toEqual({ width: CARD_WIDTH, height: CARD_HEIGHT });
    expect(png.byteLength).toBeLessThan(5 * 1024 * 1024);
  });
});
