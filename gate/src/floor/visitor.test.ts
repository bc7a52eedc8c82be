import { describe, expect, it } from 'vitest';
import { identify, networkBucket, type Visitor } from './visitor';

const SALT = 'a salt for the tests';
const at = (address: string) =>
  new Request('https://pepa.test/api/calls', { headers: { 'cf-connecting-ip': address } });

async function visitorAt(address: string): Promise<Visitor> {
  const visitor = await identify(at(address), SALT);
  if (!visitor) throw new Error(`no visitor at ${address}`);
  return visitor;
}

describe("a visitor's network bucket", () => {
  it('is the same for every visitor of one network (a /24, a /48), whoever they are', async () => {
    const neighbours = await Promise.all(
      ['203.0.113.7', '203.0.113.8', '203.0.113.200'].map(visitorAt),
    );
    const inSixes = await Promise.all(
      ['2001:db8:1:1::1', '2001:db8:1:ffff::9'].map((address) => visitorAt(address)),
    );
    for (const count of [32, 7, 1]) {
      expect(new Set(neighbours.map((visitor) => networkBucket(visitor, count))).size).toBe(1);
      expect(new Set(inSixes.map((visitor) => networkBucket(visitor, count))).size).toBe(1);
    }
    expect(new Set(neighbours.map((visitor) => visitor.key)).size).toBe(3);
  });

  it("is the network key's first byte, modulo how many there are", () => {
    const visitor: Visitor = { key: '00ff', networks: ['net:a7ff00', 'asn:64500'] };
    expect(networkBucket(visitor, 32)).toBe(0xa7 % 32);
    expect(networkBucket(visitor, 256)).toBe(0xa7);
    expect(networkBucket({ key: '3c00', networks: [] }, 32)).toBe(0x3c % 32);
  });

  it('reaches every one of the objects, and none beyond them', () => {
    const buckets = Array.from({ length: 256 }, (_, byte) =>
      networkBucket({ key: 'k', networks: [`net:${byte.toString(16).padStart(2, '0')}00`] }, 32),
    );
    expect(new Set(buckets).size).toBe(32);
    expect(buckets.every((bucket) => bucket >= 0 && bucket < 32)).toBe(true);
  });
});
