import { DurableObject } from 'cloudflare:workers';

/** Replies being written at once, when the owner sets a limit for them (as call places are). */
export class ReplyPlaces extends DurableObject<Env> {
  private readonly held = new Map<string, number>();

  take(chatId: string, limit: number, until: number): boolean {
    const now = Date.now();
    for (const [id, expires] of this.held) if (expires < now) this.held.delete(id);
    if (this.held.size >= limit) return false;
    this.held.set(chatId, until);
    return true;
  }

  give(chatId: string): void {
    this.held.delete(chatId);
  }

  count(): number {
    return this.held.size;
  }
}

/** A reply's place (with the owner's limit on replies at once) is held at most this long. */
const REPLY_PLACE_MS = 120_000;

/** Takes a place for a reply in `chatId`: always, when the owner set no limit (`limit` 0). */
export async function takeReplyPlace(env: Env, limit: number, chatId: string, now: number) {
  if (limit === 0) return true;
  return env.REPLY_PLACES.getByName('replies').take(chatId, limit, now + REPLY_PLACE_MS);
}

/** Gives the place of a reply in `chatId` back. */
export async function giveReplyPlace(env: Env, limit: number, chatId: string): Promise<void> {
  if (limit !== 0) await env.REPLY_PLACES.getByName('replies').give(chatId);
}
