/**
 * The provider's server messages to the gate (`POST /api/provider-events`), as the provider
 * sends them when a call ends: its status, then its end-of-call report with the cost.
 */
import { TEST_BINDINGS } from './bindings';
import { api } from './gate-fetch';

/** A server message as the provider signs it (or with the `authorization` a test gives). */
export function providerEvent(
  message: Record<string, unknown>,
  authorization: string | null = `Bearer ${TEST_BINDINGS.GATE_WEBHOOK_SECRET}`,
): Promise<Response> {
  return api('/api/provider-events', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(authorization === null ? {} : { authorization }),
    },
    body: JSON.stringify({ message }),
  });
}

/** The provider says a call ended. */
export function statusEnded(callId: string, endedReason = 'customer-ended-call') {
  return providerEvent({
    type: 'status-update',
    status: 'ended',
    call: { id: callId },
    endedReason,
  });
}

/** The provider's report of an ended call: how long it ran and, if given, what it cost. */
export function endOfCallReport(
  callId: string,
  {
    cost,
    seconds = 60,
    endedReason = 'customer-ended-call',
  }: { cost?: number; seconds?: number; endedReason?: string } = {},
) {
  const endedAt = Date.now();
  return providerEvent({
    type: 'end-of-call-report',
    call: { id: callId },
    endedReason,
    ...(cost === undefined ? {} : { cost }),
    startedAt: new Date(endedAt - seconds * 1000).toISOString(),
    endedAt: new Date(endedAt).toISOString(),
  });
}
