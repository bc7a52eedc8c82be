/**
 * Where a card lives: its words and image in R2 (`cards/{id}.json`, `cards/{id}.png`), the mark a
 * takedown leaves (`down/{id}`), and its addresses on the site's own origin.
 */

/** What R2 keeps of a card beside its image. */
export interface StoredCard {
  words: string;
  saidAt: string;
  madeAt: string;
  drawn: boolean;
}

export const cardKey = (id: string) => `cards/${id}.json`;
export const imageKey = (id: string) => `cards/${id}.png`;
export const downKey = (id: string) => `down/${id}`;

/** The card's addresses on the site's origin (`GATE_SITE_ORIGIN`), never the host asked. */
export function cardUrls(origin: string, id: string) {
  return { pageUrl: `${origin}/q/${id}`, imageUrl: `${origin}/q/${id}/card.png` };
}

/** Card `id` as stored, or null when there is none (never made, or taken down). */
export async function readCard(env: Env, id: string): Promise<StoredCard | null> {
  const object = await env.CARDS.get(cardKey(id));
  return object ? ((await object.json()) as StoredCard) : null;
}
