// @ts-check
// What a text reply cost in a surge, by engine: what the gate metered, what the model's tokens
// cost at its list prices, and what the provider's chat would have charged for the same replies
// (its per-message fee besides the same tokens, which it does not report as cached). The
// stand-ins count the tokens; the prices are theirs (gate/dev/stand-in-chat.mjs, stand-in-model.mjs).
import { CHAT_PRICES } from '../../gate/dev/stand-in-chat.mjs';
import { MODEL_PRICES } from '../../gate/dev/stand-in-model.mjs';

/**
 * @typedef {{
 *   replies: number,
 *   modelUsd: number,
 *   providerChatUsd: number,
 * }} TextCosts
 * `replies`: replies the engine's stand-in wrote; `modelUsd`: what their tokens cost at the
 * model's prices; `providerChatUsd`: what the provider's chat charges for them.
 */

/**
 * The text costs of a run from its stand-in's counts.
 * @param {{
 *   model: { stats: { completions: number, promptTokens: number, cachedTokens: number, completionTokens: number } },
 *   chat: { chats: Map<string, { cost: number, costs: Array<Record<string, unknown>> }> },
 * }} standIn
 * @param {string} engine
 * @returns {TextCosts}
 */
export function textCosts(standIn, engine) {
  if (engine === 'model') {
    const { completions, promptTokens, cachedTokens, completionTokens } = standIn.model.stats;
    const modelUsd =
      ((promptTokens - cachedTokens) * MODEL_PRICES.inputUsdPerMillion +
        cachedTokens * MODEL_PRICES.cachedInputUsdPerMillion +
        completionTokens * MODEL_PRICES.outputUsdPerMillion) /
      1e6;
    const providerChatUsd =
      completions * CHAT_PRICES.chatFeeUsd +
      (promptTokens * CHAT_PRICES.promptUsdPerMillion +
        completionTokens * CHAT_PRICES.completionUsdPerMillion) /
        1e6;
    return { replies: completions, modelUsd, providerChatUsd };
  }
  let replies = 0;
  let modelUsd = 0;
  let providerChatUsd = 0;
  for (const chat of standIn.chat.chats.values()) {
    replies += 1;
    providerChatUsd += chat.cost;
    for (const part of chat.costs) if (part.type === 'model') modelUsd += Number(part.cost) || 0;
  }
  return { replies, modelUsd, providerChatUsd };
}

/**
 * The stand-in that writes text's replies under `engine`: the model's endpoint, or the
 * provider's chat.
 * @template M, C
 * @param {{ model: M, chat: C }} standIn
 * @param {string} engine
 * @returns {M | C}
 */
export const textStandInOf = (standIn, engine) =>
  engine === 'model' ? standIn.model : standIn.chat;

/**
 * "metered / model / provider's chat" per reply, in USD, and the prices they are at.
 * @param {TextCosts} costs
 * @param {number} meteredUsd what the gate charged for text
 * @param {number} meteredReplies the replies it charged for
 */
export function costPerReply(costs, meteredUsd, meteredReplies) {
  const each = (/** @type {number} */ usd, /** @type {number} */ n) =>
    n > 0 ? `$${(usd / n).toFixed(5)}` : '-';
  return (
    `${each(meteredUsd, meteredReplies)} / ${each(costs.modelUsd, costs.replies)} / ` +
    `${each(costs.providerChatUsd, costs.replies)} (model ${MODEL_PRICES.inputUsdPerMillion} / ` +
    `${MODEL_PRICES.cachedInputUsdPerMillion} / ${MODEL_PRICES.outputUsdPerMillion} USD per M ` +
    `tokens; provider's chat ${CHAT_PRICES.chatFeeUsd} USD a message besides the tokens)`
  );
}
