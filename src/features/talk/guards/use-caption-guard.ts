import { useCallback, useState } from 'react';
import { siteConfig } from '../../../config/site';
import type { ServerMessage } from '../../../lib/call';
import { guardTranscript } from './caption-guard';
import { officialLinks } from './site-facts';

/** Every link the site itself shows: the only ones captions may carry. */
export const SITE_LINKS = officialLinks([
  siteConfig.buyUrl,
  siteConfig.siteUrl,
  ...Object.values(siteConfig.links),
]);

export interface CaptionGuardFlags {
  /** Something looking like an address or a foreign link was masked this call. */
  masked: boolean;
  /** A spoken recovery phrase or key was hidden this call. */
  redacted: boolean;
}

const CLEAN: CaptionGuardFlags = { masked: false, redacted: false };

/**
 * Guards what captions show (see caption-guard.ts) and remembers, for the current call, whether
 * anything was masked or hidden, so the panel can say so. `reset` when the next call starts.
 */
export function useCaptionGuard() {
  const [flags, setFlags] = useState<CaptionGuardFlags>(CLEAN);
  const reset = useCallback(() => setFlags(CLEAN), []);
  const [screenMessage] = useState(() => (message: ServerMessage): ServerMessage => {
    const guarded = guardTranscript(message, SITE_LINKS);
    if (guarded.masked || guarded.redacted) {
      setFlags((current) =>
        (current.masked || !guarded.masked) && (current.redacted || !guarded.redacted)
          ? current
          : {
              masked: current.masked || guarded.masked,
              redacted: current.redacted || guarded.redacted,
            },
      );
    }
    return guarded.message;
  });
  return { ...flags, reset, screenMessage };
}
