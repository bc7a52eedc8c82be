/**
 * Text with Pepa, as the Worker serves it (openapi/gate.json, tag `text`): starting a chat (the
 * bot check and the visitor's limits, as for a call), a message and its streamed reply, ending a
 * chat. A chat's secret (an HMAC of its id and its visitor) proves it is theirs before any desk
 * hears of it; the desk of the visitor's network does the rest (text-desk.ts).
 */
import {
  vChatMessage,
  vCreateCallHeaders,
  vEndChatHeaders,
  vEndChatPath,
  vSendChatMessageHeaders,
  vSendChatMessagePath,
  vStartChatBody,
} from '../../../generated/gate/valibot.gen';
import type { ChatStarted } from '../../../generated/gate/types.gen';
import { botCheckRefusal } from '../floor/bot-check';
import { textLimitsFrom } from '../floor/config';
import { headersOf, judge } from '../floor/contract';
import type { ChatHandover } from '../calls/court';
import { countEdgeRefusal, prove, proves } from '../floor/edge';
import { busiestOf, type BusiestLoad } from '../floor/load';
import { json, problem, readJsonObject } from '../floor/problem';
import { goneWith } from './desk-turn';
import { refusalResponse } from './text-records';
import { hasVisibleCharacter } from './visible-text';
import { DESK_NAMES, deskFor, type Visitor } from '../floor/visitor';

/** A message's body is read no further than this (the contract's longest text, in UTF-8). */
const MESSAGE_BODY_BYTES = 20 * 1024;

function desk(env: Env, visitor: Visitor) {
  return env.TEXT_DESK.getByName(deskFor(visitor));
}

/** A chat's secret: its id bound to the visitor it was given to. */
function chatSecret(env: Env, chatId: string, visitor: Visitor): Promise<string> {
  return prove(env, 'chat', `${chatId}:${visitor.key}`);
}

/** `POST /api/chats`. */
export async function startChat(request: Request, env: Env, visitor: Visitor): Promise<Response> {
  const body = await readJsonObject(request, 4096);
  if (!body.ok) return problem('bad-request', { detail: body.detail });
  const start = judge(vStartChatBody, body.value);
  if (!start.ok && start.unknownField) return problem('bad-request', { detail: start.detail });
  if (!start.ok) {
    countEdgeRefusal(env, 'bot-check-failed', '/api/chats');
    return problem('bot-check-failed', { detail: start.detail });
  }
  const early = await desk(env, visitor).precheck(visitor);
  if (early) return refusalResponse(early);
  const refused = await botCheckRefusal(request, env, start.value.botCheckToken, '/api/chats');
  if (refused) return refused;
  const opened = await desk(env, visitor).open(visitor);
  if (!('ok' in opened)) return refusalResponse(opened);
  const answer: ChatStarted = {
    chat: {
      id: opened.id,
      secret: await chatSecret(env, opened.id, visitor),
      maxMessageChars: textLimitsFrom(env).messageChars,
      turnsLeft: opened.turnsLeft,
    },
  };
  return json(answer, 201);
}

/** Whether the request's Chat-Secret proves `chatId` is this visitor's. */
async function chatProven(
  request: Request,
  env: Env,
  chatId: string,
  visitor: Visitor,
  schema: typeof vSendChatMessageHeaders | typeof vEndChatHeaders,
): Promise<boolean> {
  const headers = judge(schema, headersOf(request, schema));
  const given = headers.ok ? headers.value['Chat-Secret'] : null;
  if (await proves(env, 'chat', `${chatId}:${visitor.key}`, given)) return true;
  countEdgeRefusal(env, 'chat-gone', '/api/chats');
  return false;
}

/** `POST /api/chats/{chatId}/messages`: the reply's stream, from the visitor's desk. */
export async function sendChatMessage(
  request: Request,
  env: Env,
  rawId: string,
  visitor: Visitor,
): Promise<Response> {
  const params = judge(vSendChatMessagePath, { chatId: rawId });
  if (!params.ok) return problem('bad-request', { detail: params.detail });
  const { chatId } = params.value;
  if (!(await chatProven(request, env, chatId, visitor, vSendChatMessageHeaders))) {
    return problem('chat-gone');
  }
  const body = await readJsonObject(request, MESSAGE_BODY_BYTES);
  if (!body.ok) return problem('bad-request', { detail: body.detail });
  const message = judge(vChatMessage, body.value);
  const limit = textLimitsFrom(env).messageChars;
  const text = typeof body.value.text === 'string' ? body.value.text : null;
  // Too long is its own answer (the page keeps the draft and says the limit), before any other.
  if (text !== null && [...text].length > limit) {
    return problem('message-too-long', {
      detail: `A message to Pepa can be at most ${limit} characters`,
    });
  }
  if (!message.ok) return problem('bad-request', { detail: message.detail });
  // Nothing a reader would see (spaces, zero-width or direction characters, lone marks) is no
  // message: refused here, before the desk counts a turn or the provider bills a reply.
  if (!hasVisibleCharacter(message.value.text)) {
    return problem('bad-request', { detail: 'text has no visible character' });
  }
  // The visitor leaving (their request cancelled) stops the desk's turn, and the provider's.
  const turn = { visitor, chatId, text: message.value.text };
  return desk(env, visitor).turn(turn, goneWith(request.signal));
}

/** `DELETE /api/chats/{chatId}`: ends it, whoever asks; only its visitor's request does anything. */
export async function endChat(
  request: Request,
  env: Env,
  rawId: string,
  visitor: Visitor,
): Promise<Response> {
  const params = judge(vEndChatPath, { chatId: rawId });
  if (!params.ok) return problem('bad-request', { detail: params.detail });
  const { chatId } = params.value;
  if (await chatProven(request, env, chatId, visitor, vEndChatHeaders)) {
    await desk(env, visitor).end(visitor.key, chatId);
  }
  return new Response(null, { status: 204, headers: { 'cache-control': 'no-store' } });
}

/**
 * The chat a start or a check-in names (Chat-Id and Chat-Secret) when it is the visitor's: the
 * call admitted is given what was said in it. Anything else is no chat, not an error.
 */
export async function handedChat(
  request: Request,
  env: Env,
  visitor: Visitor,
): Promise<ChatHandover | null> {
  const headers = judge(vCreateCallHeaders, headersOf(request, vCreateCallHeaders));
  if (!headers.ok) return null;
  const id = headers.value['Chat-Id'];
  const secret = headers.value['Chat-Secret'];
  if (!id || !(await proves(env, 'chat', `${id}:${visitor.key}`, secret))) return null;
  return { desk: deskFor(visitor), id };
}

/** For the owner's report: the desk that heard the most requests in the last ten minutes. */
export function busiestDesk(env: Env): Promise<BusiestLoad | undefined> {
  return busiestOf(DESK_NAMES, (name) => env.TEXT_DESK.getByName(name).load());
}
