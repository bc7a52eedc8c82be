/**
 * A desk's turn is an RPC the Worker calls once it has proven the chat and judged the message;
 * the desk judges what it is given again, where it receives it.
 */
import { describe, expect, it } from 'vitest';
import { identify, type Visitor } from '../src/floor/visitor';
import { addr, gateEnv, ORIGIN } from './bench';
import { body, events, type ProblemBody } from './gate-fetch';
import { world } from './outside-world';
import { deskOf, openChat, say } from './visitor-chats';

/** The visitor the gate sees at `address`, as the Worker hands them to a desk. */
async function visitorAt(address: string): Promise<Visitor> {
  const request = new Request(ORIGIN, { headers: { 'cf-connecting-ip': address } });
  const visitor = await identify(request, gateEnv.GATE_VISITOR_SALT ?? '');
  if (!visitor) throw new Error(`no visitor at ${address}`);
  return visitor;
}

async function refusal(answer: Response): Promise<ProblemBody> {
  expect(answer.status).toBe(400);
  expect(answer.headers.get('content-type')).toContain('application/problem+json');
  return body<ProblemBody>(answer);
}

describe("a desk's turn", () => {
  it('refuses a malformed turn with a problem naming the fault, before it counts or asks anything', async () => {
    const chat = await openChat(addr(1));
    const desk = await deskOf(addr(1));
    const visitor = await visitorAt(addr(1));
    const malformed: [unknown, string][] = [
      ['Hello Pepa', "A desk's turn is malformed: Invalid type: Expected Object"],
      [{ visitor, chatId: chat }, "A desk's turn is malformed: text is required"],
      [{ visitor, chatId: chat, text: '' }, "A desk's turn is malformed: text: Invalid length"],
      [
        { visitor: { key: visitor.key }, chatId: chat, text: 'Hi' },
        "A desk's turn is malformed: visitor.networks is required",
      ],
      [
        { visitor: { ...visitor, networks: [7] }, chatId: chat, text: 'Hi' },
        "A desk's turn is malformed: visitor.networks.0: Invalid type",
      ],
      [{ visitor, chatId: '../desk-0', text: 'Hi' }, "A desk's turn is malformed: chatId: "],
      [{ visitor, chatId: chat, text: 'Hi', turns: 0 }, 'Unknown field: turns'],
    ];
    for (const [input, detail] of malformed) {
      const problem = await refusal(await desk.turn(input));
      expect(problem.code).toBe('bad-request');
      expect(problem.detail).toContain(detail);
    }
    expect(world.chat.requests).toEqual([]);
    // Nothing was counted: the chat's first message still leaves all but one of its turns.
    const answer = await say(chat, 'Hello Pepa');
    expect(answer.status).toBe(200);
    expect((await events(answer)).at(-1)).toMatchObject({ type: 'done', turnsLeft: 39 });
  });

  it('refuses a hang-up that is not a function', async () => {
    const chat = await openChat(addr(1));
    const visitor = await visitorAt(addr(1));
    const desk = await deskOf(addr(1));
    const turn = { visitor, chatId: chat, text: 'Hi' };
    const problem = await refusal(await desk.turn(turn, 'later' as never));
    expect(problem.detail).toBe("A desk's turn is malformed: whenGone: not a function");
    expect(world.chat.requests).toEqual([]);
  });

  it('takes a well-formed turn to the rules: a chat that is not the visitor’s is gone', async () => {
    const chat = await openChat(addr(1));
    const stranger = await visitorAt(addr(2));
    const answer = await (
      await deskOf(addr(1))
    ).turn({ visitor: stranger, chatId: chat, text: 'Hi' });
    expect(answer.status).toBe(404);
    expect((await body<ProblemBody>(answer)).code).toBe('chat-gone');
    expect(world.chat.requests).toEqual([]);
  });

  it('streams the reply of a well-formed turn, as the Worker relays it', async () => {
    const chat = await openChat(addr(1));
    const visitor = await visitorAt(addr(1));
    const answer = await (await deskOf(addr(1))).turn({ visitor, chatId: chat, text: 'Hi' });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/event-stream');
    const said = await events(answer);
    expect(
      said
        .filter((event) => event.type === 'words')
        .map((event) => event.text)
        .join(''),
    ).toBe('Ribbit! A fine question.');
    expect(said.at(-1)).toMatchObject({ type: 'done', turnsLeft: 39 });
  });
});
