/** Contact off the site: links, names, handles and asking for a private word, and the site's own. */
import { describe, expect, it } from 'vitest';
import { holdsReach } from './card-reach';

describe('contact off the site', () => {
  it.each([
    'join t.me/pepa_official',
    'send 1 sol to pepa-airdrop.sol',
    'vitalik.eth is my friend',
    'see bit.ly/3xyzabc',
    'go to pepa-gifts [dot] xyz',
    'read https://frog-news.example/claim',
    'follow @pepa_queen_real',
    'add froggy#1234',
    'dm me, darling',
    'find me on telegram',
    'escribeme por privado',
    'напиши мне в личку',
  ])('is found in "%s"', (text) => {
    expect(holdsReach(text, 'pepa.test')).toBe(true);
  });

  it.each([
    'come back to pepa.test tomorrow',
    'visit https://pepa.test/court',
    'the moon shines on my pond tonight.',
    'my pond is 10 x 20 metres',
    'we met at 8 pm. me and the heron',
    'write to me here, darling',
  ])('is not found in "%s"', (text) => {
    expect(holdsReach(text, 'pepa.test')).toBe(false);
  });
});
