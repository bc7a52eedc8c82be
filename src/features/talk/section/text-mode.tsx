/**
 * Writing to Pepa beside the voice call: the section's side of it. The chat's own code (the
 * panel, the session, the stream) is a chunk of its own, loaded the first time a visitor chooses
 * text or is offered it (fetched ahead as they reach for Write to Pepa, so their tap can put the
 * focus in the field). This part keeps the chat alive while the panel is put away (during a
 * call), hands the chat to the line's check-ins, holds a place offered in line for the visitor's
 * tap, and keeps the one thread: the chat's entries above a call's captions, and where the call's
 * entries go among the chat's afterwards.
 */
import {
  useCallback,
  useEffect,
  useRef,
  useState,
  useSyncExternalStore,
  type ReactNode,
} from 'react';
import type { ChatPass, LineCompanion } from '../../../api/gate-client';
import type { CallError, StartOutcome } from '../../../lib/call';
import { lazyOnce } from '../../../lib/lazy-once';
import type { TalkPhase } from '../voice/voice-state';
import type * as TextChunk from '../text/chat-panel';
import type { ChatEntry } from '../text/chat-session';
import { chatEntries, type ThreadEntry } from '../thread/thread';
import { WriteToPepaButton } from '../thread/write-to-pepa';

export type TextModule = typeof TextChunk;

/** The chat's chunk once it has arrived: a tap can then open the chat within itself. */
let loadedText: TextModule | null = null;

/** The chat's chunk, loaded once. */
export const loadTextMode = lazyOnce<TextModule>(() =>
  import('../text/chat-panel').then((module) => (loadedText = module)),
);

/** Fetches the chat's chunk ahead (the visitor is reaching for Write to Pepa). */
export function warmTextMode(): void {
  loadTextMode().catch(() => undefined);
}

const NO_ENTRIES: readonly ChatEntry[] = [];
const noSubscription = () => () => undefined;

/** Marks the chat's panel: keys pressed in it are the chat's, never the call's. */
export const CHAT_PANEL_ATTRIBUTE = 'data-chat-panel';

/** Said beside Write to Pepa while the visitor waits in line, or the court is full. */
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
  /** Write to Pepa and the word beside it, where the section offers text. */
  secondary(phase: TalkPhase, failure: CallError | null): ReactNode;
  /**
   * The chat panel, unless a call is under way (it is put away, not ended): the one thread, the
   * last call's entries (`call`) among the chat's where they came.
   */
  panel(phase: TalkPhase, call?: readonly ThreadEntry[]): ReactNode;
  /** During a call: the chat's entries, said before it, which the captions show above its own. */
  captionsAbove: readonly ThreadEntry[];
  /** Opens the text chat (as Write to Pepa does). */
  openChat(): void;
  /** The start's own failure notice says nothing the chat panel says better. */
  hidesFailure(failure: CallError | null): boolean;
  /** The text chat is open (for the panel's texts, panel-texts.ts). */
  chatOpen: boolean;
  /** A place in line is held for the visitor's tap (for the panel's texts). */
  offered: boolean;
}

type Mode = { module: TextModule; session: InstanceType<TextModule['ChatSession']> };

const modeOf = (module: TextModule): Mode => ({ module, session: module.createPageChat() });

/**
 * The section's side of writing to Pepa. `openAtOnce`: the visitor chose text before the chat
 * loaded. `offering`: text is offered now (a line, a full court), so its chunk is fetched ahead.
 * `joined`: a call is under way, joined: the chat so far stands above its entries. `onOpen`: the
 * visitor opens the chat.
 */
export function useTextMode(
  openAtOnce: boolean,
  offering: boolean,
  joined = false,
  onOpen?: () => void,
): TextModeView {
  const onOpenRef = useRef(onOpen);
  onOpenRef.current = onOpen;
  // Chosen before the call view loaded, with the chat's chunk here already: open in this render,
  // so the field takes the focus within the visitor's tap.
  const [mode, setMode] = useState<Mode | null>(() =>
    openAtOnce && loadedText ? modeOf(loadedText) : null,
  );
  // The panel was opened by the visitor's press: it comes into view with the focus in the field.
  const [focusOnOpen, setFocusOnOpen] = useState(openAtOnce);
  const chatSaid = useSyncExternalStore(
    mode?.session.subscribe ?? noSubscription,
    () => mode?.session.getSnapshot().entries ?? NO_ENTRIES,
  );
  // How many of the chat's entries (Pepa's greeting counts) were said before the last call
  // joined: the call's entries go after them in the thread. Kept up while a call is under way.
  const [chatBeforeCall, setChatBeforeCall] = useState(0);
  const chatNow = mode ? chatSaid.length + 1 : 0;
  if (joined && chatBeforeCall !== chatNow) setChatBeforeCall(chatNow);
  // Back after a call, the panel leaves the focus where the call's end put it.
  if (joined && focusOnOpen) setFocusOnOpen(false);
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
    onOpenRef.current?.();
    setLoadFailed(false);
    setFocusOnOpen(true);
    // Here already: open within the visitor's press (the focus, and a phone's keyboard, with it).
    if (loadedText) {
      const module = loadedText;
      setMode((current) => current ?? modeOf(module));
      return;
    }
    loadTextMode().then(
      (module) => setMode((current) => current ?? modeOf(module)),
      () => setLoadFailed(true),
    );
  }, []);

  const close = useCallback(() => {
    mode?.session.end();
    setMode(null);
    setFocusOnOpen(false);
    setChatBeforeCall(0);
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
    open();
  }, [openAtOnce, open]);

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
        <WriteToPepaButton onClick={open} onIntent={warmTextMode} />
        {invite && <p className="relative mt-3 text-sm text-gold-200">{invite}</p>}
        {loadFailed && (
          <p role="alert" className="relative mt-3 text-sm text-gold-200">
            {TEXT_LOAD_FAILED}
          </p>
        )}
      </>
    );
  };

  const panel = (phase: TalkPhase, call: readonly ThreadEntry[] = []): ReactNode => {
    if (!mode || (phase !== 'idle' && phase !== 'waiting')) return null;
    const { ChatPanel, TurnOffer, TURN_MISSED } = mode.module;
    return (
      <ChatPanel
        session={mode.session}
        onClose={close}
        marker={CHAT_PANEL_ATTRIBUTE}
        call={call.length > 0 ? { entries: call, chatBefore: chatBeforeCall } : null}
        focusOnOpen={focusOnOpen}
      >
        {offer ? (
          <TurnOffer until={offer.until} onTake={() => offer.settle(true)} />
        ) : missed ? (
          <p role="alert" className="shrink-0 text-sm text-gold-200">
            {TURN_MISSED}
          </p>
        ) : null}
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
    captionsAbove: mode ? chatEntries(chatSaid) : [],
    openChat: open,
    chatOpen: mode !== null,
    offered: offer !== null,
  };
}
