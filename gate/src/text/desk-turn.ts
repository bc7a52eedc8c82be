/**
 * A turn as a desk receives it. The Worker proves the chat is the visitor's and judges the message
 * by the contract, then calls the desk's `turn` over RPC; the desk judges what arrives once more,
 * where it is used, since any code holding a stub of the desk can call it, and what came is
 * taken for what was meant only once it has been read so.
 */
import * as v from 'valibot';
import { vChatMessage, vSendChatMessagePath } from '../../../generated/gate/valibot.gen';
import { judge } from '../floor/contract';
import { problem } from '../floor/problem';

/** A visitor as `identify` makes one: their own key and their networks' keys. */
const vVisitor = v.strictObject({
  key: v.pipe(v.string(), v.nonEmpty()),
  networks: v.array(v.pipe(v.string(), v.nonEmpty())),
});

/** Whose turn it is, in which chat, and the message, as the contract takes a message. */
const vDeskTurn = v.strictObject({
  visitor: vVisitor,
  chatId: vSendChatMessagePath.entries.chatId,
  text: vChatMessage.entries.text,
});

export type DeskTurn = v.InferOutput<typeof vDeskTurn>;

/**
 * How the desk hears that the visitor has gone while it waits for the provider's first answer:
 * a function of the Worker's, called over RPC, that settles when the visitor's request is
 * cancelled. Once the reply streams, its stream's cancellation says the same.
 */
export type WhenGone = () => Promise<void>;

/**
 * Aborts `controller` when the Worker says the visitor has gone, or when the Worker can no
 * longer be asked (its request cancelled, the call's stub broken), until `answered()` says the
 * turn has been answered: from then on, the reply's stream carries the visitor's leaving.
 */
function abortWhenGone(
  whenGone: WhenGone | undefined,
  controller: AbortController,
  answered: () => boolean,
): void {
  if (whenGone === undefined) return;
  const gone = () => {
    if (!answered()) controller.abort();
  };
  whenGone().then(gone, gone);
}

/**
 * A turn received: judged (a malformed one is refused with 400 `bad-request`, naming the fault,
 * before anything is counted), then taken with a controller that aborts when the visitor goes.
 */
export async function receiveTurn(
  input: unknown,
  whenGone: WhenGone | undefined,
  take: (turn: DeskTurn, controller: AbortController) => Promise<Response>,
): Promise<Response> {
  const verdict = judge(vDeskTurn, input);
  if (whenGone !== undefined && typeof whenGone !== 'function') {
    return problem('bad-request', {
      detail: "A desk's turn is malformed: whenGone: not a function",
    });
  }
  if (!verdict.ok) {
    return problem('bad-request', { detail: `A desk's turn is malformed: ${verdict.detail}` });
  }
  let answered = false;
  const controller = new AbortController();
  abortWhenGone(whenGone, controller, () => answered);
  try {
    return await take(verdict.value, controller);
  } finally {
    answered = true;
  }
}

/** The Worker's side of `WhenGone`: settles when `signal` (the visitor's request's) aborts. */
export function goneWith(signal: AbortSignal): WhenGone {
  return () =>
    new Promise<void>((resolve) => {
      if (signal.aborted) resolve();
      else signal.addEventListener('abort', () => resolve(), { once: true });
    });
}
