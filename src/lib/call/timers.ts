/**
 * Named timers one call owns. Setting a name again replaces its timer; `clearAll` is part of
 * every teardown, and `size` is what leak checks read.
 */
export class CallTimers {
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();

  set(name: string, delayMs: number, run: () => void): void {
    this.clear(name);
    this.timers.set(
      name,
      setTimeout(() => {
        this.timers.delete(name);
        run();
      }, delayMs),
    );
  }

  clear(name: string): void {
    const timer = this.timers.get(name);
    if (timer === undefined) return;
    clearTimeout(timer);
    this.timers.delete(name);
  }

  has(name: string): boolean {
    return this.timers.has(name);
  }

  clearAll(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  get size(): number {
    return this.timers.size;
  }
}
