/**
 * Takedowns that stick: words the owner took down (folded, as every check reads them) are never
 * carded again, by any visitor, from any remark, call or chat, however they are spelt to the eye;
 * taking words down takes every card of them down; and a card cookie makes cards only for the
 * visitor the call was given to.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { Problem } from '../../generated/gate/types.gen';
import {
  cardOfCall,
  cardOfChat,
  emptyCards,
  madeCard,
  pepaSays,
  recordCall,
  takeDown,
  takeDownWords,
  takenDown,
} from './card-support';
import { foldForMatch } from '../src/cards/fold/card-fold';
import { setVars } from './bench';
import { api, body, events } from './gate-fetch';
import { world } from './outside-world';
import { admit, cardCookies } from './visitor-calls';
import { openChat, say } from './visitor-chats';

const SCAM = 'The court opens its doors to every frog at noon.';
const TAKEN_DOWN = /took that card down/;

/** Two /64s of one /48, and a visitor of another network. */
const HOME = '2001:db8:aa:1::10';
const NEIGHBOUR = '2001:db8:aa:2::10';
const STRANGER = '198.51.100.7';

async function refusedAsTakenDown(answer: Response): Promise<void> {
  expect(answer.status).toBe(422);
  const refused = await body<Problem>(answer);
  expect(refused.code).toBe('card-refused');
  expect(refused.detail).toMatch(TAKEN_DOWN);
}

/** A card of `words`, made by a call from `address`. */
async function cardOf(address: string, words: string) {
  const callId = await admit(address);
  recordCall(callId, [words]);
  return madeCard(await cardOfCall(callId, 1));
}

/** A chat from `address` whose reply number 1 says `words`. */
async function chatSaying(address: string, words: string): Promise<string> {
  const chat = await openChat(address);
  world.chat.reply = [words];
  await events(await say(chat, 'Say something.'));
  return chat;
}

beforeEach(async () => {
  await emptyCards();
  // Every visitor of a test in a call at once.
  setVars({ GATE_MAX_CONCURRENT_CALLS: '20' });
});

describe('a takedown', () => {
  it('says which words it blocked, folded, and which cards it took down', async () => {
    const card = await cardOf(HOME, SCAM);
    const taken = await takenDown(await takeDown(card.id));
    expect(taken).toEqual({
      words: foldForMatch(SCAM),
      cards: [card.id],
      nearRelatives: true,
      tokens: [],
    });
  });

  it('refuses the same words afterwards from another /64, another remark and a chat', async () => {
    const callId = await admit(HOME);
    recordCall(callId, pepaSays([SCAM, 'Ribbit.', SCAM]));
    const card = await madeCard(await cardOfCall(callId, 1));
    await takenDown(await takeDown(card.id));
    // Another remark of the same call.
    await refusedAsTakenDown(await cardOfCall(callId, 3));
    // Another visitor of the same /48, in a call of their own.
    const neighbours = await admit(NEIGHBOUR);
    recordCall(neighbours, [SCAM]);
    await refusedAsTakenDown(await cardOfCall(neighbours, 1));
    // A chat, from a visitor of another network.
    await refusedAsTakenDown(await cardOfChat(await chatSaying(STRANGER, SCAM), 1));
    // Other words are carded as ever.
    expect((await cardOfCall(callId, 2)).status).toBe(201);
  });

  it.each([
    ['in capitals', SCAM.toUpperCase()],
    ['in fullwidth letters (NFKC)', SCAM.replace('court', 'ｃｏｕｒｔ')],
    ['with zero-width spaces inside its words', SCAM.replace(/(\w)(\w)/g, '$1\u200b$2')],
    ['with a soft hyphen and a word joiner', SCAM.replace('frog', 'fr\u00adog\u2060')],
  ])('refuses the same words written %s', async (_disguise, disguised) => {
    const card = await cardOf(HOME, SCAM);
    await takenDown(await takeDown(card.id));
    const callId = await admit(STRANGER);
    recordCall(callId, [disguised]);
    const answer = await cardOfCall(callId, 1);
    // Refused: as taken down, or by a check that sees the disguise itself.
    expect(answer.status).toBe(422);
    expect((await body<Problem>(answer)).code).toBe('card-refused');
  });

  it('takes down every card already made of the same words, each 410', async () => {
    const first = await cardOf(HOME, SCAM);
    const second = await cardOf(STRANGER, SCAM.replace('court', 'COURT'));
    const other = await cardOf(NEIGHBOUR, 'Ribbit, the pond is calm today.');
    const taken = await takenDown(await takeDown(second.id));
    expect(taken.cards.sort()).toEqual([first.id, second.id].sort());
    expect((await api(`/q/${first.id}`)).status).toBe(410);
    expect((await api(`/q/${second.id}`)).status).toBe(410);
    expect((await api(`/q/${other.id}`)).status).toBe(200);
    // A card already down is not there to take down again.
    expect((await takeDown(first.id)).status).toBe(404);
  });
});

describe('words taken down before any card of them', () => {
  it('are never carded, and the answer names them folded', async () => {
    const taken = await takenDown(await takeDownWords(`  ${SCAM.replace('frog', 'ｆｒｏｇ')} `));
    expect(taken).toEqual({
      words: foldForMatch(SCAM),
      cards: [],
      nearRelatives: true,
      tokens: [],
    });
    const callId = await admit(HOME);
    recordCall(callId, [SCAM]);
    await refusedAsTakenDown(await cardOfCall(callId, 1));
    await refusedAsTakenDown(await cardOfChat(await chatSaying(STRANGER, SCAM), 1));
  });

  it('take down the cards already made of them', async () => {
    const card = await cardOf(HOME, SCAM);
    expect((await takenDown(await takeDownWords(SCAM))).cards).toEqual([card.id]);
    expect((await api(`/q/${card.id}`)).status).toBe(410);
    // Asked again, the remark's card is the one taken down.
    await refusedAsTakenDown(await cardOfCall([...cardCookies.keys()][0] ?? '', 1));
  });

  it('are the owner’s alone, and must hold a word', async () => {
    expect((await takeDownWords(SCAM, 'not-the-token')).status).toBe(401);
    expect((await takeDownWords(' \u200b ')).status).toBe(400);
    expect((await cardOf(HOME, SCAM)).words).toBe(SCAM);
  });
});

describe('the card cookie', () => {
  it('makes cards of its call only from the visitor it was given to', async () => {
    const callId = await admit(HOME);
    recordCall(callId, [SCAM]);
    const cookie = cardCookies.get(callId)?.cookie ?? '';
    // Replayed from another /64 of the same /48, and from another network: the same 404.
    for (const address of [NEIGHBOUR, STRANGER]) {
      const answer = await cardOfCall(callId, 1, { address, cookie });
      expect(answer.status).toBe(404);
      expect((await body<Problem>(answer)).code).toBe('not-found');
    }
    // From another address of the visitor's own /64, it is still theirs.
    expect((await cardOfCall(callId, 1, { address: '2001:db8:aa:1::99', cookie })).status).toBe(
      201,
    );
  });
});
