/**
 * The two engines that can write Pepa's text replies, as the desk uses them: how a turn is asked
 * for, how the stream's pieces are read, what a reply cost and what the desk's record keeps of a
 * finished one. The owner chooses one (`GATE_TEXT_ENGINE`, config.ts): the model engine (an
 * OpenAI-compatible endpoint at the model's own price, model-chat.ts) or the provider's chat
 * (provider-chat.ts, which adds its per-message fee).
 */
import * as v from 'valibot';
import { vCompletionUsage } from '../../../generated/model/valibot.gen';
import { GateConfigError, textEngineFrom, type TextEngineSetting } from '../floor/config';
import {
  modelPiece,
  modelRequest,
  openModelStream,
  usageCostUsd,
  worstTurnUsd,
} from './model-chat';
import {
  providerChatCost,
  openProviderChatStream,
  providerChatSettingsFrom,
  providerPiece,
  turnRequest,
  type ProviderChatSettings,
} from '../provider/provider-chat';
import type { SaidEntry } from './text-records';
import type { PieceReader, ReplyOutcome } from './reply/text-relay';
import type { TurnOpening, RetryClock } from '../floor/turn-retries';
import { replayedPiece, replayedStream } from './openings/opening-replay';

/** One turn as an engine is asked it. */
export interface EngineTurn {
  /** The visitor's words. */
  text: string;
  /** What the desk kept of the chat before, oldest first. */
  before: readonly SaidEntry[];
  /** The provider's chat the last reply was (the provider's chat engine continues it). */
  providerChat: string | null;
  /** The visitor's opaque key. */
  visitor: string;
}

export interface TextEngine {
  readonly kind: TextEngineSetting['kind'];
  open(turn: EngineTurn, signal: AbortSignal, clock: RetryClock): Promise<TurnOpening>;
  read: PieceReader;
  /**
   * The most this turn's reply can cost, from what is asked; null when the engine cannot bound it
   * (the owner's `GATE_CHAT_TURN_WORST_USD` is held instead).
   */
  worstUsd(turn: EngineTurn): number | null;
  /** What the reply cost in USD; null when it cannot be known (the worst case is charged). */
  cost(outcome: ReplyOutcome): Promise<number | null>;
  /** What the record keeps of a finished reply beside its words and place; null: nothing to. */
  finished(outcome: ReplyOutcome, at: number): Pick<SaidEntry, 'providerChat' | 'at'> | null;
}

/** The provider's chat: it keeps the history itself, and says the cost when asked. */
export function providerChatEngine(settings: ProviderChatSettings): TextEngine {
  return {
    kind: 'provider-chat',
    open: (turn, signal, clock) =>
      openProviderChatStream(
        settings,
        turnRequest(settings, turn.text, turn.providerChat),
        signal,
        clock,
      ),
    read: providerPiece,
    // The provider's fee and the tokens of a history it keeps itself: only the owner's bound.
    worstUsd: () => null,
    cost: async ({ replyId }) => (replyId ? providerChatCost(settings, replyId) : null),
    finished: ({ replyId }) => (replyId ? { providerChat: replyId } : null),
  };
}

/**
 * The model engine: the desk sends what was said before, the stream reports what was used, and
 * the record is the desk's own (what streamed through the gate is what a card may print).
 */
export function modelEngine(setting: Extract<TextEngineSetting, { kind: 'model' }>): TextEngine {
  const settings = { apiUrl: setting.apiUrl, apiKey: setting.apiKey, prices: setting.prices };
  const request = (turn: EngineTurn) =>
    modelRequest(
      turn.before.map((entry) => ({ who: entry.who, text: entry.text })),
      turn.text,
      turn.visitor,
    );
  return {
    kind: 'model',
    open: (turn, signal, clock) => openModelStream(settings, request(turn), signal, clock),
    read: modelPiece,
    worstUsd: (turn) => worstTurnUsd(request(turn), settings.prices),
    cost: async ({ usage }) => {
      const read = v.safeParse(vCompletionUsage, usage);
      return read.success ? usageCostUsd(read.output, settings.prices) : null;
    },
    finished: (_outcome, at) => ({ at }),
  };
}

/**
 * Pepa's kept reply to an opening (openings/opening-book.ts), given as `engine` would give a
 * reply: nothing is asked of anyone, it costs nothing, and the desk's record keeps it (its words
 * are what streamed) so a card can be made of it.
 */
export function recordEngine(engine: TextEngine, reply: string): TextEngine {
  return {
    kind: engine.kind,
    open: async () => ({ ok: true, body: replayedStream(reply), attempts: 0 }),
    read: replayedPiece,
    worstUsd: () => 0,
    cost: async () => 0,
    finished: (_outcome, at) => ({ at }),
  };
}

/** The engine the owner chose. */
export function engineFor(setting: TextEngineSetting, provider: ProviderChatSettings): TextEngine {
  return setting.kind === 'model' ? modelEngine(setting) : providerChatEngine(provider);
}

/**
 * The owner's engine from the Worker's environment; null, and said in the log, when its
 * settings are bad: text is then refused, never served unmetered.
 */
export function textEngineOf(env: Env): TextEngine | null {
  try {
    return engineFor(textEngineFrom(env), providerChatSettingsFrom(env));
  } catch (error) {
    if (!(error instanceof GateConfigError)) throw error;
    console.error(`gate: text is refused: ${error.message}`);
    return null;
  }
}
