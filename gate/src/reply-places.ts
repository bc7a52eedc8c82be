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
