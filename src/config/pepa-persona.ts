/**
 * Pepa's words and cues that both the page and her provider definition need: her first message,
 * the demo's canned turns and tool cues, and the sections she may show. The page's demo plays
 * them; `assistant/pepa.ts` builds her definition from them. Data only: its one import is her
 * first remark's own module, so the page never depends on the go-live scripts' code.
 */

import { PEPA_FIRST_MESSAGE } from './pepa-first-message';

export { PEPA_FIRST_MESSAGE };

/** The canned visitor question the demo uses to show Pepa's guardrails. */
export const PEPA_BUY_QUESTION = 'Should I buy $PEPA?';

/** Pepa's refusal to give financial advice, spoken by the demo and described in the prompt. */
export const PEPA_BUY_REFUSAL =
  'A royal frog never gives financial advice, my friend. $PEPA is a meme token, made for fun, and nobody can promise its price. Only spend what you could happily lose, and do your own research. Now, shall I tell you about my pond?';

/** The sections Pepa may show: the page's own ids (the page checks the same list). */
export const PEPA_SECTIONS = ['home', 'talk', 'pond', 'stream', 'lounge', 'grotto'] as const;

/** The demo's canned question that shows a tool: asking where to stake shows the Pond. */
export const PEPA_STAKE_QUESTION = 'Where do I stake?';

/**
 * The tool calls the demo's Pepa makes, with what she says as she does: a typed or canned message
 * that matches `asks` (case-insensitive) calls the tool, as the real Pepa is told to.
 */
export const PEPA_DEMO_TOOL_CUES = [
  {
    asks: '\\b(contract|token address|mint|address)\\b',
    tool: { name: 'show_contract', arguments: {} },
    reply:
      'Ribbit! The official address is in the card from the site. Copy it from there, never from a stranger.',
  },
  {
    asks: '\\b(how|where)\\b.*\\b(buy|get)\\b',
    tool: { name: 'show_buy', arguments: {} },
    reply:
      'The Buy button is in the panel now; it opens the swap page only when you press it. A meme token, my friend, so only what you could happily lose.',
  },
  {
    asks: '\\b(stake|staking|pond)\\b',
    tool: { name: 'show_section', arguments: { section: 'pond' } },
    reply: 'Hop over to my pond! Staking is coming soon, and the lily pads are already warm.',
  },
  {
    asks: '\\b(meme|memes|stream)\\b',
    tool: { name: 'show_section', arguments: { section: 'stream' } },
    reply: 'Behold the meme stream, where the finest memes are crowned.',
  },
  {
    asks: '\\b(lounge|events?|rsvp)\\b',
    tool: { name: 'show_section', arguments: { section: 'lounge' } },
    reply: 'The vanity lounge: royal fashion shows every Friday.',
  },
  {
    asks: '\\b(grotto|secrets?)\\b',
    tool: { name: 'show_section', arguments: { section: 'grotto' } },
    reply: 'Shh, the secret grotto. Only the chosen few may enter, soon.',
  },
] as const;

/**
 * Pepa as the offline demo plays her: the same first message, and the visitor's canned turns
 * answered as she would, the buy question with her real refusal, word for word, and the stake
 * question with the tool call that shows the Pond.
 */
export const PEPA_DEMO_PERSONA = {
  firstMessage: PEPA_FIRST_MESSAGE,
  visitorMessages: ['Hello Pepa!', PEPA_BUY_QUESTION, PEPA_STAKE_QUESTION],
  replies: [
    'A fine question for a fine guest. In my pond, every frog is royalty.',
    PEPA_BUY_REFUSAL,
    'Ribbit. The meme stream flows strong today, my friend.',
    'Stay a while. The lily pads are warm and the gossip is fresh.',
  ],
  toolCues: PEPA_DEMO_TOOL_CUES,
} as const;
