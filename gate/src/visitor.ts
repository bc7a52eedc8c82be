/**
 * Who a visitor is, for their limits: a salted hash of their address. The address itself is
 * never stored, logged or compared.
 */
export async function visitorKey(request: Request, salt: string): Promise<string | null> {
  const address = request.headers.get('cf-connecting-ip');
  if (!address) return null;
  const bytes = new TextEncoder().encode(`${salt}\u0000${address.trim().toLowerCase()}`);
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  let text = '';
  for (const byte of digest.subarray(0, 16)) text += byte.toString(16).padStart(2, '0');
  return text;
}

/** A random id for tickets and leases (128 bits, URL-safe). */
export function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  let text = '';
  for (const byte of bytes) text += byte.toString(16).padStart(2, '0');
  return text;
}
