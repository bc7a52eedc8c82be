import { describe, expect, it } from 'vitest';
import { parseSiteConfig } from '../../../config/site-config';
import { ADDRESS_MASK, LINK_MASK, maskUnofficial, officialLinks } from './site-facts';

const config = parseSiteConfig({ VITE_PEPA_DEMO: 'true' });
const OFFICIAL = officialLinks([config.buyUrl, config.siteUrl, ...Object.values(config.links)]);
/** A Solana-looking address that is not the token's. */
const LOOK_ALIKE = 'PEPAx9kFjWq3TzR8vB2nYh5sLmC4dGtE7aUoXiKpZpump';

describe('captions keep facts to the site', () => {
  it('masks a look-alike contract address', () => {
    const { text, masked } = maskUnofficial(
      `The contract is ${LOOK_ALIKE}, copy it now!`,
      OFFICIAL,
    );
    expect(text).toBe(`The contract is ${ADDRESS_MASK}, copy it now!`);
    expect(text).not.toContain('PEPAx9');
    expect(masked).toBe(true);
  });

  it("masks even the token's real address: the address is shown only in the site's card", () => {
    expect(maskUnofficial(`It is ${config.tokenMint}`, OFFICIAL).text).toBe(
      `It is ${ADDRESS_MASK}`,
    );
  });

  it('masks half an address in a forming caption', () => {
    expect(maskUnofficial('Send it to 7xKXtg2CW87d97TX', OFFICIAL).text).toBe(
      `Send it to ${ADDRESS_MASK}`,
    );
  });

  it.each([
    'Visit https://pepa-airdrop.xyz/claim now',
    'Go to www.pepa-claim.com',
    'Claim at pepa-rewards.io/free',
    'Try https://t.me/pepa_court_support',
  ])("masks a link that is not the site's own: %s", (line) => {
    const { text, masked } = maskUnofficial(line, OFFICIAL);
    expect(text).toContain(LINK_MASK);
    expect(text).not.toMatch(/airdrop|claim\.com|rewards\.io|support/);
    expect(masked).toBe(true);
  });

  it("keeps the site's own links whole, the Buy link with its addresses included", () => {
    const line = `Join us at ${config.links.court}, or buy at ${config.buyUrl}.`;
    expect(maskUnofficial(line, OFFICIAL)).toEqual({ text: line, masked: false });
  });

  it('leaves ordinary words, long ones included, alone', () => {
    const line = 'Ribbit! Incomprehensibilities aside, the pond is magnificent, honoured guest.';
    expect(maskUnofficial(line, OFFICIAL)).toEqual({ text: line, masked: false });
  });
});
