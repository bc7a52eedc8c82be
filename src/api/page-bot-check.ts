/**
 * The page's one bot check, shared by a call's start and a chat's: Turnstile with the site's key
 * (the demo's offline stand-in instead), with one token solved ahead on intent so that neither
 * start waits for a solve. A chat's start takes the token ahead and has the next one solved, so a
 * call started after the chat does not wait for its own.
 */
import { siteConfig } from '../config/site';
import { FIELD_LATENCY, SEQUENTIAL } from '../config/demo-knobs';
import { loadFieldLatency } from '../lib/call';
import { demoToken, loadTurnstile, turnstileToken } from './bot-check';
import type { GateDoor } from './gate-client';
import { TokenAhead, type Solve } from './token-ahead';

/**
 * Whether this build is the demo, written here (not imported) so that a live build's bundler
 * drops the demo's stand-in and the field latency model from this module.
 */
const DEMO = import.meta.env.VITE_PEPA_DEMO === 'true' && siteConfig.voice.mode === 'demo';

/** One bot-check solve: the demo's offline stand-in, or Turnstile with the site's key. */
const solveBotCheck: Solve = DEMO
  ? (signal) =>
      FIELD_LATENCY
        ? loadFieldLatency().then((model) => demoToken(signal, model.turnstileSolveMs))
        : demoToken(signal)
  : (signal) => turnstileToken(siteConfig.voice.botCheckSiteKey, signal);

/** The token solved ahead on intent, handed to the next press. */
const tokenAhead = new TokenAhead(solveBotCheck);

/** The bot check of a call's start: the token solved ahead (a sequential start solves at the press). */
export const callBotCheck: GateDoor['botCheck'] = SEQUENTIAL
  ? solveBotCheck
  : (signal) => tokenAhead.take(signal);

/**
 * Warms the bot check (on intent, with the voice chunk), so pressing Start waits neither for its
 * script nor for its solve: one token is solved ahead and kept until used or expired.
 */
export function prefetchBotCheck(): void {
  if (siteConfig.voice.route !== 'gate' || SEQUENTIAL) return;
  if (!DEMO) loadTurnstile().catch(() => undefined);
  tokenAhead.warm();
}

/**
 * The bot check of a chat's start: as a call's, from the token solved ahead; another is then
 * solved ahead, so a call started after the chat does not wait for its own.
 */
export const chatBotCheck: GateDoor['botCheck'] = async (signal) => {
  const token = await callBotCheck(signal);
  prefetchBotCheck();
  return token;
};
