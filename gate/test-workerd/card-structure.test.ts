/**
 * Secrets and contacts found by their structure, not their spelling: recovery phrases of eight or
 * more list words however they are spaced, ordered or shortened; every address family of Pepa's
 * world; links to any host but the site's own, handles, wallet names and asking to be written to
 * in private; blocked words inside other words. Each through the real `POST /api/cards`.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { askCardOf, emptyCards, expectRefused, madeCard } from './card-support';

beforeEach(emptyCards);

const WORDS = 'legal winner thank year wave sausage worth useful legal winner thank yellow'.split(
  ' ',
);
const BECH32 = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq';
const BITCOIN = '1BvBMSEYstWetqTFn5Au4m4GFg7xJaNVN2';
const EVM = '0x52908400098527886E0F7030069857D2E4169EE7';
const SOLANA_BYTES = Array.from({ length: 32 }, (_, n) => (n * 37 + 11) % 256);

describe('recovery phrases by structure', () => {
  it.each([
    ['eleven of its twelve words', WORDS.slice(0, 11).join(' ')],
    ['the first four letters of each word', WORDS.map((word) => word.slice(0, 4)).join(' ')],
    [
      'runs of three list words split by a filler',
      [0, 3, 6, 9].map((n) => WORDS.slice(n, n + 3).join(' ')).join(', then '),
    ],
    ['eight list words in another order, by commas', WORDS.slice(0, 8).reverse().join(', ')],
    ['the words run together with no space', `Remember ${WORDS.join('')}`],
    ['the words one to a line', WORDS.join('\n')],
  ])('%s is refused as a secret', async (_name, words) => {
    await expectRefused(words, 'secret');
  });
});

describe('addresses of every family', () => {
  it.each([
    ['a Bitcoin bech32 (bc1…) address', `Send to ${BECH32}`],
    ['a bc1 address in groups of four', `Send to ${(BECH32.match(/.{1,4}/g) ?? []).join(' ')}`],
    ['a Bitcoin base58 address', `Pay ${BITCOIN} today`],
    ['an EVM 0x address', `Send to ${EVM}`],
    ['an address in base64', `Key: ${btoa(String.fromCharCode(...SOLANA_BYTES))}`],
    [
      'an address in hex',
      `Key: ${SOLANA_BYTES.map((byte) => byte.toString(16).padStart(2, '0')).join('')}`,
    ],
  ])('%s is refused as a secret', async (_name, words) => {
    await expectRefused(words, 'secret');
  });
});

describe('contact off the site', () => {
  it.each([
    ['a .sol name', 'Send 1 SOL to pepa-airdrop.sol for the airdrop.'],
    ['a .eth name', 'My friend frogqueen.eth holds the treasury'],
    ['a t.me link', 'Join t.me/pepa_official now'],
    ['a wa.me link', 'Message wa.me/15551234 for prizes'],
    ['a discord.gg invite', 'Our party is at discord.gg/lilypad'],
    ['a bit.ly link', 'See bit.ly/3xYzAbc'],
    ['a link to another host', 'Read https://frog-news.example/claim first'],
    ['a link with its dot spelt out', 'Go to pepa-gifts dot xyz'],
    ['a handle', 'Follow @pepa_queen_real for gifts'],
    ['a Discord tag', 'Add froggy#1234 to claim'],
    ['a channel named with a handle', 'telegram: pepaqueen_real'],
    ['"DM me"', 'DM me for the secret, darling'],
    ['"find me on Telegram"', 'Find me on Telegram, darling'],
    ['"DM me" in Spanish', 'Escríbeme por privado, querida'],
    ['"DM me" in Portuguese', 'Me chama no privado, querida'],
    ['"DM me" in French', 'Écris-moi en MP, chérie'],
    ['"DM me" in German', 'Schreib mir per DM, Liebling'],
    ['"DM me" in Italian', 'Scrivimi in privato, cara'],
    ['"DM me" in Russian', 'Напиши мне в личку, дорогой'],
    ['"DM me" in Turkish', 'DM at bana, canım'],
  ])('%s is refused', async (_name, words) => {
    await expectRefused(words, 'contact');
  });

  it('a link to the site’s own host is carded', async () => {
    const card = await madeCard(await askCardOf('Come back to pepa.test tomorrow, darling.'));
    expect(card.words).toBe('Come back to pepa.test tomorrow, darling.');
  });
});

describe('blocked words inside words', () => {
  it.each([
    ['a blocked word with an ending', 'What a fucking mess'],
    ['a blocked word inside another', 'What a motherfucker'],
    ['a blocked word run together', 'They rugpulled us'],
    ['a blocked phrase with an ending', 'They rug pulled us'],
  ])('%s is refused', async (_name, words) => {
    await expectRefused(words, 'blocked-word');
  });
});
