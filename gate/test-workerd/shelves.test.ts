import { describe, expect, it } from 'vitest';
import { CARD_SHELVES, shelfFor } from '../src/cards/card-shelf';
import { identify, networkBucket, type Visitor } from '../src/floor/visitor';
import { deskFor } from '../src/text/text-desk';
import { gateEnv, ORIGIN } from './bench';

async function visitorAt(address: string): Promise<Visitor> {
  const request = new Request(ORIGIN, { headers: { 'cf-connecting-ip': address } });
  const visitor = await identify(request, gateEnv.GATE_VISITOR_SALT ?? '');
  if (!visitor) throw new Error(`no visitor at ${address}`);
  return visitor;
}

describe("a visitor's card shelf", () => {
  it("is named by their network's bucket among the shelves, one shelf for a whole network", async () => {
    const visitor = await visitorAt('203.0.113.7');
    const neighbour = await visitorAt('203.0.113.240');
    expect(shelfFor(visitor)).toBe(`shelf-${networkBucket(visitor, CARD_SHELVES)}`);
    expect(shelfFor(neighbour)).toBe(shelfFor(visitor));
    expect(neighbour.key).not.toBe(visitor.key);
  });

  it('is one of the shelves, named as a shelf whatever desk the network has', async () => {
    const addresses = Array.from({ length: 64 }, (_, n) => `198.51.${n}.1`);
    const visitors = await Promise.all(addresses.map(visitorAt));
    for (const visitor of visitors) {
      const shelf = shelfFor(visitor);
      expect(shelf).toMatch(/^shelf-\d+$/);
      expect(Number(shelf.slice('shelf-'.length))).toBeLessThan(CARD_SHELVES);
      expect(deskFor(visitor)).toMatch(/^desk-\d+$/);
    }
    expect(new Set(visitors.map(shelfFor)).size).toBeGreaterThan(1);
  });
});
