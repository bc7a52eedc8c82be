/**
 * The gate's side of the provider: creating an admitted visitor's web call with the private key,
 * and asking about a call the backstop has not heard from. Through the provider's generated
 * client, configured here (the page configures its own copy in src/api).
 */
import { createClient, createConfig } from '../../../generated/client';
import type { CourtCall } from '../../../generated/gate/types.gen';
import { PROVIDER_JOIN_SECONDS } from '../floor/court-limits';
import {
  callControllerCreateWebCall,
  callControllerFindAll,
  callControllerFindOne,
} from '../../../generated/sdk.gen';

/** The provider's REST API, unless the settings name another (the demo's stand-in). */
export const PROVIDER_API = 'https://api.vapi.ai';

export interface ProviderSettings {
  privateKey: string;
  assistantId: string;
  apiUrl?: string | undefined;
  maxCallSeconds: number;
}

export class ProviderFailure extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }

  /**
   * The provider said no (a 4xx but a timeout): no call was created. Anything else (no answer,
   * a timeout, a 5xx, an answer the gate cannot read) may have created one.
   */
  get definite(): boolean {
    return this.status >= 400 && this.status < 500 && this.status !== 408;
  }
}

/** Where a call carries the lease it was created for (the provider keeps it with the call). */
export function leaseTagOf(call: unknown): string | null {
  if (typeof call !== 'object' || call === null) return null;
  const record = call as Record<string, unknown>;
  for (const holder of [record.assistantOverrides, record]) {
    if (typeof holder !== 'object' || holder === null) continue;
    const metadata = (holder as Record<string, unknown>).metadata;
    if (typeof metadata !== 'object' || metadata === null) continue;
    const lease = (metadata as Record<string, unknown>).gateLease;
    if (typeof lease === 'string' && lease.length <= 64) return lease;
  }
  return null;
}

const PROVIDER_TIMEOUT_MS = 10_000;

/** How a call handed a chat opens: with a first remark the model writes from the prompt. */
export const HANDOVER_OPENING = 'assistant-speaks-first-with-model-generated-message';

function clientFor(settings: ProviderSettings) {
  return createClient(
    createConfig({
      baseUrl: (settings.apiUrl ?? PROVIDER_API).replace(/\/+$/, ''),
      auth: () => settings.privateKey,
    }),
  );
}

/**
 * `POST /call/web` for Pepa, with what must not be the visitor's to choose fixed here: the
 * assistant, the call's maximum duration, a room that outlives a dropped visitor, the lease it
 * is held under as the call's metadata, and what the visitor said with Pepa by text, if anything
 * (`chatSoFar` from text-records.ts: quoted data, never lines of her prompt).
 */
export async function createCourtCall(
  settings: ProviderSettings,
  leaseId: string,
  chatSoFar: string | null = null,
): Promise<CourtCall> {
  const { data, error, response } = await callControllerCreateWebCall({
    client: clientFor(settings),
    body: {
      assistantId: settings.assistantId,
      assistantOverrides: {
        maxDurationSeconds: settings.maxCallSeconds,
        // A call nobody joins (the visitor's microphone failed, the page went away) is ended by
        // the provider itself this soon, and its status-update frees the place.
        customerJoinTimeoutSeconds: PROVIDER_JOIN_SECONDS,
        // The tag that finds the call again if its answer is lost (see findCallByLease).
        metadata: { gateLease: leaseId },
        // What the visitor and Pepa said by text before this call: the gate's own record of it,
        // as quoted data her prompt places after its rules (docs/decisions/0009). Her first remark
        // is then the model's, written from the prompt, so she picks up where the chat left off
        // rather than greeting the visitor cold.
        ...(chatSoFar ? { variableValues: { chatSoFar }, firstMessageMode: HANDOVER_OPENING } : {}),
      },
      roomDeleteOnUserLeaveEnabled: false,
    },
    signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
  }).catch((cause: unknown) => {
    throw new ProviderFailure(`POST /call/web failed: ${String(cause)}`, 0);
  });
  if (error !== undefined || !response?.ok) {
    throw new ProviderFailure(
      `POST /call/web answered ${response?.status ?? 0}`,
      response?.status ?? 0,
    );
  }
  const call = data as unknown;
  const record = typeof call === 'object' && call !== null ? (call as Record<string, unknown>) : {};
  const transport =
    typeof record.transport === 'object' && record.transport !== null
      ? (record.transport as Record<string, unknown>)
      : {};
  const webCallUrl = record.webCallUrl ?? transport.callUrl;
  if (typeof record.id !== 'string' || !record.id || typeof webCallUrl !== 'string') {
    throw new ProviderFailure('POST /call/web answered without a call id and room URL', 502);
  }
  let url: URL;
  try {
    url = new URL(webCallUrl);
  } catch {
    throw new ProviderFailure('POST /call/web answered a room URL that is not a URL', 502);
  }
  if (url.protocol !== 'https:') {
    throw new ProviderFailure('POST /call/web answered a room URL that is not https', 502);
  }
  return { id: record.id, webCallUrl: url.href, maxDurationSeconds: settings.maxCallSeconds };
}

/** `GET /call/{id}`: whether the call has ended, and its cost when the provider knows it. */
export async function lookUpCall(
  settings: ProviderSettings,
  id: string,
): Promise<{ ended: boolean; costUsd: number | null; status: string | null }> {
  const { data, response } = await callControllerFindOne({
    client: clientFor(settings),
    path: { id },
    signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
  });
  if (!response?.ok || !data) {
    throw new ProviderFailure(
      `GET /call/${id} answered ${response?.status ?? 0}`,
      response?.status ?? 0,
    );
  }
  const record = data as unknown as Record<string, unknown>;
  return {
    ended: record.status === 'ended',
    costUsd: typeof record.cost === 'number' && record.cost >= 0 ? record.cost : null,
    status: typeof record.status === 'string' ? record.status : null,
  };
}

/**
 * `GET /call`: the call created for `leaseId` since `since`, found by its tag, with whether it has
 * ended and its cost; null when the provider has no such call.
 */
export async function findCallByLease(
  settings: ProviderSettings,
  leaseId: string,
  since: number,
): Promise<{ id: string; ended: boolean; costUsd: number | null } | null> {
  const { data, response } = await callControllerFindAll({
    client: clientFor(settings),
    query: {
      assistantId: settings.assistantId,
      createdAtGt: new Date(since).toISOString(),
      limit: 100,
    },
    signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
  });
  if (!response?.ok || !Array.isArray(data)) {
    throw new ProviderFailure(`GET /call answered ${response?.status ?? 0}`, response?.status ?? 0);
  }
  for (const call of data as unknown[]) {
    if (leaseTagOf(call) !== leaseId) continue;
    const record = call as Record<string, unknown>;
    if (typeof record.id !== 'string') continue;
    return {
      id: record.id,
      ended: record.status === 'ended',
      costUsd: typeof record.cost === 'number' && record.cost >= 0 ? record.cost : null,
    };
  }
  return null;
}
