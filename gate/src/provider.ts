/**
 * The gate's side of the provider: creating an admitted visitor's web call with the private key,
 * and asking about a call the backstop has not heard from. Through the provider's generated
 * client, configured here (the page configures its own copy in src/api).
 */
import { createClient, createConfig } from '../../generated/client';
import { callControllerCreateWebCall, callControllerFindOne } from '../../generated/sdk.gen';

/** The provider's REST API, unless the settings name another (the demo's stand-in). */
export const PROVIDER_API = 'https://api.vapi.ai';

export interface ProviderSettings {
  privateKey: string;
  assistantId: string;
  apiUrl?: string | undefined;
  maxCallSeconds: number;
}

/** The web call an admitted visitor joins (openapi/gate.json, CourtCall). */
export interface CourtCall {
  id: string;
  webCallUrl: string;
  maxDurationSeconds: number;
}

export class ProviderFailure extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

const PROVIDER_TIMEOUT_MS = 10_000;

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
 * assistant, the call's maximum duration, and a room that outlives a dropped visitor.
 */
export async function createCourtCall(settings: ProviderSettings): Promise<CourtCall> {
  const { data, error, response } = await callControllerCreateWebCall({
    client: clientFor(settings),
    body: {
      assistantId: settings.assistantId,
      assistantOverrides: { maxDurationSeconds: settings.maxCallSeconds },
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
): Promise<{ ended: boolean; costUsd: number | null }> {
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
  };
}
