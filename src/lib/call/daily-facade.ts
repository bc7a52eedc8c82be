import type { DailyLikeEventName, DailyLikeEvents, DailyLikeHandler } from './daily-types';

type AnyHandler = (payload: never) => void;

/**
 * The event half of a Daily-shaped call object: `on`/`off` as Daily has them, and `emit` to play
 * Daily's side. The offline room simulator and the tests' fake both build on it.
 */
export class DailyEventHub {
  private readonly handlers = new Map<DailyLikeEventName, Set<AnyHandler>>();

  on<E extends DailyLikeEventName>(event: E, handler: DailyLikeHandler<E>): this {
    const set = this.handlers.get(event) ?? new Set<AnyHandler>();
    set.add(handler as AnyHandler);
    this.handlers.set(event, set);
    return this;
  }

  off<E extends DailyLikeEventName>(event: E, handler: DailyLikeHandler<E>): this {
    const set = this.handlers.get(event);
    set?.delete(handler as AnyHandler);
    if (set?.size === 0) this.handlers.delete(event);
    return this;
  }

  /** Delivers a Daily event to every listener, in the order they subscribed. */
  emit<E extends DailyLikeEventName>(event: E, payload: DailyLikeEvents[E]): void {
    for (const handler of [...(this.handlers.get(event) ?? [])]) {
      (handler as DailyLikeHandler<E>)(payload);
    }
  }

  /** How many listeners are attached, for leak checks. */
  listenerCount(): number {
    let count = 0;
    for (const set of this.handlers.values()) count += set.size;
    return count;
  }
}
