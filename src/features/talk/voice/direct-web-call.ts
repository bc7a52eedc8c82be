/**
 * A static-only host's way of creating a call: `POST /call/web` from the page with the provider's
 * public key. Unprotected (anyone can make billed calls with a key in the page; `npm run doctor`
 * says so), and loaded only by builds that have the key, as a chunk of its own.
 */
import { callControllerCreateWebCall } from '../../../../generated/sdk.gen';
import { client } from '../../../../generated/client.gen';
import '../../../api/vapi';
import { siteConfig } from '../../../config/site';
import type { CourtCall } from '../../../api/gate-client';

export async function createDirectWebCall(signal: AbortSignal): Promise<CourtCall> {
  const { data } = await callControllerCreateWebCall({
    client,
    body: { assistantId: siteConfig.voice.assistantId, roomDeleteOnUserLeaveEnabled: false },
    signal,
    throwOnError: true,
  });
  return {
    ...(data as unknown as CourtCall),
    maxDurationSeconds: siteConfig.voice.maxCallSeconds,
  };
}
