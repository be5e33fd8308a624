/**
 * The render cage's waiting line: one line per owner (the account whose file it is), served in turn,
 * so an account that queues a thousand files (or four that each take the whole time limit) delays
 * another account's next file by at most one render per busy process, never by its whole backlog.
 * Within one owner, first in, first out.
 */
export class FairQueue<T> {
  /** Owners with something waiting, in the order they are served next (a Map keeps insertion order). */
  private readonly lines = new Map<string, T[]>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  push(owner: string, item: T): void {
    const line = this.lines.get(owner);
    if (line === undefined) this.lines.set(owner, [item]);
    else line.push(item);
    this.count++;
  }

  /** The next owner's first item; that owner goes to the back of the turn. */
  shift(): T | undefined {
    for (const [owner, line] of this.lines) {
      const item = line.shift();
      this.lines.delete(owner);
      if (line.length > 0) this.lines.set(owner, line);
      if (item !== undefined) {
        this.count--;
        return item;
      }
    }
    return undefined;
  }

  /** Takes every item out (the cage closing). */
  drain(): T[] {
    const all = [...this.lines.values()].flat();
    this.lines.clear();
    this.count = 0;
    return all;
  }
}
