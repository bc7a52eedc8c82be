/**
 * The court: one Durable Object for the whole site, so there is one count of calls at once, one
 * line and one budget. It runs the rules of court-state.ts against the clock, creates admitted
 * calls with the provider, keeps what costs money in storage, and sweeps on an alarm: tickets
 * that stopped checking in, places held past a call's limit, and calls the provider never
 * reported.
 */
import { DurableObject } from 'cloudflare:workers';
import type { CourtCall, Ticket } from '../../../generated/gate/types.gen';
import { CourtState, type CourtSnapshot, type Decision, type Score } from './court-state';
import type { CallEvent } from './court-leases';
import type { StoredTicket } from './line';
import { limitsFrom } from '../floor/config';
import { Load } from '../floor/load';
import {
  createCourtCall,
  findCallByLease,
  lookUpCall,
  ProviderFailure,
  type ProviderSettings,
} from '../provider/provider';
import type { ProblemCode } from '../floor/problem';
import { paceReport } from './court-pace';
import { JUDGE_HOLDER, type Draw, type TextCounts } from './court-text';
import { utcDay } from '../floor/day';
import { randomId, type Visitor } from '../floor/visitor';
import { SqlLedger } from './visitor-limits';

/** What the court answers the Worker with; the Worker turns it into the HTTP answer. */
export type CourtAnswer =
  | { kind: 'admitted'; call: CourtCall; waitedSeconds: number }
  | {
      kind: 'waiting';
      /** The ticket as the line gave it; the Worker adds its secret. */
      ticket: Omit<Ticket, 'secret'>;
      retryAfterSeconds: number;
      /** The ticket's turn has come and its place is held for the visitor's tap. */
      offered: boolean;
    }
  | {
      kind: 'refused';
      code: ProblemCode;
      retryAfterSeconds?: number;
      reopensAt?: string;
      detail?: string;
    };

/** The sweep runs this often while anyone waits or talks. */
export const SWEEP_MS = 2000;
/** The backstop asks the provider about this many calls per sweep at most. */
const PROBES_PER_SWEEP = 5;

const KEYS = {
  leases: 'leases',
  pending: 'pending',
  days: 'days',
  typical: 'typical',
  text: 'text',
} as const;

/** A visitor's chat, handed to the call they are admitted to: its desk and id. */
export interface ChatHandover {
  desk: string;
  id: string;
}

export class Court extends DurableObject<Env> {
  private state!: CourtState;
  private readonly now: () => number = () => Date.now();
  /** Every request the court hears from the Worker, per second. */
  private readonly load = new Load();

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    void ctx.blockConcurrencyWhile(async () => {
      const stored = await ctx.storage.get([
        KEYS.leases,
        KEYS.pending,
        KEYS.days,
        KEYS.typical,
        KEYS.text,
      ]);
      const calls = await ctx.storage.list<CourtSnapshot['calls'][number][1]>({ prefix: 'call:' });
      const snapshot: CourtSnapshot | undefined = stored.size
        ? {
            leases: (stored.get(KEYS.leases) as CourtSnapshot['leases'] | undefined) ?? [],
            pending: (stored.get(KEYS.pending) as CourtSnapshot['pending'] | undefined) ?? [],
            days: (stored.get(KEYS.days) as CourtSnapshot['days'] | undefined) ?? [],
            typicalCallSeconds: (stored.get(KEYS.typical) as number | undefined) ?? 90,
            text: stored.get(KEYS.text) as CourtSnapshot['text'],
            calls: [...calls.entries()].map(([key, call]) => [key.slice('call:'.length), call]),
          }
        : undefined;
      this.state = new CourtState(
        limitsFrom(env),
        randomId,
        new SqlLedger(ctx.storage.sql),
        snapshot,
      );
      // The line outlives a restart of the court (a deploy, an eviction): everyone keeps their
      // place, and gets a fresh deadline to check in by, as a hidden page would.
      const tickets = await ctx.storage.list<StoredTicket>({ prefix: 'ticket:' });
      if (tickets.size > 0) {
        const now = Date.now();
        const grace = this.state.limits.hiddenCheckInGraceSeconds * 1000;
        this.state.line.restore([...tickets.values()], now + grace, now);
        await ctx.storage.setAlarm(now + SWEEP_MS);
      }
    });
  }

  private provider(): ProviderSettings {
    return {
      privateKey: this.env.VAPI_PRIVATE_KEY ?? '',
      assistantId: this.env.VAPI_ASSISTANT_ID ?? '',
      apiUrl: this.env.VAPI_API_URL,
      maxCallSeconds: this.state.limits.maxCallSeconds,
    };
  }

  /** Writes what costs money (places, reservations, the day's totals) before answering. */
  private async persist(): Promise<void> {
    const snapshot = this.state.snapshot(this.now());
    const entries: Record<string, unknown> = {
      [KEYS.leases]: snapshot.leases,
      [KEYS.pending]: snapshot.pending,
      [KEYS.days]: snapshot.days,
      [KEYS.typical]: snapshot.typicalCallSeconds,
      [KEYS.text]: snapshot.text,
    };
    const forgotten: string[] = [];
    for (const [id, call] of this.state.takeChangedCalls()) {
      if (call) entries[`call:${id}`] = call;
      else forgotten.push(`call:${id}`);
    }
    await this.ctx.storage.put(entries);
    for (let i = 0; i < forgotten.length; i += 128) {
      await this.ctx.storage.delete(forgotten.slice(i, i + 128));
    }
    await this.saveLine();
  }

  /** Stores the tickets given and forgets the ones gone (two writes a ticket, none a check-in). */
  private async saveLine(): Promise<void> {
    const { added, gone } = this.state.line.takeChanges();
    // The storage API takes at most 128 keys a call.
    for (let i = 0; i < added.length; i += 128) {
      const batch = added.slice(i, i + 128);
      await this.ctx.storage.put(Object.fromEntries(batch.map((t) => [`ticket:${t.id}`, t])));
    }
    for (let i = 0; i < gone.length; i += 128) {
      await this.ctx.storage.delete(gone.slice(i, i + 128).map((id) => `ticket:${id}`));
    }
  }

  private async ensureSweep(): Promise<void> {
    if ((await this.ctx.storage.getAlarm()) === null) {
      await this.ctx.storage.setAlarm(this.now() + SWEEP_MS);
    }
  }

  /** What was said in the visitor's chat, from its desk's record; null when there is none. */
  private async chatSoFar(visitor: string, chat: ChatHandover | null): Promise<string | null> {
    if (!chat) return null;
    try {
      return await this.env.TEXT_DESK.getByName(chat.desk).transcript(visitor, chat.id);
    } catch {
      // The call goes ahead without the chat rather than not at all.
      return null;
    }
  }

  private async answer(decision: Decision, chat: ChatHandover | null = null): Promise<CourtAnswer> {
    if (decision.kind === 'refuse') {
      // A refusal costs nothing: its count is written with the next change that does, so a
      // surge of refusals is not a surge of storage writes. A ticket it ended is forgotten.
      await this.saveLine();
      return {
        kind: 'refused',
        code: decision.code,
        ...(decision.retryAfterSeconds === undefined
          ? {}
          : { retryAfterSeconds: decision.retryAfterSeconds }),
        ...(decision.reopensAt === undefined ? {} : { reopensAt: decision.reopensAt }),
      };
    }
    if (decision.kind === 'wait') {
      await this.saveLine();
      await this.ensureSweep();
      return {
        kind: 'waiting',
        ticket: {
          id: decision.ticket.id,
          position: decision.position,
          estimatedWaitSeconds: decision.estimatedWaitSeconds,
          checkInBySeconds: decision.checkInBySeconds,
        },
        retryAfterSeconds: decision.retryAfterSeconds,
        offered: decision.offered,
      };
    }
    // Admitted: the place and the worst case are held before the provider is asked.
    const { lease } = decision;
    await this.persist();
    await this.ensureSweep();
    try {
      const said = await this.chatSoFar(lease.visitor, chat);
      const call = await createCourtCall(this.provider(), lease.id, said);
      this.state.leases.attachCall(lease.id, call.id);
      await this.persist();
      return { kind: 'admitted', call, waitedSeconds: decision.waitedSeconds };
    } catch (error) {
      const failure = error instanceof ProviderFailure ? error : null;
      // Only a refusal says no call was made; otherwise the call may run, and be paid for.
      if (failure?.definite) this.state.leases.abandon(lease.id, this.now());
      else this.state.leases.markUnknown(lease.id, this.now());
      this.state.countRefusal('provider-error', this.now());
      await this.persist();
      const status = failure?.definite ? failure.status : 0;
      return {
        kind: 'refused',
        code: 'provider-error',
        detail: status
          ? `The voice service answered ${status}`
          : 'The voice service did not answer',
        ...(status === 429 ? { retryAfterSeconds: 5 } : {}),
      };
    }
  }

  async request(visitor: Visitor, chat: ChatHandover | null = null): Promise<CourtAnswer> {
    this.load.heard(Date.now());
    return this.answer(this.state.request(visitor, this.now()), chat);
  }

  /** A refusal the visitor's start would get anyway, before the bot check is asked. */
  async precheck(visitor: Visitor): Promise<CourtAnswer | null> {
    this.load.heard(Date.now());
    const refusal = this.state.precheck(visitor, this.now());
    return refusal ? this.answer(refusal) : null;
  }

  async checkIn(
    ticketId: string,
    hidden: boolean,
    offer = false,
    chat: ChatHandover | null = null,
  ): Promise<CourtAnswer> {
    this.load.heard(Date.now());
    const offeredBefore = this.state.line.offered;
    const answer = await this.answer(this.state.checkIn(ticketId, hidden, this.now(), offer), chat);
    // A place newly offered must be freed by the sweep if it is not taken.
    if (this.state.line.offered > offeredBefore) await this.ensureSweep();
    return answer;
  }

  /** A text desk draws (or tops up) its grant of today's budget. */
  async drawText(
    holder: string,
    grantId: string | null,
    need: number,
    want: number,
    grantSpentUsd = 0,
  ): Promise<Draw> {
    this.load.heard(Date.now());
    const draw = this.state.text.draw(holder, grantId, need, want, this.now(), grantSpentUsd);
    if (draw.ok) {
      await this.persist();
      await this.ensureSweep();
    }
    return draw;
  }

  /** A text desk settles its grant at what its replies cost, with what it counted. */
  async settleText(
    grantId: string,
    holder: string,
    spentUsd: number,
    counts: TextCounts,
  ): Promise<boolean> {
    this.load.heard(Date.now());
    const settled = this.state.text.settle(grantId, holder, spentUsd, counts, this.now());
    if (settled) await this.persist();
    return settled;
  }

  /** A text desk's counts with no grant to settle them with (replies from the record, chats). */
  async countText(counts: TextCounts): Promise<void> {
    this.load.heard(Date.now());
    this.state.text.count(utcDay(this.now()), counts);
    await this.persist();
  }

  /**
   * A card's judgement (a chat message the Worker asked of the provider): its grant `grantId`
   * settled at `spentUsd`, and `failure` (a judgement with no verdict) counted for the report.
   */
  async cardJudged(grantId: string | null, spentUsd: number, failure: string | null) {
    this.load.heard(Date.now());
    this.state.text.judged(grantId, JUDGE_HOLDER, spentUsd, failure, this.now());
    await this.persist();
  }

  /** The provider will not bill chats: text is closed until the next UTC day. */
  async closeText(): Promise<void> {
    this.load.heard(Date.now());
    this.state.text.close(this.now());
    await this.persist();
  }

  async leave(ticketId: string): Promise<boolean> {
    this.load.heard(Date.now());
    const left = this.state.leave(ticketId);
    await this.saveLine();
    return left;
  }

  /**
   * A call the page never joined, given back (the Worker proved it the visitor's): its place is
   * free for the next in line at once. The provider ends the unjoined call itself (the join
   * timeout every call is created with) and reports its cost as usual.
   */
  async giveBack(callId: string): Promise<boolean> {
    this.load.heard(Date.now());
    const freed = this.state.leases.giveBack(callId, this.now());
    if (freed) await this.persist();
    return freed;
  }

  async providerEvent(event: CallEvent): Promise<boolean> {
    this.load.heard(Date.now());
    const applied = this.state.leases.providerEvent(event, this.now());
    if (applied) await this.persist();
    return applied;
  }

  async rate(callId: string, score: Score, comment: boolean): Promise<'ok' | 'not-ratable'> {
    this.load.heard(Date.now());
    const outcome = this.state.leases.rate(callId, score, comment);
    if (outcome === 'ok') await this.persist();
    return outcome;
  }

  async report(days: number) {
    this.load.heard(Date.now());
    return {
      days: this.state.report(this.now(), days),
      load: this.load.recent(Date.now()),
      limits: {
        maxConcurrentCalls: this.state.limits.maxConcurrent,
        dailyBudgetUsd: this.state.limits.dailyBudgetUsd,
        costPerMinuteUsd: this.state.limits.costPerMinuteUsd,
        pace: paceReport(this.state.limits, this.now()),
      },
    };
  }

  /** For tests and the surge's report: what the court holds right now. */
  async inspect() {
    const now = this.now();
    return {
      activeCalls: this.state.activeLeases,
      waiting: this.state.line.size,
      committedUsd: this.state.committedUsd(now),
      heard: this.load.recent(Date.now()).requestsPerSecond.reduce((sum, n) => sum + n, 0),
      limits: this.state.limits,
    };
  }

  override async alarm(): Promise<void> {
    const now = this.now();
    const { probe } = this.state.sweep(now);
    const settings = this.provider();
    const unknown = this.state.leases.unknownDue(now).slice(0, PROBES_PER_SWEEP);
    await Promise.all(
      unknown.map(async (lease) => {
        try {
          // A minute's leeway for the provider's clock.
          const call = await findCallByLease(settings, lease.id, lease.startedAt - 60_000);
          this.state.leases.found(lease.id, call, this.now());
        } catch {
          // No answer: looked for again later; the lease's own limit still frees it.
          this.state.leases.found(lease.id, null, this.now());
        }
      }),
    );
    await Promise.all(
      probe.slice(0, PROBES_PER_SWEEP).map(async (callId) => {
        try {
          const { ended, costUsd, status } = await lookUpCall(settings, callId);
          this.state.leases.probed(callId, ended, costUsd, this.now(), status);
        } catch {
          // The provider did not answer: the lease's own limit still frees it.
          this.state.leases.probed(callId, false, null, this.now());
        }
      }),
    );
    await this.persist();
    if (
      this.state.activeLeases > 0 ||
      this.state.line.size > 0 ||
      this.state.unsettledCalls > 0 ||
      this.state.openGrants > 0
    ) {
      await this.ctx.storage.setAlarm(this.now() + SWEEP_MS);
    }
  }
}
