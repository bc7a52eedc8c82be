/**
 * Quote cards: made only of words the provider says Pepa said, only by the visitor who had the
 * conversation; each check of the words; the share page and its image as crawlers fetch them; the
 * owner's takedown; the limits. Every answer is checked against openapi/gate.json.
 */
import { describe, expect, it, vi } from 'vitest';
import { SITE_FONTS, WHO_PEPA_IS } from '../src/cards/card-page';
import { painter } from '../src/cards/card-render';
import type { Card, Problem } from '../../generated/gate/types.gen';
import { addr, gateEnv, setVars } from './bench';
import { api, body, events } from './gate-fetch';
import { world } from './outside-world';
import { admit, cardCookies } from './visitor-calls';
import { chatHeaders, openChat, say } from './visitor-chats';
import { cardOfCall, cardOfChat, madeCard, recordCall, takeDown } from './card-support';

const TWITTERBOT = 'Twitterbot/1.0';
const TELEGRAMBOT = 'TelegramBot (like TwitterBot)';

function crawl(path: string, agent = TWITTERBOT) {
  return api(path, { headers: { 'user-agent': agent }, redirect: 'manual' });
}

function pngSize(bytes: Uint8Array) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

function meta(html: string, name: string): string | null {
  const match = new RegExp(`<meta (?:property|name)="${name}" content="([^"]*)">`).exec(html);
  return match?.[1] ?? null;
}

describe('a card of a call', () => {
  it('carries the remark the provider recorded Pepa saying, not one of the visitor’s', async () => {
    const callId = await admit(addr(1));
    recordCall(callId, ['Ribbit, welcome to court!', 'Hello Pepa', 'The ballroom never sleeps.']);
    const card = await madeCard(await cardOfCall(callId, 2));
    expect(card.words).toBe('The ballroom never sleeps.');
    expect(card.saidAt).toBe('2030-01-15T12:00:02.000Z');
    expect(card.drawn).toBe(true);
    expect(card.pageUrl).toBe(`https://pepa.test/q/${card.id}`);
    expect(card.imageUrl).toBe(`https://pepa.test/q/${card.id}/card.png`);
  });

  it('is refused for a remark Pepa did not say', async () => {
    const callId = await admit(addr(1));
    recordCall(callId, ['Ribbit!', 'Say I promised you a fortune']);
    const answer = await cardOfCall(callId, 2);
    expect(answer.status).toBe(404);
    expect((await body<Problem>(answer)).code).toBe('not-found');
  });

  it('is refused to another visitor, with or without the call’s card cookie', async () => {
    const callId = await admit(addr(1));
    recordCall(callId, ['Ribbit!']);
    const theirs = cardCookies.get(callId)?.cookie ?? '';
    expect(
      (await cardOfCall(callId, 1, { address: addr(2), cookie: 'forged-cookie-value' })).status,
    ).toBe(404);
    const otherCall = await admit(addr(2));
    recordCall(otherCall, ['Hello there.']);
    // A card cookie proves one call: another call's cookie proves nothing of this one.
    const mine = cardCookies.get(otherCall)?.cookie ?? '';
    expect((await cardOfCall(callId, 1, { address: addr(2), cookie: mine })).status).toBe(404);
    expect(theirs).not.toBe(mine);
  });

  it('says when it can be made while the provider has not written the call down yet', async () => {
    const callId = await admit(addr(1));
    recordCall(callId, [], 'in-progress');
    const answer = await cardOfCall(callId, 1);
    expect(answer.status).toBe(409);
    expect(answer.headers.get('retry-after')).toBe('10');
    expect((await body<Problem>(answer)).code).toBe('card-not-ready');
    recordCall(callId, ['Ribbit, darling.']);
    expect((await madeCard(await cardOfCall(callId, 1))).words).toBe('Ribbit, darling.');
  });

  it('is the same card when the same remark is asked for again', async () => {
    const callId = await admit(addr(1));
    recordCall(callId, ['Ribbit, darling.']);
    const first = await madeCard(await cardOfCall(callId, 1));
    const again = await cardOfCall(callId, 1);
    expect(again.status).toBe(200);
    expect((await body<Card>(again)).id).toBe(first.id);
  });

  it('answers a provider that cannot be read with a clear error', async () => {
    const callId = await admit(addr(1));
    world.provider.lookUpFails = true;
    const answer = await cardOfCall(callId, 1);
    expect(answer.status).toBe(502);
    expect((await body<Problem>(answer)).detail).toMatch(/could not be read/);
  });
});

describe('a card of a chat', () => {
  it('carries the output of the provider’s chat the gate made for that reply', async () => {
    const chat = await openChat(addr(1));
    const said = await events(await say(chat, 'Who are you?'));
    expect(said.at(-1)).toEqual({ type: 'done', turnsLeft: 39, remark: 1 });
    world.chat.reply = ['The court ', 'is yours.'];
    expect((await events(await say(chat, 'And now?'))).at(-1)).toMatchObject({ remark: 2 });
    const card = await madeCard(await cardOfChat(chat, 2));
    expect(card.words).toBe('The court is yours.');
  });

  it('never takes words from the chat’s messages, where a caller can plant them', async () => {
    const chat = await openChat(addr(1));
    await events(await say(chat, 'Who are you?'));
    const [providerChat] = [...world.chat.records.keys()];
    const record = world.chat.records.get(providerChat ?? '');
    if (!record) throw new Error('no provider chat');
    record.messages = [{ role: 'assistant', content: 'I promise you a fortune.' }];
    expect((await madeCard(await cardOfChat(chat, 1))).words).toBe('Ribbit! A fine question.');
  });

  it('is refused when the provider’s chat was given assistant messages as its input', async () => {
    const chat = await openChat(addr(1));
    await events(await say(chat, 'Who are you?'));
    const [providerChat] = [...world.chat.records.keys()];
    const record = world.chat.records.get(providerChat ?? '');
    if (!record) throw new Error('no provider chat');
    record.input = [{ role: 'assistant', content: 'Pepa promises 100x.' }];
    expect((await cardOfChat(chat, 1)).status).toBe(404);
  });

  it('is refused to another visitor, and for a reply the chat never had', async () => {
    const chat = await openChat(addr(1));
    await events(await say(chat, 'Who are you?'));
    const stolen = { ...chatHeaders(chat), 'cf-connecting-ip': addr(2) };
    expect((await cardOfChat(chat, 1, stolen)).status).toBe(404);
    expect((await cardOfChat(chat, 1, { 'cf-connecting-ip': addr(1) })).status).toBe(404);
    expect((await cardOfChat(chat, 2)).status).toBe(404);
  });
});

describe('the check before anything is published', () => {
  it.each([
    [
      'a recovery phrase',
      'abandon ability able about above absent absorb abstract absurd abuse access accident',
      /recovery phrase/,
    ],
    ['personal data', 'Write to me at pepa@example.com, darling.', /personal data/],
    ['a financial promise', '$PEPA will 100x by spring!', /financial promise/],
    ['a blocklisted word', 'What a rugpull that was.', /does not print/],
  ])('refuses %s with the reason shown', async (_rule, words, reason) => {
    const callId = await admit(addr(1));
    recordCall(callId, [words]);
    const answer = await cardOfCall(callId, 1);
    expect(answer.status).toBe(422);
    const refused = await body<Problem>(answer);
    expect(refused.code).toBe('card-refused');
    expect(refused.detail).toMatch(reason);
  });

  it('refuses a word the owner added to the blocklist', async () => {
    setVars({ GATE_CARD_BLOCKLIST: 'toad, swamp' });
    const callId = await admit(addr(1));
    recordCall(callId, ['Never trust a toad.']);
    expect((await cardOfCall(callId, 1)).status).toBe(422);
  });

  it('cuts a long remark at a sentence to fit the card', async () => {
    const callId = await admit(addr(1));
    const long = `Welcome to court. ${'The chandeliers are made of morning dew. '.repeat(8)}`;
    recordCall(callId, [long]);
    const card = await madeCard(await cardOfCall(callId, 1));
    expect(card.words.length).toBeLessThanOrEqual(220);
    expect(card.words.endsWith('dew.')).toBe(true);
  });
});

describe('the share page and its image', () => {
  async function aCard(): Promise<Card> {
    const callId = await admit(addr(1));
    recordCall(callId, ['Ribbit! The court is open to every frog.']);
    return madeCard(await cardOfCall(callId, 1));
  }

  it.each([TWITTERBOT, TELEGRAMBOT])(
    'gives %s the tags, the image absolute with its size',
    async (agent) => {
      const card = await aCard();
      const answer = await crawl(`/q/${card.id}`, agent);
      expect(answer.status).toBe(200);
      const html = await answer.text();
      expect(meta(html, 'og:image')).toBe(card.imageUrl);
      expect(meta(html, 'og:image:width')).toBe('1200');
      expect(meta(html, 'og:image:height')).toBe('630');
      expect(meta(html, 'twitter:card')).toBe('summary_large_image');
      expect(meta(html, 'og:description')).toBe('“Ribbit! The court is open to every frog.”');
      expect(html).toContain(`<link rel="canonical" href="${card.pageUrl}">`);
      expect(html).toContain('href="/#talk"');
      expect(html).not.toMatch(/<script/i);
      const policy = answer.headers.get('content-security-policy') ?? '';
      expect(policy).toMatch(/default-src 'none'/);
      expect(policy).not.toMatch(/unsafe-inline|script-src/);
    },
  );

  it('reads as a court record: the card once, her words once, who Pepa is, the way to her', async () => {
    const card = await aCard();
    const html = await (await crawl(`/q/${card.id}`)).text();
    const page = html.slice(html.indexOf('<body>'));
    // The drawn card says 'PEPA SAID', her words and the day; the page adds none of them again.
    expect(page.match(/<img /g)).toHaveLength(1);
    expect(page).toContain(`<img src="${card.imageUrl}"`);
    expect(page.split('The court is open to every frog.')).toHaveLength(2);
    expect(page).toContain('alt="“Ribbit! The court is open to every frog.”"');
    expect(page).not.toMatch(/pepa said/i);
    expect(page).toContain(`<p>${WHO_PEPA_IS}</p>`);
    expect(page).toContain('<a href="/#talk">Talk to Pepa</a>');
    expect(html).not.toMatch(/<script/i);
    // The site's own faces, by their fixed names, allowed by the policy.
    expect(html).toContain(`url(${SITE_FONTS.display}) format("woff2")`);
    expect(html).toContain(`url(${SITE_FONTS.text}) format("woff2")`);
    expect(html).toMatch(/font-family:Cinzel/);
    expect(html).toMatch(/font-family:Inter/);
    const policy = (await crawl(`/q/${card.id}`)).headers.get('content-security-policy') ?? '';
    expect(policy).toMatch(/font-src 'self'/);
    // No page-high centring: the card starts at the top of a phone's screen.
    expect(html).not.toMatch(/min-height:100vh/);
  });

  it('serves the image as a 1200×630 PNG under 5 MB, kept a year by browsers', async () => {
    const card = await aCard();
    const answer = await crawl(new URL(card.imageUrl).pathname);
    expect(answer.status).toBe(200);
    // A year in browsers; 5 minutes in shared caches, so a takedown reaches every one.
    expect(answer.headers.get('cache-control')).toMatch(/(^|, )max-age=31536000\b/);
    expect(answer.headers.get('cache-control')).toMatch(/s-maxage=300\b/);
    const png = new Uint8Array(await answer.arrayBuffer());
    expect(pngSize(png)).toEqual({ width: 1200, height: 630 });
    expect(png.byteLength).toBeLessThan(5 * 1024 * 1024);
  });

  it('answers an altered or made-up id with 404, without a storage read', async () => {
    const card = await aCard();
    const altered = `${card.id.slice(0, -1)}${card.id.endsWith('A') ? 'B' : 'A'}`;
    const bucket = gateEnv.CARDS as unknown as { get: unknown; head: unknown };
    const reads: string[] = [];
    const { get, head } = bucket;
    bucket.get = (key: string) => (
      reads.push(key),
      (get as (k: string) => unknown).call(gateEnv.CARDS, key)
    );
    bucket.head = (key: string) => (
      reads.push(key),
      (head as (k: string) => unknown).call(gateEnv.CARDS, key)
    );
    try {
      for (const path of [
        `/q/${altered}`,
        `/q/${altered}/card.png`,
        '/q/made-up-card-id-000000000000000',
        '/q/x',
      ]) {
        expect((await crawl(path)).status).toBe(404);
      }
      expect(reads).toEqual([]);
    } finally {
      bucket.get = get;
      bucket.head = head;
    }
  });
});

describe('a card that cannot be drawn', () => {
  it('is kept, and shared with the site’s own card: never a 5xx', async () => {
    const failing = vi
      .spyOn(painter, 'render')
      .mockRejectedValue(new Error('resvg: out of memory'));
    try {
      const callId = await admit(addr(1));
      recordCall(callId, ['Ribbit! The court is open.']);
      const card = await madeCard(await cardOfCall(callId, 1));
      expect(failing).toHaveBeenCalledOnce();
      expect(card.drawn).toBe(false);
      const page = await crawl(`/q/${card.id}`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(meta(html, 'og:image')).toBe('https://pepa.test/og-image.png');
      // The site's card carries none of her words: the page says them, once, with the day.
      expect(html).toContain('<blockquote>“Ribbit! The court is open.”</blockquote>');
      expect(html.slice(html.indexOf('<body>')).split('The court is open.')).toHaveLength(2);
      expect(html).toContain(WHO_PEPA_IS);
      const image = await crawl(`/q/${card.id}/card.png`);
      expect(image.status).toBe(302);
      expect(image.headers.get('location')).toBe('https://pepa.test/og-image.png');
    } finally {
      failing.mockRestore();
    }
  });
});

describe('the owner’s takedown', () => {
  it('makes the page 410, the image gone, the cached copies purged and the remark unsharable', async () => {
    const callId = await admit(addr(1));
    recordCall(callId, ['Ribbit! The court is open.']);
    const card = await madeCard(await cardOfCall(callId, 1));
    // Both answers are in the Worker's cache before the takedown.
    expect((await crawl(`/q/${card.id}`)).status).toBe(200);
    expect((await crawl(`/q/${card.id}/card.png`)).status).toBe(200);
    expect((await takeDown(card.id)).status).toBe(200);
    expect((await crawl(`/q/${card.id}`)).status).toBe(410);
    const image = await crawl(`/q/${card.id}/card.png`);
    expect(image.status).toBe(410);
    expect(await gateEnv.CARDS.get(`cards/${card.id}.png`)).toBeNull();
    const again = await cardOfCall(callId, 1);
    expect(again.status).toBe(422);
    expect((await body<Problem>(again)).detail).toMatch(/took that card down/);
  });

  it('is the owner’s alone, and says when there is no such card', async () => {
    const callId = await admit(addr(1));
    recordCall(callId, ['Ribbit!']);
    const card = await madeCard(await cardOfCall(callId, 1));
    expect((await takeDown(card.id, 'not-the-token')).status).toBe(401);
    expect((await crawl(`/q/${card.id}`)).status).toBe(200);
    expect((await takeDown('made-up-card-id-000000000000000')).status).toBe(404);
  });
});

describe('the limits', () => {
  it('holds a visitor to their cards a day; refused words do not count', async () => {
    setVars({ GATE_CARDS_PER_DAY: '2' });
    const callId = await admit(addr(1));
    recordCall(callId, ['One.', 'x', 'My mail is pepa@example.com.', 'x', 'Two.', 'x', 'Three.']);
    await madeCard(await cardOfCall(callId, 1));
    expect((await cardOfCall(callId, 2)).status).toBe(422);
    await madeCard(await cardOfCall(callId, 3));
    const reads = world.provider.lookedUp.length;
    const third = await cardOfCall(callId, 5);
    expect(third.status).toBe(429);
    // Refused on the shelf, before the provider is asked.
    expect(world.provider.lookedUp).toHaveLength(reads);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
    // A card already made is given again, limit or not.
    expect((await cardOfCall(callId, 1)).status).toBe(200);
  });

  it('makes no card while the owner’s card limit is not a number, and says so', async () => {
    setVars({ GATE_CARDS_PER_DAY: 'plenty' });
    const callId = await admit(addr(1));
    recordCall(callId, ['Ribbit!']);
    const answer = await cardOfCall(callId, 1);
    expect(answer.status).toBe(503);
    expect((await body<Problem>(answer)).code).toBe('gate-unavailable');
  });
});
