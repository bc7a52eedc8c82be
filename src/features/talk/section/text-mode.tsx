/**
 * Typing with Pepa beside the voice call: the section's side of it. The chat's own code (the
 * panel, the session, the stream) is a chunk of its own, loaded the first time a visitor chooses
 * text or is offered it. This part keeps the chat alive while the panel is put away (during a
 * call), hands the chat to the line's check-ins, and holds a place offered in line for the
 * visitor's tap.
 */
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import type { ChatPass, LineCompanion } from '../../../api/gate-client';
import type { CallError, StartOutcome } from '../../../lib/call';
import { lazyOnce } from '../../../lib/lazy-once';
import type { TalkPhase } from '../voice/voice-state';
import type * as TextChunk from '../text/chat-panel';
import { TypeWithPepaButton } from './talk-panel';

export type TextModule = typeof TextChunk;

/** The chat's chunk, loaded once. */
export const loadTextMode = lazyOnce<TextModule>(() => import('../text/chat-panel'));

/** Marks the chat's panel: keys pressed in it are the chat's, never the call's. */
export const CHAT_PANEL_ATTRIBUTE = 'data-chat-panel';

/** Said beside Type with Pepa while the visitor waits in line, or the court is full. */
export const TEXT_WHILE_WAITING = 'While you wait, Pepa reads what you type.';
export const TEXT_WHILE_FULL = 'Pepa still reads what you type while the court is full.';
export const TEXT_LOAD_FAILED = "The chat didn't load. Check your connection and try again.";

interface Offer {
  until: number;
  settle(taken: boolean): void;
}

export function isCode(error: CallError | null, code: string): boolean {
  return error?.type === 'web-call-creation-error' && error.code === code;
}

export interface TextModeView {
  companion: LineCompanion;
  /** A start began: a place missed before is old news. */
  onStart(): void;
  onStartOutcome(outcome: StartOutcome<unknown>): void;
  /** Type with Pepa and the word beside it, where the section offers text. */
  secondary(phase: TalkPhase, failure: CallError | null): ReactNode;
  /** The chat panel, unless a call is under way (it is put away, not ended). */
  panel(phase: TalkPhase): ReactNode;
  /** The start's own failure notice says nothing the chat panel says better. */
  hidesFailure(failure: CallError | null): boolean;
}

/**
 * The section's side of typing with Pepa. `openAtOnce`: the visitor chose text before the chat
 * loaded. `offering`: text is offered now (a line, a full court), so its chunk is fetched ahead.
 */
export function useTextMode(openAtOnce: boolean, offering: boolean): TextModeView {
  const [mode, setMode] = useState<{
    module: TextModule;
    session: InstanceType<TextModule['ChatSession']>;
  } | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [offer, setOffer] = useState<Offer | null>(null);
  const [missed, setMissed] = useState(false);
  const passRef = useRef<() => ChatPass | null>(() => null);
  passRef.current = () => mode?.session.pass() ?? null;
  const offerRef = useRef<Offer | null>(null);
  // The hold ran out: the check-in that follows hears the place is gone.
  const missing = useRef(false);

  const [companion] = useState<LineCompanion>(() => ({
    chat: () => passRef.current(),
    offered: (holdSeconds, signal) =>
      new Promise<boolean>((resolve, reject) => {
        const settle = (taken: boolean) => {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          if (offerRef.current === current) offerRef.current = null;
          setOffer((shown) => (shown === current ? null : shown));
          resolve(taken);
        };
        const onAbort = () => {
          settle(false);
          reject(signal.reason);
        };
        const timer = setTimeout(() => {
          missing.current = true;
          settle(false);
        }, holdSeconds * 1000);
        const current: Offer = { until: Date.now() + holdSeconds * 1000, settle };
        signal.addEventListener('abort', onAbort, { once: true });
        offerRef.current = current;
        setOffer(current);
      }),
  }));

  const open = useCallback(() => {
    setLoadFailed(false);
    loadTextMode().then(
      (module) => setMode((current) => current ?? { module, session: module.createPageChat() }),
      () => setLoadFailed(true),
    );
  }, []);

  // Opened by the visitor's press on Type with Pepa (here, or on the prerendered panel before the
  // chat loaded): the panel comes into view with the focus in its field (ChatPanel's
  // focusOnOpen), since the button pressed goes with the panel.
  const [focusOnOpen, setFocusOnOpen] = useState(false);
  const openPressed = useCallback(() => {
    setFocusOnOpen(true);
    open();
  }, [open]);

  const close = useCallback(() => {
    mode?.session.end();
    setMode(null);
    setFocusOnOpen(false);
    setMissed(false);
    // A held place is the visitor's still: with no chat, the line takes it as a call's.
    offerRef.current?.settle(false);
  }, [mode]);

  useEffect(() => {
    if (offering) loadTextMode().catch(() => undefined);
  }, [offering]);

  const opened = useRef(false);
  useEffect(() => {
    if (!openAtOnce || opened.current) return;
    opened.current = true;
    openPressed();
  }, [openAtOnce, openPressed]);

  // Leaving the page, or the section going away, ends the chat.
  useEffect(() => {
    if (!mode) return;
    // (Run again after a cleanup, as development's strict mode does, it opens a fresh chat.)
    void mode.session.open();
    const end = () => mode.session.end();
    window.addEventListener('pagehide', end);
    return () => {
      window.removeEventListener('pagehide', end);
      end();
    };
  }, [mode]);

  const onStart = useCallback(() => {
    missing.current = false;
    setMissed(false);
  }, []);

  const onStartOutcome = (outcome: StartOutcome<unknown>) => {
    if (outcome.status !== 'failed') return;
    if (missing.current && isCode(outcome.error.cause, 'ticket-gone')) setMissed(true);
    missing.current = false;
  };

  const secondary = (phase: TalkPhase, failure: CallError | null): ReactNode => {
    if (mode || (phase !== 'idle' && phase !== 'waiting')) return null;
    const invite =
      phase === 'waiting'
        ? TEXT_WHILE_WAITING
        : isCode(failure, 'court-full')
          ? TEXT_WHILE_FULL
          : null;
    return (
      <>
        <TypeWithPepaButton onClick={openPressed} />
        {invite && <p className="relative mt-3 text-sm text-gold-200">{invite}</p>}
        {loadFailed && (
          <p role="alert" className="relative mt-3 text-sm text-gold-200">
            {TEXT_LOAD_FAILED}
          </p>
        )}
      </>
    );
  };

  const panel = (phase: TalkPhase): ReactNode => {
    if (!mode || (phase !== 'idle' && phase !== 'waiting')) return null;
    const { ChatPanel, TurnOffer, TURN_MISSED } = mode.module;
    return (
      <ChatPanel
        session={mode.session}
        onClose={close}
        marker={CHAT_PANEL_ATTRIBUTE}
        focusOnOpen={focusOnOpen}
      >
        {offer && <TurnOffer until={offer.until} onTake={() => offer.settle(true)} />}
        {missed && !offer && (
          <p role="alert" className="mt-3 text-sm text-gold-200">
            {TURN_MISSED}
          </p>
        )}
      </ChatPanel>
    );
  };

  return {
    companion,
    onStart,
    onStartOutcome,
    secondary,
    panel,
    hidesFailure: (failure) => missed && isCode(failure, 'ticket-gone'),
  };
}
