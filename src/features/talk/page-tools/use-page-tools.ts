import { useEffect, useState } from 'react';
import { showSection } from './page-actions';
import { readPageToolCalls, visitorSeesNote, type PageToolCall, type ToolLog } from './page-tools';
import type { VoiceCall } from '../voice/use-voice-call';

/** What the site's card shows, from the site's configuration only. */
export interface SiteCardShown {
  contract: boolean;
  buy: boolean;
}

const NOTHING_SHOWN: SiteCardShown = { contract: false, buy: false };

/**
 * Carries out Pepa's tool calls on the page: shows a section, the contract card or the Buy
 * button, then tells Pepa what the visitor now sees with a silent `add-message` (no reply). What
 * the card shows is forgotten when the next call starts.
 */
export function usePageTools(
  call: Pick<VoiceCall, 'on' | 'send'>,
  log: ToolLog = console,
): { shown: SiteCardShown; reveal(part: keyof SiteCardShown): void } {
  const [shown, setShown] = useState<SiteCardShown>(NOTHING_SHOWN);

  useEffect(() => {
    const endHighlights = new Set<() => void>();
    const act = (tool: PageToolCall) => {
      if (tool.name === 'show_section') {
        const end = showSection(tool.section);
        if (!end) {
          log.debug?.('Dropped a tool call for a section the page does not have', tool.section);
          return;
        }
        endHighlights.add(end);
      } else {
        const part = tool.name === 'show_contract' ? 'contract' : 'buy';
        setShown((current) => (current[part] ? current : { ...current, [part]: true }));
      }
      try {
        call.send({
          type: 'add-message',
          message: { role: 'system', content: visitorSeesNote(tool) },
          triggerResponseEnabled: false,
        });
      } catch {
        // The call ended as Pepa acted: there is no one left to tell.
      }
    };
    const unsubscribes = [
      call.on('message', (message) => {
        for (const tool of readPageToolCalls(message, log)) act(tool);
      }),
      call.on('state-change', ({ state }) => {
        if (state === 'starting') setShown(NOTHING_SHOWN);
      }),
    ];
    return () => {
      for (const unsubscribe of unsubscribes) unsubscribe();
      for (const end of endHighlights) end();
    };
  }, [call, log]);

  const [reveal] = useState(
    () => (part: keyof SiteCardShown) =>
      setShown((current) => (current[part] ? current : { ...current, [part]: true })),
  );
  return { shown, reveal };
}
