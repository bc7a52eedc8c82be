/**
 * The card judge as the tests' provider answers it: a `POST /chat` carrying the judge's rubric is
 * answered here, the rest of the provider by the support kit's stub. The answer comes from the
 * stand-in judge the demo uses (gate/dev/stand-in-judge.mjs), which reads the remark from the
 * gate's real request; a test may make the judge fail instead, in each way a provider can.
 */
import { vi } from 'vitest';
import { judgedWords, standInVerdict } from '../dev/stand-in-judge.mjs';

/** How the judge answers: by reading the remark, or not at all in one of the ways it can fail. */
export type JudgeMode =
  | 'read'
  /** No answer: the connection fails. */
  | 'down'
  /** An error status (503). */
  | 'error'
  /** An answer that is no verdict. */
  | 'rambles';

export interface JudgeWorld {
  mode: JudgeMode;
  /** What the judge says a judgement cost; null: the answer carries no cost. */
  cost: number | null;
  /** The remarks the judge was asked about, in order. */
  asked: string[];
  /** The judge's requests as sent, for what the prompt says. */
  requests: Record<string, unknown>[];
}

function freshJudge(): JudgeWorld {
  return { mode: 'read', cost: 0.0052, asked: [], requests: [] };
}

/** The judge of this test. */
export const judge: JudgeWorld = freshJudge();

let judged = 0;

/** The chat the judge answers with, in the provider's `Chat` shape. */
function answered(words: string): Response {
  judged += 1;
  return Response.json(
    {
      id: `judge-${judged}`,
      orgId: 'org',
      output: [{ role: 'assistant', content: words }],
      ...(judge.cost === null ? {} : { cost: judge.cost }),
      createdAt: new Date().toISOString(),
    },
    { status: 201 },
  );
}

async function answerJudge(remark: string): Promise<Response> {
  judge.asked.push(remark);
  switch (judge.mode) {
    case 'down':
      throw new TypeError('fetch failed: connection reset');
    case 'error':
      return Response.json({ message: 'unavailable' }, { status: 503 });
    case 'rambles':
      return answered('This remark seems fine to me, mostly, although it depends on context.');
    case 'read':
      return answered(standInVerdict(remark));
  }
}

/**
 * Each test: a judge that reads the remark, in front of the provider's stub the support kit put
 * on `fetch` (run after it).
 */
export function standInJudge(): void {
  Object.assign(judge, freshJudge());
  judged = 0;
  const mocked = vi.mocked(globalThis.fetch);
  const provider = mocked.getMockImplementation();
  if (!provider) throw new Error('the provider stub must be in place before the judge');
  mocked.mockImplementation(async (input, init) => {
    const request = new Request(input, init);
    if (request.method === 'POST' && new URL(request.url).pathname === '/chat') {
      const body = (await request.clone().json()) as Record<string, unknown>;
      const remark = judgedWords(body);
      if (remark !== null) {
        judge.requests.push(body);
        return answerJudge(remark);
      }
    }
    return provider(request);
  });
}
