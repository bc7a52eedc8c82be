/**
 * What the web-call request resolved with, read before anything is loaded or joined. The answer
 * comes from another system (the provider, or a gate in front of it), so it is read as unknown:
 * an answer that is not a Call with a room is a malformed answer, told apart from a refused room
 * and from anything the microphone could cause.
 */
import type { CallError } from './call-events';
import type { CallErrorSource } from './start-error';
import { isRecord } from '../is-record';

/** What was wrong with the answer, for logs. */
export type MalformedAnswerProblem =
  'not-an-object' | 'room-url-not-a-string' | 'transport-url-not-a-string' | 'no-room-url';

const isOptionalString = (value: unknown) =>
  value === undefined || value === null || typeof value === 'string';

const hasText = (value: unknown) => typeof value === 'string' && value.trim() !== '';

/** Why `answer` cannot be joined as a web call, or null when it names a room to check. */
export function malformedAnswerProblem(answer: unknown): MalformedAnswerProblem | null {
  if (!isRecord(answer)) return 'not-an-object';
  if (!isOptionalString(answer.webCallUrl)) return 'room-url-not-a-string';
  const transport = answer.transport;
  const transportUrl = isRecord(transport) ? transport.callUrl : undefined;
  if (!isOptionalString(transportUrl)) return 'transport-url-not-a-string';
  if (!hasText(answer.webCallUrl) && !hasText(transportUrl)) return 'no-room-url';
  return null;
}

/** A web-call answer the page cannot read; reported as its own kind of web-call failure. */
export class MalformedWebCallAnswer extends Error implements CallErrorSource {
  override readonly name = 'MalformedWebCallAnswer';
  constructor(readonly problem: MalformedAnswerProblem) {
    super(`The web call's answer could not be read (${problem})`);
  }

  toCallError(): CallError {
    return {
      type: 'web-call-creation-error',
      kind: 'malformed',
      message: this.message,
      cause: this,
    };
  }
}

/** `answer` as the Call it must be, or a {@link MalformedWebCallAnswer} thrown. */
export function checkWebCallAnswer<TCall>(answer: TCall): TCall {
  const problem = malformedAnswerProblem(answer);
  if (problem) throw new MalformedWebCallAnswer(problem);
  return answer;
}
