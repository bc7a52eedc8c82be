/**
 * What a remark means, judged once. After the structural checks pass, the judge (card-judge.ts)
 * reads the remark; its verdict is kept in R2 under the hash of the words folded as every check
 * reads them (`card-verdicts/{sha256}`), so the same words, however spelt, are judged once and a
 * second ask costs no model call.
 *
 * The judge is the provider's chat, and its money is the court's: each judgement reserves a chat
 * message's worst case (`GATE_CHAT_TURN_WORST_USD`) from the day's budget before the call and
 * settles it at the provider's reported cost after (the worst case when none was reported), as
 * a text reply is. A judgement the budget cannot hold, or that fails (a fault, the time bound, an
 * answer that is no verdict), makes no card and is counted among the day's failures
 * (`card-judge-…`, shown by `npm run court:report`): the judge fails closed.
 */
import { JUDGE_HOLDER } from '../../calls/court-text';
import { providerChatSettingsFrom } from '../../provider/provider-chat';
import { foldForMatch } from '../fold/card-fold';
import { askJudge, JUDGE_RUBRIC_ID, type HarmKind, type JudgeFailure } from './card-judge';

/** Why a judgement gave no verdict, as the day's failures count it. */
export type JudgeOutcome = JudgeFailure | 'budget';

export type Meaning =
  { ok: true } | { ok: false; harm: HarmKind } | { ok: false; failure: JudgeOutcome };

/** A verdict as R2 keeps it. */
interface KeptVerdict {
  rubric: string;
  verdict: 'allow' | 'refuse';
  harm?: HarmKind;
  judgedAt: string;
}

async function sha256(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  let hex = '';
  for (const byte of new Uint8Array(digest)) hex += byte.toString(16).padStart(2, '0');
  return hex;
}

/** Where the verdict on `words` is kept: by the rubric and the folded words. */
export async function verdictKey(words: string): Promise<string> {
  return `card-verdicts/${await sha256(`${JUDGE_RUBRIC_ID}\n${foldForMatch(words)}`)}`;
}

async function keptVerdict(env: Env, key: string): Promise<Meaning | null> {
  const object = await env.CARDS.get(key);
  if (!object) return null;
  const kept = (await object.json()) as Partial<KeptVerdict>;
  if (kept.rubric !== JUDGE_RUBRIC_ID) return null;
  if (kept.verdict === 'allow') return { ok: true };
  return kept.verdict === 'refuse' && kept.harm ? { ok: false, harm: kept.harm } : null;
}

/** The name a failed judgement is counted under among the day's failures. */
export const judgeFailureKey = (outcome: JudgeOutcome) => `card-judge-${outcome}`;

/**
 * What `words` (the card's words, past every structural check) mean to the judge: fine, a harm,
 * or no verdict. `worstUsd` is what one judgement may cost at most, reserved before it is asked.
 */
export async function meaningOf(env: Env, words: string, worstUsd: number): Promise<Meaning> {
  const key = await verdictKey(words);
  const kept = await keptVerdict(env, key);
  if (kept) return kept;
  const court = env.COURT.getByName('court');
  const draw = await court.drawText(JUDGE_HOLDER, null, worstUsd, worstUsd);
  if (!draw.ok) {
    await court.cardJudged(null, 0, judgeFailureKey('budget'));
    return { ok: false, failure: 'budget' };
  }
  const answer = await askJudge(providerChatSettingsFrom(env), words);
  // A judgement whose cost was not reported is charged at its worst: never spent unmetered.
  const spent = answer.costUsd ?? draw.usd;
  const failure = answer.kind === 'failed' ? judgeFailureKey(answer.failure) : null;
  await court.cardJudged(draw.grantId, spent, failure);
  if (answer.kind === 'failed') return { ok: false, failure: answer.failure };
  const verdict: KeptVerdict = {
    rubric: JUDGE_RUBRIC_ID,
    verdict: answer.kind,
    ...(answer.kind === 'refuse' ? { harm: answer.harm } : {}),
    judgedAt: new Date().toISOString(),
  };
  await env.CARDS.put(key, JSON.stringify(verdict), {
    httpMetadata: { contentType: 'application/json' },
  });
  return answer.kind === 'allow' ? { ok: true } : { ok: false, harm: answer.harm };
}
