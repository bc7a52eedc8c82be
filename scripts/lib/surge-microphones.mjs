// @ts-check
// The surge's visitors whose microphone fails, and the rooms the others join.
//
// A visitor admitted joins the call's room a moment later (the simulated room's join), and the
// stand-in provider tells the gate the call is in progress. A visitor whose microphone fails asks
// for a place as the page does (`POST /api/calls`, the microphone asked at the same time: the
// overlapped start) and never joins: most give the place back with the admission's callSecret
// (`DELETE /api/calls/{id}`) once the microphone has failed, as the page does; a share never give
// it back (an old page, a crashed tab), and the provider's join timeout or the court's join
// backstop must free it. What each held is measured: from when its admission was asked until the
// gate freed the place (the give-back's answer; the gate hearing the call ended; or, its messages
// lost, the court's join backstop).
import { peakAtOnce, placeSeconds } from './surge-measures.mjs';

/**
 * The court's join backstop (JOIN_BACKSTOP_SECONDS in gate/src/floor/court-limits.ts): a call not heard
 * in progress this long after its admission is looked up, and its place freed if it has ended or
 * never started.
 */
export const JOIN_BACKSTOP_SECONDS = 30;
/** The court sweeps every 2 s: a place the backstop frees goes within a second either side. */
export const SWEEP_SECONDS = 1;

/** How long after its admission a visitor's room is joined (the simulated room's join). */
export const JOIN_DELAY_MS = 800;
/**
 * When the microphone fails, from the start (the prompt refused, a device that will not open):
 * drawn in this range of ms after the visitor asked for a place.
 */
export const MICROPHONE_FAILS_MS = { min: 300, max: 3000 };

/** @typedef {import('./surge-gate.mjs').GateAnswer} GateAnswer */
/** @typedef {'gives-back' | 'keeps'} FailedMicrophone */

/**
 * @typedef {{
 *   visitors: number,
 *   givesBack: number,
 *   keeps: number,
 *   givenBack: { callId: string, askedAt: number, answeredAt: number, failedAt: number, freedAt: number, status: number }[],
 *   kept: { callId: string, askedAt: number }[],
 * }} MicrophoneRecords
 * The failed microphones: how many visitors had one, of them how many give back or keep the
 * place, and each place they were admitted to (epoch ms: asked for, admission answered, the
 * microphone failed, the give-back answered).
 */

/**
 * @param {{
 *   share: number,
 *   keepShare: number,
 *   random: () => number,
 *   sleep: (ms: number) => Promise<void>,
 *   call: import('./surge-visitors.mjs').GateCall,
 *   joinRoom: (roomUrl: string) => boolean,
 * }} day `share`: of the visitors, those whose microphone fails; `keepShare`: of those, the ones
 *   who never give the place back; `joinRoom`: the stand-in provider hears a room joined
 */
export function microphoneDay({ share, keepShare, random, sleep, call, joinRoom }) {
  /** Calls whose visitor never joins (their microphone failed). */
  const unjoined = new Set();
  /** @type {MicrophoneRecords} */
  const records = { visitors: 0, givesBack: 0, keeps: 0, givenBack: [], kept: [] };
  /** @type {Set<Promise<void>>} */
  const givingBack = new Set();

  return {
    records,
    /**
     * Whether this visitor's microphone fails, and what their page does then; null: it works.
     * @returns {FailedMicrophone | null}
     */
    draw() {
      if (share <= 0 || random() >= share) return null;
      records.visitors += 1;
      const keeps = random() < keepShare;
      if (keeps) records.keeps += 1;
      else records.givesBack += 1;
      return keeps ? 'keeps' : 'gives-back';
    },
    /**
     * Sees every answer the gate gave: the room of a call admitted is joined a moment later,
     * unless its visitor's microphone failed (told synchronously, as the answer reaches them).
     * @param {GateAnswer} answer
     */
    heard(answer) {
      const admitted = /** @type {{ call?: { id?: unknown, webCallUrl?: unknown } } | null} */ (
        answer.body
      )?.call;
      if (answer.status !== 201 || typeof admitted?.webCallUrl !== 'string') return;
      const { id, webCallUrl } = admitted;
      setTimeout(() => {
        if (!unjoined.has(id)) joinRoom(webCallUrl);
      }, JOIN_DELAY_MS);
    },
    /**
     * A visitor whose microphone failed was admitted (`answer`, asked `waitedMs` ago, the
     * microphone asked at the same time as the place): its room is never joined; the page gives
     * the place back once the microphone has failed, or never.
     * @param {FailedMicrophone} kind
     * @param {GateAnswer} answer
     * @param {string} from the visitor's address
     */
    admitted(kind, answer, from) {
      const body = /** @type {{ call?: { id?: unknown }, callSecret?: unknown } | null} */ (
        answer.body
      );
      const callId = typeof body?.call?.id === 'string' ? body.call.id : null;
      if (callId === null) return;
      unjoined.add(callId);
      const answeredAt = Date.now();
      const askedAt = answeredAt - answer.waitedMs;
      if (kind === 'keeps') {
        records.kept.push({ callId, askedAt });
        return;
      }
      const failsAt =
        askedAt +
        MICROPHONE_FAILS_MS.min +
        random() * (MICROPHONE_FAILS_MS.max - MICROPHONE_FAILS_MS.min);
      const secret = typeof body?.callSecret === 'string' ? body.callSecret : '';
      const done = (async () => {
        await sleep(Math.max(0, failsAt - Date.now()));
        const given = await call('DELETE', `/api/calls/${encodeURIComponent(callId)}`, {
          address: from,
          headers: { 'call-secret': secret },
        });
        records.givenBack.push({
          callId,
          askedAt,
          answeredAt,
          failedAt: failsAt,
          freedAt: Date.now(),
          status: given.status,
        });
      })();
      givingBack.add(done);
      void done.finally(() => givingBack.delete(done));
    },
    /** Waits for the give-backs under way. */
    async settled() {
      await Promise.all([...givingBack]);
    },
  };
}

/**
 * The seconds of place the failed microphones held: those given back, from the ask to the
 * give-back's answer (204 expected), and of it the page's part, from when both the admission had
 * come and the microphone had failed; those kept, from the ask to when the gate heard the call
 * end (the provider's join timeout) or, its messages lost, the court's join backstop after the
 * call's start (`joinBackstopS` and a sweep).
 * @param {MicrophoneRecords} records
 * @param {Map<string, { startedAt: number, messagesLost: boolean, gateToldAt: number | null }>} calls
 *   the stand-in's calls
 * @param {{ joinBackstopS: number, sweepS: number }} court
 */
export function microphoneHeld(records, calls, { joinBackstopS, sweepS }) {
  const givenBack = records.givenBack.map((place) => (place.freedAt - place.askedAt) / 1000);
  const afterFailure = records.givenBack.map(
    (place) => (place.freedAt - Math.max(place.answeredAt, place.failedAt)) / 1000,
  );
  /** @type {number[]} */
  const kept = [];
  let byBackstop = 0;
  for (const place of records.kept) {
    const held = calls.get(place.callId);
    if (!held) continue;
    if (held.messagesLost || held.gateToldAt === null) {
      byBackstop += 1;
      kept.push((held.startedAt + (joinBackstopS + sweepS) * 1000 - place.askedAt) / 1000);
    } else kept.push((held.gateToldAt - place.askedAt) / 1000);
  }
  return {
    givenBack: placeSeconds(givenBack),
    givenBackAfterFailure: placeSeconds(afterFailure),
    refusedGiveBacks: records.givenBack.filter((place) => place.status !== 204).length,
    kept: placeSeconds(kept),
    keptByBackstop: byBackstop,
  };
}

/**
 * What the run's failed microphones come to, from its records and the stand-in's calls: when each
 * call given back was (its id: the place free from the give-back's answer), the most places held
 * at once (a call given back holds none, though the provider keeps it until its join timeout),
 * and the seconds of place the failed microphones held (microphoneHeld).
 * @param {MicrophoneRecords} records
 * @param {Map<string, { id: string, createdAt: number, startedAt: number, endedAt: string | null, messagesLost: boolean, gateToldAt: number | null }>} calls
 */
export function microphoneOutcome(records, calls) {
  const givenBackAt = new Map(records.givenBack.map((place) => [place.callId, place.freedAt]));
  const placesPeak = peakAtOnce(
    [...calls.values()].map((c) => ({
      from: c.createdAt,
      to: Math.min(c.endedAt ? Date.parse(c.endedAt) : Infinity, givenBackAt.get(c.id) ?? Infinity),
    })),
  );
  const held = microphoneHeld(records, calls, {
    joinBackstopS: JOIN_BACKSTOP_SECONDS,
    sweepS: SWEEP_SECONDS,
  });
  return { givenBackAt, placesPeak, held };
}
