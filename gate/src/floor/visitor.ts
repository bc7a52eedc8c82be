/**
 * Who a visitor is, for their limits. An address is canonicalised first (an IPv4-mapped IPv6
 * address is its IPv4 address), and an IPv6 visitor is its /64: one household or phone gets a
 * whole /64 and may rotate through it freely. Coarser buckets, each with its own caps, hold
 * what rotating inside a network could still take: the /24 (IPv4) or /48 (IPv6), and the
 * network's ASN as Cloudflare reports it. Every bucket but the ASN is a salted hash: an address
 * is never stored, logged or compared.
 */

export interface Visitor {
  /** The visitor's own key (their IPv4 address or IPv6 /64, hashed). */
  key: string;
  /** The buckets the visitor shares with their neighbours: network (/24 or /48), then ASN. */
  networks: string[];
}

type Address = { family: 4; bytes: number[] } | { family: 6; groups: number[] };

function parseIpv4(text: string): number[] | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const bytes: number[] = [];
  for (const part of parts) {
    if (!/^\d{1,3}$/.test(part)) return null;
    const value = Number(part);
    if (value > 255) return null;
    bytes.push(value);
  }
  return bytes;
}

function parseIpv6(text: string): number[] | null {
  let rest = text;
  const tail: number[] = [];
  // An embedded IPv4 tail (`::ffff:192.0.2.1`) is its last two groups.
  const lastColon = rest.lastIndexOf(':');
  if (rest.slice(lastColon + 1).includes('.')) {
    const v4 = parseIpv4(rest.slice(lastColon + 1));
    if (!v4) return null;
    tail.push(((v4[0] ?? 0) << 8) | (v4[1] ?? 0), ((v4[2] ?? 0) << 8) | (v4[3] ?? 0));
    rest = rest.slice(0, lastColon);
    // `::192.0.2.1`: the cut took one colon of the `::`.
    if (rest.endsWith(':')) rest += ':';
  }
  const halves = rest.split('::');
  if (halves.length > 2) return null;
  const group = (part: string): number[] | null => {
    if (part === '') return [];
    const out: number[] = [];
    for (const piece of part.split(':')) {
      if (!/^[0-9a-f]{1,4}$/.test(piece)) return null;
      out.push(parseInt(piece, 16));
    }
    return out;
  };
  const head = group(halves[0] ?? '');
  const back = halves.length === 2 ? group(halves[1] ?? '') : [];
  if (!head || !back) return null;
  const known = head.length + back.length + tail.length;
  if (halves.length === 1 ? known !== 8 : known > 7) return null;
  return [...head, ...new Array<number>(8 - known).fill(0), ...back, ...tail];
}

/** The address a request came from, in one spelling per address; null when it is not one. */
export function canonicalAddress(raw: string | null): Address | null {
  if (!raw) return null;
  const text = raw
    .trim()
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '');
  if (!text.includes(':')) {
    const bytes = parseIpv4(text);
    return bytes ? { family: 4, bytes } : null;
  }
  const groups = parseIpv6(text);
  if (!groups) return null;
  // IPv4-mapped (::ffff:a.b.c.d): the same visitor as a.b.c.d.
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    const [high = 0, low = 0] = groups.slice(6);
    return { family: 4, bytes: [high >> 8, high & 0xff, low >> 8, low & 0xff] };
  }
  return { family: 6, groups };
}

async function hashed(salt: string, label: string): Promise<string> {
  const bytes = new TextEncoder().encode(`${salt}\u0000${label}`);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  let text = '';
  for (const byte of digest.subarray(0, 16)) text += byte.toString(16).padStart(2, '0');
  return text;
}

/** The visitor behind a request and their buckets, or null when it has no readable address. */
export async function identify(request: Request, salt: string): Promise<Visitor | null> {
  const address = canonicalAddress(request.headers.get('cf-connecting-ip'));
  if (!address) return null;
  let own: string;
  let network: string;
  if (address.family === 4) {
    own = `v4:${address.bytes.join('.')}`;
    network = `n4:${address.bytes.slice(0, 3).join('.')}`;
  } else {
    const hex = address.groups.map((g) => g.toString(16));
    own = `v6:${hex.slice(0, 4).join(':')}`;
    network = `n6:${hex.slice(0, 3).join(':')}`;
  }
  const networks = [`net:${await hashed(salt, network)}`];
  const asn = (request as { cf?: { asn?: unknown } }).cf?.asn;
  if (typeof asn === 'number' && Number.isInteger(asn) && asn > 0) networks.push(`asn:${asn}`);
  return { key: await hashed(salt, own), networks };
}

/**
 * Which of `count` objects of one kind a visitor's network falls to, from 0 to `count - 1`: by
 * the first byte of the network's hashed key, so every visitor of a network, and all they do,
 * meets the same object. A visitor known by no network falls by their own key.
 */
export function networkBucket(visitor: Visitor, count: number): number {
  const network = visitor.networks[0] ?? visitor.key;
  const hex = /[0-9a-f]{2}/.exec(network.replace(/^[a-z0-9]+:/, ''))?.[0] ?? '00';
  return parseInt(hex, 16) % count;
}

/** How many text desks share the site's text. */
export const TEXT_DESKS = 32;

/**
 * The text desk of a visitor: by their network, so their neighbours share it. Named here, under
 * both wings that ask it: text, whose desk it is, and cards, which read a chat's remark there.
 */
export function deskFor(visitor: Visitor): string {
  return `desk-${networkBucket(visitor, TEXT_DESKS)}`;
}

/** Every desk's name, as deskFor gives them. */
export const DESK_NAMES: readonly string[] = Array.from(
  { length: TEXT_DESKS },
  (_, bucket) => `desk-${bucket}`,
);

/** A random id for tickets and leases (128 bits, URL-safe). */
export function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let text = '';
  for (const byte of bytes) text += byte.toString(16).padStart(2, '0');
  return text;
}
