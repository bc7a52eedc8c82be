/**
 * Text with Pepa: a desk holds the chats of the visitors of some networks, their limits, and a
 * grant of the day's budget drawn from the court. The site has TEXT_DESKS of them, a visitor's
 * desk chosen by their network (/24 or /48), so a visitor and their neighbours are counted in one
 * place and no reply costs the court a round trip: the court hears of text once a grant.
 *
 * A turn: the visitor's limits, the reply's worst case reserved against the grant, then the
 * owner's engine (text-engines.ts: the model's endpoint, or the provider's chat) streamed to the
 * visitor as the gate's own events (text-relay.ts) and settled at what the engine says it cost
 * (the usage the model's stream reported, at the owner's prices; the provider's cost for its
 * chat), or at the worst case when that cannot be known. A turn also counts against its
 * network's and its ASN's caps (caps/turn-caps.ts), an ASN's through its keeper (`AsnKeeper`).
 */
import { DurableObject } from 'cloudflare:workers';
import { textLimitsFrom, type TextLimits } from '../floor/config';
import { DAY_MS, nextUtcMidnight, secondsToNextUtcDay, utcDay } from '../floor/day';
import { Load, type LoadWindow } from '../floor/load';
import { receiveTurn, type DeskTurn, type WhenGone } from './desk-turn';
import { realClock, type TurnFailure, type RetryClock } from '../floor/turn-retries';
import { recordEngine, textEngineOf, type TextEngine } from './text-engines';
import { OpeningBook } from './openings/opening-book';
import {
  chatSoFar,
  createDeskTables,
  keptEntries,
  readSaid,
  refusalResponse,
  replyAt,
  type KeptReply,
  type TextRefusal,
} from './text-records';
import { DeskGrants, SETTLE_IDLE_MS, type GrantState } from './text-grants';
import { relayReply, type ReplyOutcome, type ReplySettled } from './reply/text-relay';
import { randomId, type Visitor } from '../floor/visitor';
import { deskCaps, type TakenTurn, type TurnCaps } from './caps/turn-caps';

export { AsnKeeper } from './caps/asn-keeper';
export { ReplyPlaces } from './reply-places';
import { giveReplyPlace, takeReplyPlace } from './reply-places';
export { deskFor, TEXT_DESKS } from '../floor/visitor';

/** A chat nobody wrote in for this long is forgotten. */
export const CHAT_IDLE_MS = 30 * 60_000;

type ChatRow = {
  id: string;
  visitor: string;
  created: number;
  last_at: number;
  turns: number;
  provider_chat: string | null;
  ended: number;
  said: string;
};

/** A reply under way: what settling it needs. */
interface ReplyTurn {
  controller: AbortController;
  chat: ChatRow;
  visitor: string;
  day: string;
  /** Null for a reply from the record of openings: nothing was reserved for it. */
  grant: GrantState | null;
  /** What was reserved for the reply (0 with no grant). */
  worst: number;
  text: string;
  engine: TextEngine;
  taken: TakenTurn;
}

export class TextDesk extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  private readonly inFlight = new Map<string, AbortController>();
  private readonly grants = new DeskGrants({
    draw: (grantId, need, want, grantSpent) =>
      this.court().drawText(this.ctx.id.name ?? 'desk', grantId, need, want, grantSpent),
    settle: ({ id, spent, turns, chats, fromRecord = 0 }) =>
      this.court().settleText(id, this.ctx.id.name ?? 'desk', spent, { turns, chats, fromRecord }),
    count: (counts) => this.court().countText(counts),
    store: (grants) => this.ctx.storage.put('grants', grants),
    waitUntil: (work) => this.ctx.waitUntil(work),
  });
  private readonly caps: TurnCaps;
  /** Openings answered today and Pepa's replies to them, given again to the same opening. */
  private readonly openings: OpeningBook = new OpeningBook(this.ctx.storage.sql, this.env);
  private closedDay: string | null = null;
  /** Every request the desk hears from the Worker and the court, per second. */
  private readonly requests = new Load();
  /** The retries' clock; tests may replace it. */
  clock: RetryClock = realClock;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    createDeskTables(this.sql);
    this.caps = deskCaps(ctx, env, () => this.limits);
    void ctx.blockConcurrencyWhile(async () => {
      this.grants.restore(await ctx.storage.get<GrantState[]>('grants'));
      this.closedDay = (await ctx.storage.get<string>('closedDay')) ?? null;
    });
  }

  /** Text's limits, read once (the variables change only with a deploy). */
  private cachedLimits: TextLimits | null = null;
  private get limits(): TextLimits {
    this.cachedLimits ??= textLimitsFrom(this.env);
    return this.cachedLimits;
  }

  /** The owner's engine, read once (the variables change only with a deploy). */
  private cachedEngine: TextEngine | null | undefined;
  private engine(): TextEngine | null {
    if (this.cachedEngine === undefined) this.cachedEngine = textEngineOf(this.env);
    return this.cachedEngine;
  }

  private chat(id: string): ChatRow | null {
    return this.sql.exec<ChatRow>(`SELECT * FROM chats WHERE id = ?`, id).toArray()[0] ?? null;
  }

  private day(visitor: string, day: string): { chats: number; turns: number; usd: number } {
    const row = this.sql
      .exec<{ chats: number; turns: number; usd: number }>(
        `SELECT chats, turns, usd FROM text_days WHERE visitor = ? AND day = ?`,
        visitor,
        day,
      )
      .toArray()[0];
    return row ?? { chats: 0, turns: 0, usd: 0 };
  }

  private addToDay(
    visitor: string,
    day: string,
    add: { chats?: number; turns?: number; usd?: number },
  ) {
    const { chats = 0, turns = 0, usd = 0 } = add;
    this.sql.exec(
      `INSERT INTO text_days (visitor, day, chats, turns, usd) VALUES (?, ?, ?, ?, MAX(0, ?))
       ON CONFLICT (visitor, day) DO UPDATE SET chats = chats + ?, turns = MAX(0, turns + ?),
       usd = MAX(0, usd + ?)`,
      visitor,
      day,
      chats,
      turns,
      usd,
      chats,
      turns,
      usd,
    );
  }

  private closed(now: number): TextRefusal | null {
    if (this.closedDay !== utcDay(now)) return null;
    return {
      code: 'court-closed',
      reopensAt: new Date(nextUtcMidnight(now)).toISOString(),
      retryAfterSeconds: secondsToNextUtcDay(now),
    };
  }

  /** A start the visitor would be refused anyway, before the bot check is asked. */
  async precheck(visitor: Visitor): Promise<TextRefusal | null> {
    const now = Date.now();
    this.requests.heard(now);
    if (!this.engine()) return { code: 'gate-unavailable', retryAfterSeconds: 60 };
    const closed = this.closed(now);
    if (closed) return closed;
    const today = this.day(visitor.key, utcDay(now));
    if (today.chats >= this.limits.startsPerDay || today.turns >= this.limits.turnsPerDay) {
      return {
        code: 'rate-limited',
        detail: 'You have talked with Pepa by text as much as one guest may today',
        retryAfterSeconds: secondsToNextUtcDay(now),
      };
    }
    return this.caps.spentDay(visitor, now);
  }

  /** Starts a chat for `visitor`: its id and how many messages it may send. */
  async open(visitor: Visitor): Promise<{ ok: true; id: string; turnsLeft: number } | TextRefusal> {
    // Heard once, by the precheck it begins with.
    const refusal = await this.precheck(visitor);
    if (refusal) return refusal;
    const now = Date.now();
    const id = randomId();
    this.sql.exec(
      `INSERT INTO chats (id, visitor, created, last_at) VALUES (?, ?, ?, ?)`,
      id,
      visitor.key,
      now,
      now,
    );
    this.addToDay(visitor.key, utcDay(now), { chats: 1 });
    // Counted, and nothing drawn: the budget is asked for when a message is sent.
    this.grants.chatStarted();
    await this.ensureAlarm();
    return { ok: true, id, turnsLeft: this.limits.turnsPerChat };
  }

  /** Ends a chat of `visitor` (a reply under way is stopped); nothing when it is not theirs. */
  async end(visitorKey: string, id: string): Promise<void> {
    this.requests.heard(Date.now());
    const chat = this.chat(id);
    if (!chat || chat.visitor !== visitorKey) return;
    this.inFlight.get(id)?.abort();
    this.sql.exec(`UPDATE chats SET ended = 1 WHERE id = ?`, id);
  }

  /** What was said in a chat of `visitorKey`, as the call it is handed to is given it. */
  async transcript(visitorKey: string, id: string): Promise<string | null> {
    this.requests.heard(Date.now());
    const chat = this.chat(id);
    if (!chat || chat.visitor !== visitorKey) return null;
    const said = readSaid(chat.said);
    return said.length > 0 ? chatSoFar(said) : null;
  }

  /** Pepa's finished reply `remark` in a chat of `visitorKey`, and what was said before, if kept. */
  async replyOf(visitorKey: string, id: string, remark: number): Promise<KeptReply | null> {
    this.requests.heard(Date.now());
    const chat = this.chat(id);
    return chat?.visitor === visitorKey ? replyAt(readSaid(chat.said), remark) : null;
  }

  /** For tests and the surge: what the desk holds. */
  async inspect() {
    return {
      grants: this.grants.list(),
      inFlight: this.inFlight.size,
      chats: this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM chats`).one().n,
      closedDay: this.closedDay,
    };
  }

  /** For the owner's report: the requests the desk heard per second (this ask is not one). */
  async load(): Promise<LoadWindow> {
    return this.requests.recent(Date.now());
  }

  /** Why the visitor's next message is refused now, if it is. */
  private limitFor(visitor: Visitor, chat: ChatRow | null, now: number): TextRefusal | null {
    const limits = this.limits;
    if (!chat || chat.visitor !== visitor.key || chat.ended) return { code: 'chat-gone' };
    if (chat.turns >= limits.turnsPerChat) {
      return {
        code: 'chat-gone',
        detail: `This chat has had its ${limits.turnsPerChat} messages: start a new one`,
      };
    }
    if (this.inFlight.has(chat.id)) return { code: 'reply-in-flight' };
    const closed = this.closed(now);
    if (closed) return closed;
    const perMinute = this.caps.perMinute(visitor, now);
    if (perMinute) return perMinute;
    const today = this.day(visitor.key, utcDay(now));
    if (
      today.turns >= limits.turnsPerDay ||
      today.usd + limits.turnWorstUsd > limits.visitorDailyUsd + 1e-9
    ) {
      return {
        code: 'rate-limited',
        detail: 'You have talked with Pepa by text as much as one guest may today',
        retryAfterSeconds: secondsToNextUtcDay(now),
      };
    }
    return null;
  }

  private court() {
    return this.env.COURT.getByName('court');
  }

  /** A reply's reservation settled at what it cost, in its grant and its visitor's day. */
  private async settleTurn(
    grant: GrantState | null,
    visitor: string,
    day: string,
    reserved: number,
    charged: number,
    counted: boolean,
  ): Promise<void> {
    await this.grants.settle(grant, reserved, charged, counted);
    this.addToDay(visitor, day, { usd: charged - reserved });
    await this.ensureAlarm();
  }

  private async ensureAlarm(): Promise<void> {
    if ((await this.ctx.storage.getAlarm()) === null) {
      await this.ctx.storage.setAlarm(Date.now() + SETTLE_IDLE_MS);
    }
  }

  /**
   * A turn: `{ visitor, chatId, text }`, judged here (a malformed one is a 400 problem); the
   * reply's event stream, or a problem. `whenGone` settles when the visitor leaves before it.
   */
  async turn(input: unknown, whenGone?: WhenGone): Promise<Response> {
    this.requests.heard(Date.now());
    return receiveTurn(input, whenGone, (turn, controller) => this.takeTurn(turn, controller));
  }

  private async takeTurn(
    { visitor, chatId, text }: DeskTurn,
    controller: AbortController,
  ): Promise<Response> {
    const now = Date.now();
    const day = utcDay(now);
    const chat = this.chat(chatId);
    const refusal = this.limitFor(visitor, chat, now);
    if (refusal || !chat) return refusalResponse(refusal ?? { code: 'chat-gone' });
    const chosen = this.engine();
    if (!chosen) return refusalResponse({ code: 'gate-unavailable', retryAfterSeconds: 60 });
    // Held from here: a second message to this chat is refused until the reply is settled.
    this.inFlight.set(chat.id, controller);
    const taken = await this.caps.take(visitor, now);
    if (!('day' in taken)) {
      this.inFlight.delete(chat.id);
      return refusalResponse(taken);
    }
    const before = readSaid(chat.said);
    const asked = { text, before, providerChat: chat.provider_chat, visitor: visitor.key };
    // The reply's worst case from what is asked, where the engine can bound it.
    const bound = chosen.worstUsd(asked) ?? this.limits.turnWorstUsd;
    // An opening Pepa has answered today is answered from her replies: no place, nothing reserved.
    const kept = this.openings.replyTo(text, chat.turns === 0 && chat.said === '[]', now);
    const grant = kept === null ? await this.hold(chat.id, bound, now) : null;
    if (grant && !('id' in grant)) {
      await this.caps.giveBack(taken, now);
      return refusalResponse(grant);
    }
    const engine = kept === null ? chosen : recordEngine(chosen, kept);
    this.caps.noteTurn(visitor, now);
    const worst = grant ? bound : 0;
    this.addToDay(visitor.key, day, { turns: 1, usd: worst });
    this.sql.exec(`UPDATE chats SET turns = turns + 1, last_at = ? WHERE id = ?`, now, chat.id);
    const opening = await engine.open(asked, controller.signal, this.clock);
    if (!opening.ok) {
      const unknown = opening.failure.kind === 'unknown';
      // Only an answer that says no reply was written costs nothing, and gives the turn back.
      await this.settleTurn(grant, visitor.key, day, worst, unknown ? worst : 0, unknown);
      if (!unknown) {
        this.addToDay(visitor.key, day, { turns: -1 });
        await this.caps.giveBack(taken, now);
        this.sql.exec(`UPDATE chats SET turns = MAX(0, turns - 1) WHERE id = ?`, chat.id);
      }
      this.inFlight.delete(chat.id);
      await giveReplyPlace(this.env, this.limits.maxConcurrentReplies, chat.id);
      return this.failureResponse(opening.failure, now);
    }
    const turn = { controller, chat, visitor: visitor.key, day, grant, worst, text, engine, taken };
    const stream = relayReply(opening.body, controller, engine.read, (outcome) =>
      this.settleReply(turn, outcome),
    );
    return new Response(stream, {
      status: 200,
      headers: {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache, no-transform',
      },
    });
  }

  /** A reply's place (the owner's limit on replies at once) and its worst case reserved. */
  private async hold(chatId: string, usd: number, now: number): Promise<GrantState | TextRefusal> {
    const limit = this.limits.maxConcurrentReplies;
    const place = await takeReplyPlace(this.env, limit, chatId, now);
    const held = place ? await this.grants.reserve(usd, now) : null;
    if (held && 'id' in held) return held;
    this.inFlight.delete(chatId);
    if (place) await giveReplyPlace(this.env, limit, chatId);
    return held ?? { code: 'text-busy', retryAfterSeconds: 5 };
  }

  private async failureResponse(failure: TurnFailure, now: number): Promise<Response> {
    if (failure.kind === 'billing') {
      // The provider will not bill chats: text stops for the day, here and at the court.
      this.closedDay = utcDay(now);
      await this.ctx.storage.put('closedDay', this.closedDay);
      await this.court().closeText();
      return refusalResponse(this.closed(now) ?? { code: 'court-closed' });
    }
    const retryAfterSeconds = failure.kind === 'busy' ? failure.retryAfterSeconds : 5;
    return refusalResponse({
      code: 'provider-error',
      detail: failure.status
        ? `Pepa's text service answered ${failure.status}`
        : "Pepa's text service did not answer",
      retryAfterSeconds,
    });
  }

  /** A reply ended: its cost settled, what was said recorded, its chat free for the next. */
  private async settleReply(turn: ReplyTurn, outcome: ReplyOutcome): Promise<ReplySettled> {
    const { how, said } = outcome;
    const worst = turn.worst;
    turn.controller.abort();
    const cost = await turn.engine.cost(outcome);
    const counted = how !== 'failed';
    await this.settleTurn(turn.grant, turn.visitor, turn.day, worst, cost ?? worst, counted);
    if (!counted) {
      this.addToDay(turn.visitor, turn.day, { turns: -1 });
      await this.caps.giveBack(turn.taken, Date.now());
    }
    const row = this.chat(turn.chat.id);
    const remark = row?.turns ?? 0;
    if (row) {
      const entries = readSaid(row.said);
      entries.push({ who: 'visitor', text: turn.text });
      const kept = how === 'done' ? turn.engine.finished(outcome, Date.now()) : null;
      if (kept && turn.grant && row.said === '[]') this.openings.keep(turn.text, said, Date.now());
      if (said) entries.push({ who: 'pepa', text: said, ...(kept ? { remark, ...kept } : {}) });
      this.sql.exec(
        `UPDATE chats SET said = ?, provider_chat = COALESCE(?, provider_chat),
         turns = MAX(0, turns - ?), last_at = ? WHERE id = ?`,
        JSON.stringify(keptEntries(entries)),
        how === 'done' && turn.engine.kind === 'provider-chat' ? outcome.replyId : null,
        counted ? 0 : 1,
        Date.now(),
        turn.chat.id,
      );
    }
    this.inFlight.delete(turn.chat.id);
    if (turn.grant) await giveReplyPlace(this.env, this.limits.maxConcurrentReplies, turn.chat.id);
    const turnsLeft = this.limits.turnsPerChat - (this.chat(turn.chat.id)?.turns ?? 0);
    return { turnsLeft: Math.max(0, turnsLeft), remark };
  }

  /**
   * Settles the grants gone idle or old (what their replies cost goes to the court, the rest of
   * their reservation back to the day's budget), and forgets chats idle past their time.
   */
  override async alarm(): Promise<void> {
    const now = Date.now();
    await this.grants.settleDue(now);
    this.sql.exec(`DELETE FROM chats WHERE last_at < ?`, now - CHAT_IDLE_MS);
    await this.caps.sweep(now);
    this.sql.exec(`DELETE FROM text_days WHERE day < ?`, utcDay(now - DAY_MS));
    const open = this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM chats`).one().n;
    if (this.grants.open || open > 0 || this.caps.open) {
      await this.ctx.storage.setAlarm(now + SETTLE_IDLE_MS);
    }
  }
}
