/**
 * Secrets a card must never carry, however they are written: a wallet's recovery phrase in any of
 * BIP-39's ten word lists, and key-like runs (base58 keys and addresses, hex keys, byte arrays),
 * split or grouped.
 */
import { holdsPhrase } from './card-phrases';

export { holdsPhrase };

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]+$/;
const HEX = /^(?:0x)?[0-9a-fA-F]+$/;

/** What may stand between the groups of a key written apart (`9xQe WvG8`, `…-…`, `… / …`). */
const GROUP_GAP = /^[\s\-_.·:/|,+~]{1,3}$/u;

/** A group that reads like a word (`court`, `The`, `OK`), not like a piece of a key. */
const WORD_LIKE = /^(?:[a-z]+|[A-Z][a-z]+|[A-Z]+)$/;

/** Whether `run` (groups joined) reads as a key: long, mixed and mostly not words. */
function keyLike(groups: readonly string[]): boolean {
  const run = groups.join('');
  const pieces = groups.filter((group) => !WORD_LIKE.test(group)).length;
  if (pieces * 2 < groups.length) return false;
  if (run.length >= 32 && BASE58.test(run) && /\d/.test(run) && /[a-z]/.test(run)) {
    if (/[A-Z]/.test(run) || groups.length === 1) return true;
  }
  const hex = run.replace(/^0x/i, '');
  if (hex.length >= 40 && HEX.test(run)) {
    const digits = (hex.match(/\d/g) ?? []).length;
    return digits >= hex.length * 0.3 && digits < hex.length;
  }
  return false;
}

/** An EVM address or key: `0x` and forty hex digits or more. */
const EVM = /0x[0-9a-f]{40}/i;
/** A Bitcoin address in bech32 (`bc1…`, or testnet's `tb1…`), perhaps written in groups. */
const BECH32 = /(?<![\p{L}\p{N}])(?:bc|tb)1(?:[\s\-_.·:/|,+~]{0,3}[ac-hj-np-z02-9]){11,}/iu;
/** A Bitcoin address in base58 (`1…`, `3…`): 26 to 35 characters. */
const BITCOIN = /(?<![\p{L}\p{N}])[13][1-9A-HJ-NP-Za-km-z]{25,34}(?![\p{L}\p{N}])/gu;
/** Base64 of a key or an address: forty characters or more. */
const BASE64 = /[A-Za-z0-9+/]{40,}={0,2}/g;

/** Whether `run` mixes upper case, lower case and digits, as encoded bytes do and words do not. */
const mixed = (run: string) => /[A-Z]/.test(run) && /[a-z]/.test(run) && /\d/.test(run);

/**
 * The address families of Pepa's world written whole: an EVM `0x` address, a Bitcoin address in
 * bech32 or base58, and an address or key in base64 (a Solana address, base58, is a key-like run).
 */
export function holdsAddress(text: string): boolean {
  if (EVM.test(text) || BECH32.test(text)) return true;
  const found = (pattern: RegExp) => [...text.matchAll(pattern)].some(([run]) => mixed(run));
  return found(BITCOIN) || found(BASE64);
}

/**
 * Key-like runs: one unbroken, or in groups with a short gap between them. Each stretch of groups
 * that are base58 or hex is tried from every start, so words before a key do not hide it.
 */
export function holdsKey(text: string): boolean {
  if (holdsAddress(text)) return true;
  const parts = text.split(/([^\p{L}\p{N}]+)/u);
  let stretch: string[] = [];
  const tryStretch = () => {
    for (let from = 0; from < stretch.length; from += 1) {
      for (let to = from + 1; to <= stretch.length; to += 1) {
        if (keyLike(stretch.slice(from, to))) return true;
      }
    }
    return false;
  };
  for (let i = 0; i < parts.length; i += 2) {
    const group = parts[i] ?? '';
    const gap = parts[i + 1] ?? '';
    if (group && (BASE58.test(group) || HEX.test(group))) {
      stretch.push(group);
      if (GROUP_GAP.test(gap) && stretch.length < 64) continue;
    }
    if (tryStretch()) return true;
    stretch = [];
  }
  return tryStretch();
}

/** A number a byte can be (0-255). */
const BYTE = String.raw`(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)`;

/** 16 bytes or more in a row, in any brackets or none, apart by commas, semicolons or spaces. */
const BYTE_ARRAY = new RegExp(
  String.raw`(?<![\d.])${BYTE}(?:\s*[,;]\s*|\s+)(?:${BYTE}(?:\s*[,;]\s*|\s+)){14,}${BYTE}(?![\d.])`,
);

/** Whether `text` holds a byte array as a keypair is written out. */
export function holdsBytes(text: string): boolean {
  return BYTE_ARRAY.test(text);
}
