/**
 * Facts come from the site, never from Pepa's mouth: in captions and the kept transcript,
 * anything that looks like a Solana address, and any link that is not one of the site's own, is
 * masked. The official address and links are shown only in the site's card.
 */

export const ADDRESS_MASK = '[address hidden]';
export const LINK_MASK = '[link hidden]';

/** Said beside the captions once something was masked. */
export const MASKED_NOTE =
  'Addresses and links are hidden from the captions. The official contract address and links are in the card from the $PEPA site.';

/**
 * A run of base58 characters long enough to be (part of) an address or key. Runs made only of
 * lowercase letters are words, not addresses; a run that mixes in capitals or digits is masked
 * from 16 characters on, so half an address in a forming caption is hidden too.
 */
const BASE58_RUN = /[1-9A-HJ-NP-Za-km-z]{16,}/g;
const WORDLIKE = /^[a-z]+$/;

/** A link: with a scheme, with www., or a bare domain with a common top-level domain. */
const LINK =
  /\b(?:(?:https?:\/\/|www\.)[^\s<>"']+|[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|io|xyz|net|org|app|fun|me|gg|co|finance|exchange|site|link|ai|so|to|cc|dev|money|club|vip|top|pro|info|biz|sh|ly|example)(?::\d+)?(?:\/[^\s<>"']*)?)/gi;

/** A link reduced to what identifies it: no scheme, no www., no trailing slash or punctuation. */
export function normaliseLink(link: string): string {
  return link
    .trim()
    .replace(/[.,;:!?)\]]+$/, '')
    .replace(/^https?:\/\//i, '')
    .replace(/^www\./i, '')
    .replace(/\/+$/, '')
    .toLowerCase();
}

/** The site's own links, normalised, for `maskUnofficial`. */
export function officialLinks(links: readonly string[]): ReadonlySet<string> {
  return new Set(links.map(normaliseLink));
}

export interface MaskResult {
  text: string;
  /** Whether anything was masked. */
  masked: boolean;
}

/** Masks address-like runs and links that are not the site's own (which are kept whole). */
export function maskUnofficial(text: string, official: ReadonlySet<string>): MaskResult {
  let masked = false;
  const maskRuns = (part: string) =>
    part.replace(BASE58_RUN, (run) => {
      if (WORDLIKE.test(run)) return run;
      masked = true;
      return ADDRESS_MASK;
    });
  let result = '';
  let from = 0;
  for (const match of text.matchAll(LINK)) {
    const link = match[0];
    const at = match.index;
    result += maskRuns(text.slice(from, at));
    const trailing = /[.,;:!?)\]]+$/.exec(link)?.[0] ?? '';
    if (official.has(normaliseLink(link))) {
      result += link;
    } else {
      masked = true;
      result += `${LINK_MASK}${trailing}`;
    }
    from = at + link.length;
  }
  result += maskRuns(text.slice(from));
  return { text: result, masked };
}
