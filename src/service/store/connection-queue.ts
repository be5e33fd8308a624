/**
 * Turns on one connection, first come first served: what makes SQLite's single connection safe to
 * share between requests that await in the middle of a transaction. `use` runs at once when the
 * connection is free (a statement outside a transaction then costs no extra turn of the event loop),
 * and otherwise when every earlier holder is done.
 */
export class ConnectionQueue {
  private held = false;
  private readonly waiting: (() => void)[] = [];

  async use<T>(fn: () => Promise<T> | T): Promise<T> {
    if (this.held) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.held = true;
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next === undefined) this.held = false;
      else next();
    }
  }

  /** Whether a holder has the connection now. */
  get busy(): boolean {
    return this.held;
  }
}
