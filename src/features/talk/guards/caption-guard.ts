/**
 * What a transcript message may put in the captions and the kept transcript: secrets redacted
 * (seed-shield.ts), then addresses and foreign links masked (site-facts.ts). Applied before the
 * message reaches the section's state, so the raw words are never held by the page.
 */
import type { ServerMessage } from '../../../lib/call';
import { redactSecrets } from './seed-shield';
import { maskUnofficial } from './site-facts';

export interface GuardedMessage {
  message: ServerMessage;
  /** An address or a link that is not the site's own was masked. */
  masked: boolean;
  /** A recovery phrase or private key was hidden. */
  redacted: boolean;
}

/** Guards a transcript message's text; any other message passes unchanged. */
export function guardTranscript(
  message: ServerMessage,
  official: ReadonlySet<string>,
): GuardedMessage {
  if (message.type !== 'transcript' || typeof message.transcript !== 'string') {
    return { message, masked: false, redacted: false };
  }
  const secret = redactSecrets(message.transcript);
  const facts = maskUnofficial(secret.text, official);
  if (!secret.redacted && !facts.masked) return { message, masked: false, redacted: false };
  return {
    message: { ...message, transcript: facts.text },
    masked: facts.masked,
    redacted: secret.redacted,
  };
}
