/**
 * What the page tells visitors about their voice: a short notice beside Start Talking, before
 * the microphone opens, and the privacy section in the footer it links to. Whether calls are
 * recorded comes from the site configuration (`VITE_PEPA_RECORDING`), the same variable the
 * assistant's settings are synced from.
 */

export const PRIVACY_ANCHOR = 'privacy';
export const PRIVACY_HEADING = 'Privacy';
export const PRIVACY_LINK_TEXT = 'Privacy';

/** The sentence about recording, as configured. */
export function recordingSentence(recording: boolean): string {
  return recording ? 'Calls are recorded by our voice provider.' : 'Calls are not recorded.';
}

/** The notice beside Start Talking. */
export function callNotice(recording: boolean): string {
  return `Your voice is processed by Vapi, our voice-AI provider, only while you talk to Pepa. ${recordingSentence(recording)}`;
}

/** The footer's privacy section, paragraph by paragraph. */
export function privacyParagraphs(recording: boolean): string[] {
  return [
    'Talk to Pepa uses your microphone only after you press Start Talking, and only until the call ends. Your voice is processed by Vapi, our voice-AI provider, and carried by Daily, its real-time audio service, so that Pepa can answer you.',
    `${recordingSentence(recording)} The transcript shown after a call stays in your browser until you start another call or leave the page; copying or downloading it is up to you.`,
    'The page itself sets no cookies and runs no analytics.',
  ];
}
