/**
 * Which room URLs a call may join. The provider's answer names the room; a drifted or hostile
 * answer must not take the visitor's microphone to a room elsewhere, so the URL is checked before
 * anything is loaded or joined. Only `https:` rooms on an allowed host are joined.
 */

/** Daily's own hosts: rooms live on `<domain>.daily.co`. */
export const DEFAULT_ROOM_HOSTS: readonly string[] = ['*.daily.co'];

export type RoomUrlCheck =
  | { ok: true; url: string }
  | { ok: false; reason: 'missing' | 'malformed' | 'not-https' | 'host-not-allowed'; url: string };

/**
 * Whether `host` matches one pattern: an exact host (`rooms.example.com`) or a wildcard for its
 * subdomains (`*.daily.co` matches `pepa.daily.co` but not `daily.co` or `evil-daily.co`).
 */
export function hostMatches(host: string, pattern: string): boolean {
  const wanted = pattern.trim().toLowerCase();
  if (!wanted) return false;
  if (wanted.startsWith('*.')) {
    const suffix = wanted.slice(1);
    return host.endsWith(suffix) && host.length > suffix.length;
  }
  return host === wanted;
}

export function checkRoomUrl(
  url: string | null | undefined,
  allowedHosts: readonly string[] = DEFAULT_ROOM_HOSTS,
): RoomUrlCheck {
  const raw = (url ?? '').trim();
  if (!raw) return { ok: false, reason: 'missing', url: raw };
  let parsed: URL;
  try {
    parsed = new URL(raw);
  } catch {
    return { ok: false, reason: 'malformed', url: raw };
  }
  if (parsed.protocol !== 'https:') return { ok: false, reason: 'not-https', url: raw };
  // Credentials in a room URL are never the provider's: refuse them with the host check.
  const host = parsed.hostname.toLowerCase();
  if (parsed.username || parsed.password || !allowedHosts.some((p) => hostMatches(host, p))) {
    return { ok: false, reason: 'host-not-allowed', url: raw };
  }
  return { ok: true, url: parsed.href };
}

/**
 * The room URL of a web call: `webCallUrl`, else the transport's `callUrl` (newer answers carry a
 * `VapiWebCallTransport { provider: 'daily', callUrl }`; other transports have no room).
 */
export function roomUrlOf(
  call: { webCallUrl?: unknown; transport?: unknown } | null,
): string | null {
  // Read as unknown: the answer comes from another system and may not be what its type says.
  const transport = call?.transport;
  const callUrl =
    typeof transport === 'object' &&
    transport !== null &&
    'callUrl' in transport &&
    typeof transport.callUrl === 'string'
      ? transport.callUrl
      : null;
  const webCallUrl = typeof call?.webCallUrl === 'string' ? call.webCallUrl : null;
  return webCallUrl?.trim() || callUrl?.trim() || null;
}

/**
 * The Daily meeting token a web call's transport carries, if any: with video recording on, the
 * provider gives one that starts the cloud recording as the visitor joins.
 */
export function meetingTokenOf(call: { transport?: unknown } | null): string | null {
  const transport = call?.transport;
  const token =
    typeof transport === 'object' && transport !== null && 'callToken' in transport
      ? transport.callToken
      : null;
  return typeof token === 'string' && token.trim() !== '' ? token : null;
}
