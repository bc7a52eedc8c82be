/**
 * Text with Pepa: a desk holds the chats of the visitors of some networks, their limits, and a
 * grant of the day's budget drawn from the court. The site has TEXT_DESKS of them, a visitor's
 * desk chosen by their network (/24 or /48), so a visitor and their neighbours are counted in one
 * place and no reply costs the court a round trip: the court hears of text once a grant.
 *
 * A turn: the visitor's limits (messages per chat, per minute, per day; their network's per
 * minute; their money for the day), the reply's worst case reserved against the grant, then the
 * provider's `POST /chat` streamed through to the visitor as the gate's own events, and settled
 * at the provider's own cost for it (`GET /chat/{id}`), or at its worst case when that cannot be
 * read. A visitor who closes the stream aborts the provider's request at once.
 */
import { DurableObject } from 'cloudflare:workers';
import type { ChatStreamEvent } from '../../generated/gate/types.gen';
import { textLimitsFrom, type TextLimits } from './config';
import { cents, nextUtcMidnight, utcDay } from './court-money';
import { EventStreamReader, eventOf } from './event-stream';
import { problem, STATUS, type ProblemCode } from './problem';
import {
  chatCost,
  openChatStream,
  realClock,
  turnRequest,
  type ChatFailure,
  type ChatSettings,
  type RetryClock,
} from './provider-chat';
import { randomId, type Visitor } from './visitor';

/** How many desks share the site's text. */
export const TEXT_DESKS = 32;
/** A chat nobody wrote in for this long is forgotten. */
export const CHAT_IDLE_MS = 30 * 60_000;
/** What a chat's record keeps of what was said: its last lines, and no more text than this. */
export const KEPT_LINES = 24;
export const KEPT_CHARS = 6000;
/** A grant is settled when its desk has been idle this long, or when it is this old. */
const SETTLE_IDLE_MS = 30_000;
const GRANT_ROTATE_MS = 5 * 60_000;
/** A grant is drawn for this many replies' worst case, and grows while they go fast. */
const SLICE_TURNS = 25;
const SLICE_MAX_TURNS = 400;
/** The provider may pause this long between two pieces of a reply before it is given up. */
export const STREAM_IDLE_MS = 20_000;
/** How long a desk repeats the court's "closed" answer before asking again. */
export const CLOSED_MEMORY_MS = 30_000;
/** While the provider is quiet, the stream says so this often (and finds a visitor gone). */
export const HEARTBEAT_MS = 1000;
/** A reply's place (with the owner's limit on replies at once) is held at most this long. */
const REPLY_PLACE_MS = 120_000;

/** The desk of a visitor: by their network, so their neighbours share it. */
export function deskFor(visitor: Visitor): string {
  const network = visitor.networks[0] ?? visitor.key;
  const hex = /[0-9a-f]{2}/.exec(network.replace(/^[a-z0-9]+:/, ''))?.[0] ?? '00';
  return `desk-${parseInt(hex, 16) % TEXT_DESKS}`;
}

export interface TextRefusal {
  code: ProblemCode;
  detail?: string;
  retryAfterSeconds?: number;
  reopensAt?: string;
}

export function refusalResponse(refusal: TextRefusal): Response {
  const { code, ...extra } = refusal;
  return problem(code, extra);
}

/** One line of a chat, as the gate recorded it. */
export interface SaidLine {
  who: 'visitor' | 'pepa';
  text: string;
}

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

interface GrantState {
  id: string;
  day: string;
  usd: number;
  /** Reserved for replies under way plus spent. */
  committed: number;
  spent: number;
  turns: number;
  chats: number;
  inFlight: number;
  drawnAt: number;
  usedAt: number;
}

/** What was said, kept within its bounds: the newest lines, the oldest cut first. */
export function keptLines(lines: readonly SaidLine[]): SaidLine[] {
  const kept = lines.slice(-KEPT_LINES);
  let chars = kept.reduce((sum, line) => sum + line.text.length, 0);
  while (chars > KEPT_CHARS && kept.length > 1) chars -= kept.shift()?.text.length ?? 0;
  const [first] = kept;
  if (first && first.text.length > KEPT_CHARS) first.text = first.text.slice(-KEPT_CHARS);
  return kept;
}

/** What was said, as the call's assistant is given it. */
export function chatSoFar(lines: readonly SaidLine[]): string {
  return lines.map((line) => `${line.who === 'pepa' ? 'Pepa' : 'Guest'}: ${line.text}`).join('\n');
}

function secondsToMidnight(now: number): number {
  return Math.max(1, Math.ceil((nextUtcMidnight(now) - now) / 1000));
}

export class TextDesk extends DurableObject<Env> {
  private readonly sql: SqlStorage;
  private readonly inFlight = new Map<string, AbortController>();
  private grants: GrantState[] = [];
  private closedDay: string | null = null;
  /** Draws from the court, one at a time. */
  private drawing: Promise<unknown> = Promise.resolve();
  /**
   * The court's last "closed" answer to a draw, repeated for a while without asking again: on a
   * spent day every reply would otherwise cost the court a request.
   */
  private closedAnswer: { until: number; refusal: TextRefusal } | null = null;
  private sliceTurns = SLICE_TURNS;
  /** The retries' clock; tests may replace it. */
  clock: RetryClock = realClock;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.sql = ctx.storage.sql;
    this.sql.exec(`CREATE TABLE IF NOT EXISTS chats (id TEXT PRIMARY KEY, visitor TEXT NOT NULL,
      created INTEGER NOT NULL, last_at INTEGER NOT NULL, turns INTEGER NOT NULL DEFAULT 0,
      provider_chat TEXT, ended INTEGER NOT NULL DEFAULT 0, said TEXT NOT NULL DEFAULT '[]')`);
    this.sql.exec(`CREATE INDEX IF NOT EXISTS chats_by_time ON chats (last_at)`);
    this.sql.exec(`CREATE TABLE IF NOT EXISTS turns (key TEXT NOT NULL, at INTEGER NOT NULL)`);
    this.sql.exec(`CREATE INDEX IF NOT EXISTS turns_by_key ON turns (key, at)`);
    this.sql.exec(`CREATE TABLE IF NOT EXISTS text_days (visitor TEXT NOT NULL, day TEXT NOT NULL,
      chats INTEGER NOT NULL DEFAULT 0, turns INTEGER NOT NULL DEFAULT 0,
      usd REAL NOT NULL DEFAULT 0, PRIMARY KEY (visitor, day))`);
    void ctx.blockConcurrencyWhile(async () => {
      this.grants = (await ctx.storage.get<GrantState[]>('grants')) ?? [];
      this.closedDay = (await ctx.storage.get<string>('closedDay')) ?? null;
      // Replies under way died with the desk: their reservations stay in their grants, which
      // are settled (or charged in full by the court) as usual.
      for (const grant of this.grants) grant.inFlight = 0;
    });
  }

  private get limits(): TextLimits {
    return textLimitsFrom(this.env);
  }

  private settings(): ChatSettings {
    return {
      privateKey: this.env.VAPI_PRIVATE_KEY ?? '',
      assistantId: this.env.VAPI_ASSISTANT_ID ?? '',
      apiUrl: this.env.VAPI_API_URL,
    };
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
      retryAfterSeconds: secondsToMidnight(now),
    };
  }

  /** A start the visitor would be refused anyway, before the bot check is asked. */
  async precheck(visitor: Visitor): Promise<TextRefusal | null> {
    const now = Date.now();
    const closed = this.closed(now);
    if (closed) return closed;
    const today = this.day(visitor.key, utcDay(now));
    if (today.chats >= this.limits.startsPerDay || today.turns >= this.limits.turnsPerDay) {
      return {
        code: 'rate-limited',
        detail: 'You have talked with Pepa by text as much as one guest may today',
        retryAfterSeconds: secondsToMidnight(now),
      };
    }
    return null;
  }

  /** Starts a chat for `visitor`: its id and how many messages it may send. */
  async open(visitor: Visitor): Promise<{ ok: true; id: string; turnsLeft: number } | TextRefusal> {
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
    const grant = this.grants.at(-1);
    if (grant) grant.chats += 1;
    else this.pendingChats += 1;
    // A first message follows: the grant it will need is drawn while the visitor types.
    if (!grant || grant.day !== utcDay(now) || grant.usd - grant.committed < grant.usd / 2) {
      this.ctx.waitUntil(this.draw(this.limits.turnWorstUsd, now).catch(() => undefined));
    }
    await this.ensureAlarm();
    return { ok: true, id, turnsLeft: this.limits.turnsPerChat };
  }

  /** Chats started while no grant was open, counted with the next one. */
  private pendingChats = 0;

  /** Ends a chat of `visitor` (a reply under way is stopped); nothing when it is not theirs. */
  async end(visitorKey: string, id: string): Promise<void> {
    const chat = this.chat(id);
    if (!chat || chat.visitor !== visitorKey) return;
    this.inFlight.get(id)?.abort();
    this.sql.exec(`UPDATE chats SET ended = 1 WHERE id = ?`, id);
  }

  /** What was said in a chat of `visitorKey`, as the call it is handed to is given it. */
  async transcript(visitorKey: string, id: string): Promise<string | null> {
    const chat = this.chat(id);
    if (!chat || chat.visitor !== visitorKey) return null;
    const lines = JSON.parse(chat.said) as SaidLine[];
    return lines.length > 0 ? chatSoFar(lines) : null;
  }

  /** For tests and the surge: what the desk holds. */
  async inspect() {
    return {
      grants: this.grants.map((grant) => ({ ...grant })),
      inFlight: this.inFlight.size,
      chats: this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM chats`).one().n,
      closedDay: this.closedDay,
    };
  }

  /** The turns `key` took within the last minute, and when the oldest of them was. */
  private turnsInMinute(key: string, now: number): { count: number; oldest: number | null } {
    const row = this.sql
      .exec<{ count: number; oldest: number | null }>(
        `SELECT COUNT(*) AS count, MIN(at) AS oldest FROM turns WHERE key = ? AND at > ?`,
        key,
        now - 60_000,
      )
      .one();
    return { count: row.count, oldest: row.oldest };
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
    const perMinute: [string, number][] = [[visitor.key, limits.turnsPerMinute]];
    const network = visitor.networks.find((key) => key.startsWith('net:'));
    if (network) perMinute.push([network, limits.networkTurnsPerMinute]);
    for (const [key, cap] of perMinute) {
      const { count, oldest } = this.turnsInMinute(key, now);
      if (count >= cap) {
        return {
          code: 'rate-limited',
          detail: 'Pepa needs a moment between messages',
          retryAfterSeconds: Math.max(1, Math.ceil(((oldest ?? now) + 60_000 - now) / 1000)),
        };
      }
    }
    const today = this.day(visitor.key, utcDay(now));
    if (
      today.turns >= limits.turnsPerDay ||
      today.usd + limits.turnWorstUsd > limits.visitorDailyUsd + 1e-9
    ) {
      return {
        code: 'rate-limited',
        detail: 'You have talked with Pepa by text as much as one guest may today',
        retryAfterSeconds: secondsToMidnight(now),
      };
    }
    return null;
  }

  /**
   * Holds `usd` against the newest grant of today. A grant running low is topped up from the
   * court in the background, so a reply waits for the court only when its grant cannot hold it.
   * The grant held, or the court's refusal.
   */
  private async reserve(usd: number, now: number): Promise<GrantState | TextRefusal> {
    const day = utcDay(now);
    const holds = (grant: GrantState | undefined) =>
      grant !== undefined && grant.day === day && grant.usd - grant.committed + 1e-9 >= usd;
    let grant = this.grants.at(-1);
    if (!holds(grant)) {
      const drawn = await this.draw(usd, now);
      if (!('id' in drawn)) return drawn;
      grant = drawn;
    }
    if (!grant) return { code: 'court-closed' };
    grant.committed = cents(grant.committed + usd);
    grant.inFlight += 1;
    grant.usedAt = Date.now();
    await this.ctx.storage.put('grants', this.grants);
    // Half the grant spoken for: the next slice is asked for now, while replies go on.
    if (grant.usd - grant.committed < grant.usd / 2) {
      this.ctx.waitUntil(this.draw(usd, now).catch(() => undefined));
    }
    return grant;
  }

  /**
   * Draws (or tops up) today's grant from the court, one draw at a time: a draw already under
   * way is waited for rather than doubled. The grant, or the court's refusal.
   */
  private draw(need: number, now: number): Promise<GrantState | TextRefusal> {
    const run = async (): Promise<GrantState | TextRefusal> => {
      const day = utcDay(now);
      const current = this.grants.at(-1);
      const holds =
        current && current.day === day && current.usd - current.committed + 1e-9 >= need;
      if (!holds && this.closedAnswer && Date.now() < this.closedAnswer.until) {
        return this.closedAnswer.refusal;
      }
      if (current && current.day === day && current.usd - current.committed >= current.usd / 2) {
        if (current.usd - current.committed + 1e-9 >= need) return current;
      }
      const reuse =
        current && current.day === day && now - current.drawnAt < GRANT_ROTATE_MS ? current : null;
      // A grant topped up within the last half minute ran out fast: the next slice is larger.
      if (reuse && Date.now() - reuse.drawnAt < 30_000) {
        this.sliceTurns = Math.min(SLICE_MAX_TURNS, this.sliceTurns * 2);
      }
      const want = Math.max(need, this.sliceTurns * this.limits.turnWorstUsd);
      const answer = await this.court().drawText(
        this.ctx.id.name ?? 'desk',
        reuse?.id ?? null,
        need,
        want,
      );
      if (!answer.ok) {
        if (current && current.day === day && current.usd - current.committed + 1e-9 >= need) {
          return current;
        }
        const refusal: TextRefusal = {
          code: 'court-closed',
          reopensAt: answer.reopensAt,
          retryAfterSeconds: answer.retryAfterSeconds,
        };
        this.closedAnswer = { until: Date.now() + CLOSED_MEMORY_MS, refusal };
        return refusal;
      }
      this.closedAnswer = null;
      if (reuse && reuse.id === answer.grantId) {
        reuse.usd = cents(reuse.usd + answer.usd);
        reuse.drawnAt = Date.now();
        await this.ctx.storage.put('grants', this.grants);
        return reuse;
      }
      const grant: GrantState = {
        id: answer.grantId,
        day,
        usd: answer.usd,
        committed: 0,
        spent: 0,
        turns: 0,
        chats: this.pendingChats,
        inFlight: 0,
        drawnAt: Date.now(),
        usedAt: Date.now(),
      };
      this.pendingChats = 0;
      this.grants.push(grant);
      await this.ctx.storage.put('grants', this.grants);
      return grant;
    };
    const drawn = this.drawing.then(run, run);
    this.drawing = drawn.catch(() => undefined);
    return drawn;
  }

  private court() {
    return this.env.COURT.getByName('court');
  }

  /** A reply's reservation settled at what it cost. */
  private async settleTurn(
    grant: GrantState,
    visitor: string,
    day: string,
    reserved: number,
    charged: number,
    counted: boolean,
  ): Promise<void> {
    grant.committed = cents(grant.committed - reserved + charged);
    grant.spent = cents(grant.spent + charged);
    grant.inFlight = Math.max(0, grant.inFlight - 1);
    grant.usedAt = Date.now();
    if (counted) grant.turns += 1;
    this.addToDay(visitor, day, { usd: charged - reserved });
    await this.ctx.storage.put('grants', this.grants);
    await this.ensureAlarm();
  }

  private async ensureAlarm(): Promise<void> {
    if ((await this.ctx.storage.getAlarm()) === null) {
      await this.ctx.storage.setAlarm(Date.now() + SETTLE_IDLE_MS);
    }
  }

  /** A turn: `POST` with `{ visitor, chatId, text }`; the reply's event stream or a problem. */
  override async fetch(request: Request): Promise<Response> {
    const { visitor, chatId, text } = (await request.json()) as {
      visitor: Visitor;
      chatId: string;
      text: string;
    };
    const now = Date.now();
    const day = utcDay(now);
    const limits = this.limits;
    const chat = this.chat(chatId);
    const refusal = this.limitFor(visitor, chat, now);
    if (refusal || !chat) return refusalResponse(refusal ?? { code: 'chat-gone' });
    const controller = new AbortController();
    // The visitor gone (their request cancelled): the provider's request ends with it.
    request.signal.addEventListener('abort', () => controller.abort(), { once: true });
    // Held from here: a second message to this chat is refused until the reply is settled.
    this.inFlight.set(chat.id, controller);
    const place = await this.takeReplyPlace(chat.id, now);
    if (!place) {
      this.inFlight.delete(chat.id);
      return refusalResponse({ code: 'text-busy', retryAfterSeconds: 5 });
    }
    const grant = await this.reserve(limits.turnWorstUsd, now);
    if (!('id' in grant)) {
      this.inFlight.delete(chat.id);
      await this.giveReplyPlace(chat.id);
      return refusalResponse(grant);
    }
    const network = visitor.networks.find((key) => key.startsWith('net:'));
    for (const key of network ? [visitor.key, network] : [visitor.key]) {
      this.sql.exec(`INSERT INTO turns (key, at) VALUES (?, ?)`, key, now);
    }
    this.addToDay(visitor.key, day, { turns: 1, usd: limits.turnWorstUsd });
    this.sql.exec(`UPDATE chats SET turns = turns + 1, last_at = ? WHERE id = ?`, now, chat.id);
    const worst = limits.turnWorstUsd;
    const opening = await openChatStream(
      this.settings(),
      turnRequest(this.settings(), text, chat.provider_chat),
      controller.signal,
      this.clock,
    );
    if (!opening.ok) {
      const unknown = opening.failure.kind === 'unknown';
      // Only an answer that says no reply was written costs nothing, and gives the turn back.
      await this.settleTurn(grant, visitor.key, day, worst, unknown ? worst : 0, unknown);
      if (!unknown) {
        this.addToDay(visitor.key, day, { turns: -1 });
        this.sql.exec(`UPDATE chats SET turns = MAX(0, turns - 1) WHERE id = ?`, chat.id);
      }
      this.inFlight.delete(chat.id);
      await this.giveReplyPlace(chat.id);
      return this.failureResponse(opening.failure, now);
    }
    const stream = this.relay(opening.body, {
      controller,
      chat,
      visitor: visitor.key,
      day,
      grant,
      text,
    });
    return new Response(stream, {
      status: 200,
      headers: {
        'content-type': 'text/event-stream',
        'cache-control': 'no-cache, no-transform',
      },
    });
  }

  private async failureResponse(failure: ChatFailure, now: number): Promise<Response> {
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

  /**
   * The provider's events, read as they come and passed on as the gate's own: Pepa's words,
   * then `done` (or `failed`). Settles the reply when it ends, however it ends.
   */
  private relay(
    upstream: ReadableStream<Uint8Array>,
    turn: {
      controller: AbortController;
      chat: ChatRow;
      visitor: string;
      day: string;
      grant: GrantState;
      text: string;
    },
  ): ReadableStream<Uint8Array> {
    const reader = upstream.getReader();
    const decoder = new TextDecoder();
    const encoder = new TextEncoder();
    const events = new EventStreamReader();
    const worst = this.limits.turnWorstUsd;
    let providerChat: string | null = null;
    let said = '';
    let finishing: Promise<number> | null = null;
    const finish = (how: 'done' | 'failed' | 'stopped'): Promise<number> => {
      finishing ??= settle(how);
      return finishing;
    };
    const settle = async (how: 'done' | 'failed' | 'stopped'): Promise<number> => {
      turn.controller.abort();
      const cost = providerChat ? await chatCost(this.settings(), providerChat) : null;
      const counted = how !== 'failed';
      await this.settleTurn(turn.grant, turn.visitor, turn.day, worst, cost ?? worst, counted);
      if (!counted) {
        this.addToDay(turn.visitor, turn.day, { turns: -1 });
      }
      const row = this.chat(turn.chat.id);
      if (row) {
        const lines = JSON.parse(row.said) as SaidLine[];
        lines.push({ who: 'visitor', text: turn.text });
        if (said) lines.push({ who: 'pepa', text: said });
        this.sql.exec(
          `UPDATE chats SET said = ?, provider_chat = COALESCE(?, provider_chat),
           turns = MAX(0, turns - ?), last_at = ? WHERE id = ?`,
          JSON.stringify(keptLines(lines)),
          how === 'done' ? providerChat : null,
          counted ? 0 : 1,
          Date.now(),
          turn.chat.id,
        );
      }
      this.inFlight.delete(turn.chat.id);
      await this.giveReplyPlace(turn.chat.id);
      return Math.max(0, this.limits.turnsPerChat - (this.chat(turn.chat.id)?.turns ?? 0));
    };
    /** The provider's next piece, or 'idle' when none came in time; a read once begun is kept. */
    let pending: Promise<ReadableStreamReadResult<Uint8Array>> | null = null;
    let quietSince = Date.now();
    const readWithin = async (): Promise<
      ReadableStreamReadResult<Uint8Array> | 'idle' | 'tick'
    > => {
      pending ??= reader.read();
      let timer: number | undefined;
      const tick = new Promise<'tick'>((done) => {
        timer = setTimeout(() => done('tick'), HEARTBEAT_MS);
      });
      try {
        const next = await Promise.race([pending, tick]);
        if (next === 'tick') return Date.now() - quietSince >= STREAM_IDLE_MS ? 'idle' : 'tick';
        pending = null;
        quietSince = Date.now();
        return next;
      } finally {
        if (timer !== undefined) clearTimeout(timer);
      }
    };
    const send = (out: ReadableStreamDefaultController<Uint8Array>, event: ChatStreamEvent) =>
      out.enqueue(encoder.encode(eventOf(event)));
    const failed = (): ChatStreamEvent => ({
      type: 'failed',
      problem: {
        code: 'provider-error',
        title: 'The voice service could not create the call',
        status: STATUS['provider-error'],
        detail: "Pepa's text service broke off her reply",
      },
    });
    return new ReadableStream<Uint8Array>({
      pull: async (out) => {
        for (;;) {
          let chunk: Awaited<ReturnType<typeof readWithin>>;
          try {
            chunk = await readWithin();
          } catch {
            if (turn.controller.signal.aborted) {
              // Stopped: the visitor left, or ended the chat.
              await finish('stopped');
              out.close();
              return;
            }
            chunk = 'idle';
          }
          if (chunk === 'tick') {
            // A comment while Pepa thinks: a visitor who left is found at the next write.
            out.enqueue(encoder.encode(': writing\n\n'));
            return;
          }
          if (chunk === 'idle') {
            await reader.cancel().catch(() => undefined);
            await finish('failed');
            send(out, failed());
            out.close();
            return;
          }
          const datas = chunk.done
            ? [...events.feed(decoder.decode()), ...events.end()]
            : events.feed(decoder.decode(chunk.value, { stream: true }));
          let sent = false;
          let ended = chunk.done;
          for (const data of datas) {
            if (data.trim() === '[DONE]') {
              ended = true;
              continue;
            }
            let piece: { id?: unknown; delta?: unknown; sessionId?: unknown };
            try {
              piece = JSON.parse(data) as typeof piece;
            } catch {
              continue;
            }
            if (typeof piece.id === 'string' && piece.id) providerChat ??= piece.id;
            if (typeof piece.delta === 'string' && piece.delta) {
              said += piece.delta;
              send(out, { type: 'words', text: piece.delta });
              sent = true;
            }
          }
          if (ended) {
            await reader.cancel().catch(() => undefined);
            const outcome = said ? 'done' : 'failed';
            const turnsLeft = await finish(outcome);
            send(out, outcome === 'done' ? { type: 'done', turnsLeft } : failed());
            out.close();
            return;
          }
          if (sent) return;
        }
      },
      cancel: async () => {
        // The visitor stopped the reply or left: the provider's request ends now.
        turn.controller.abort();
        await reader.cancel().catch(() => undefined);
        await finish('stopped');
      },
    });
  }

  private async takeReplyPlace(chatId: string, now: number): Promise<boolean> {
    const limit = this.limits.maxConcurrentReplies;
    if (limit === 0) return true;
    return this.env.REPLY_PLACES.getByName('replies').take(chatId, limit, now + REPLY_PLACE_MS);
  }

  private async giveReplyPlace(chatId: string): Promise<void> {
    if (this.limits.maxConcurrentReplies === 0) return;
    await this.env.REPLY_PLACES.getByName('replies').give(chatId);
  }

  /**
   * Settles the grants gone idle or old (what their replies cost goes to the court, the rest of
   * their reservation back to the day's budget), and forgets chats idle past their time.
   */
  override async alarm(): Promise<void> {
    const now = Date.now();
    const newest = this.grants.at(-1);
    const due = this.grants.filter((grant) => {
      const idle = now - grant.usedAt >= SETTLE_IDLE_MS;
      const old = now - grant.drawnAt >= GRANT_ROTATE_MS || grant.day !== utcDay(now);
      return grant.inFlight === 0 && (idle || old || grant !== newest);
    });
    // Out of use before the court is asked: no reply may reserve against a grant being settled
    // (one that did would be spent unmetered). A settlement that fails leaves the grant to the
    // court, which charges it in full when it expires.
    this.grants = this.grants.filter((grant) => !due.includes(grant));
    await this.ctx.storage.put('grants', this.grants);
    for (const grant of due) {
      await this.court().settleText(
        grant.id,
        this.ctx.id.name ?? 'desk',
        grant.spent,
        grant.turns,
        grant.chats,
      );
    }
    this.sql.exec(`DELETE FROM chats WHERE last_at < ?`, now - CHAT_IDLE_MS);
    this.sql.exec(`DELETE FROM turns WHERE at < ?`, now - 60_000);
    this.sql.exec(`DELETE FROM text_days WHERE day < ?`, utcDay(now - 86_400_000));
    const open = this.sql.exec<{ n: number }>(`SELECT COUNT(*) AS n FROM chats`).one().n;
    if (this.grants.length > 0 || open > 0 || this.pendingChats > 0) {
      await this.ctx.storage.setAlarm(now + SETTLE_IDLE_MS);
    }
  }
}

/** Replies being written at once, when the owner sets a limit for them (as call places are). */
export class ReplyPlaces extends DurableObject<Env> {
  private readonly held = new Map<string, number>();

  take(chatId: string, limit: number, until: number): boolean {
    const now = Date.now();
    for (const [id, expires] of this.held) if (expires < now) this.held.delete(id);
    if (this.held.size >= limit) return false;
    this.held.set(chatId, until);
    return true;
  }

  give(chatId: string): void {
    this.held.delete(chatId);
  }

  count(): number {
    return this.held.size;
  }
}
