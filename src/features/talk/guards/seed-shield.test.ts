import { describe, expect, it } from 'vitest';
import {
  SECRET_MASK,
  base58ByteLength,
  containsPrivateKey,
  containsSecret,
  redactSecrets,
} from './seed-shield';

/** BIP-39's own test vector phrases (public, worthless). */
const TWELVE = 'legal winner thank year wave sausage worth useful legal winner thank yellow';
const TWENTY_FOUR =
  'letter advice cage absurd amount doctor acoustic avoid letter advice cage absurd amount doctor acoustic avoid letter advice cage absurd amount doctor acoustic bless';

function base58(bytes: number[]): string {
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  let value = 0n;
  for (const byte of bytes) value = value * 256n + BigInt(byte);
  let text = '';
  while (value > 0n) {
    text = alphabet[Number(value % 58n)] + text;
    value /= 58n;
  }
  return text;
}

const SECRET_KEY = base58(Array.from({ length: 64 }, (_, i) => (i * 37 + 11) % 256));
const ADDRESS = base58(Array.from({ length: 32 }, (_, i) => (i * 53 + 7) % 256));

describe('the seed-phrase shield', () => {
  it('finds a 12-word and a 24-word recovery phrase in a typed message', () => {
    expect(containsSecret(TWELVE)).toBe(true);
    expect(containsSecret(`my phrase is: ${TWENTY_FOUR} please check`)).toBe(true);
  });

  it('finds a phrase typed with capitals, commas or numbering', () => {
    expect(containsSecret(TWELVE.toUpperCase())).toBe(true);
    expect(containsSecret(TWELVE.split(' ').join(', '))).toBe(true);
    expect(
      containsSecret(
        TWELVE.split(' ')
          .map((w, i) => `${i + 1}. ${w}`)
          .join(' '),
      ),
    ).toBe(true);
  });

  it('lets eleven words and ordinary questions through', () => {
    expect(containsSecret(TWELVE.split(' ').slice(0, 11).join(' '))).toBe(false);
    expect(
      containsSecret('Should I buy $PEPA? Where do I stake, and what is the contract address?'),
    ).toBe(false);
    expect(containsSecret('Tell me about the royal frog court and the secret grotto please')).toBe(
      false,
    );
  });

  it('finds a private key: 64 bytes in base58, or a key file of 64 numbers', () => {
    expect(base58ByteLength(SECRET_KEY)).toBe(64);
    expect(containsPrivateKey(`key ${SECRET_KEY}`)).toBe(true);
    expect(containsSecret(`[${Array.from({ length: 64 }, (_, i) => i).join(',')}]`)).toBe(true);
  });

  it('does not take an address (32 bytes) for a private key', () => {
    expect(base58ByteLength(ADDRESS)).toBe(32);
    expect(containsSecret(`is ${ADDRESS} the contract?`)).toBe(false);
  });

  it('redacts a spoken phrase from a caption, from eight words on, keeping the rest', () => {
    const spoken = `okay here it is ${TWELVE} did you get it`;
    const { text, redacted } = redactSecrets(spoken);
    expect(redacted).toBe(true);
    expect(text).toBe(`okay here it is ${SECRET_MASK} did you get it`);
    for (const word of ['winner', 'sausage', 'yellow']) expect(text).not.toContain(word);
    // A phrase still forming is hidden before it is whole.
    expect(redactSecrets(TWELVE.split(' ').slice(0, 8).join(' ')).text).toBe(SECRET_MASK);
  });

  it('redacts a private key from a caption', () => {
    expect(redactSecrets(`my key ${SECRET_KEY}`)).toEqual({
      text: `my key ${SECRET_MASK}`,
      redacted: true,
    });
  });

  it("leaves Pepa's own remarks alone", () => {
    const remark =
      'A royal frog never gives financial advice, my friend. $PEPA is a meme token, made for fun.';
    expect(redactSecrets(remark)).toEqual({ text: remark, redacted: false });
  });
});
