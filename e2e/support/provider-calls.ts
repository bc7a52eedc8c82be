// The stand-in provider's own record of the calls it made, read as the gate's key reads them: what
// a test checks when the question is whether the provider (not the page) saw a call end.
import type { APIRequestContext } from '@playwright/test';

/** A call as the stand-in recorded it: its status, and why it ended. */
export interface ProviderCall {
  status?: string;
  endedReason?: string;
}

const DEMO_KEY = { authorization: 'Bearer demo-key' };

/** What a test compares of a recorded call. */
const recorded = ({ status, endedReason }: ProviderCall): ProviderCall => ({ status, endedReason });

/** Every call the stand-in at `standIn` has made, oldest first. */
export async function providerCalls(
  request: APIRequestContext,
  standIn: string,
): Promise<ProviderCall[]> {
  const calls = (await (
    await request.get(`${standIn}/call`, { headers: DEMO_KEY })
  ).json()) as ProviderCall[];
  return calls.map(recorded);
}

/** The call `id` as the stand-in at `standIn` recorded it. */
export async function providerCall(
  request: APIRequestContext,
  standIn: string,
  id: string,
): Promise<ProviderCall> {
  const answer = await request.get(`${standIn}/call/${id}`, { headers: DEMO_KEY });
  return recorded((await answer.json()) as ProviderCall);
}
