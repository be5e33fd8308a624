/**
 * At most `size` renderings at once, for the whole service: libvips threads inside each pipeline, so
 * more side by side than the cores only makes each slower. A slot covers the sharp pipeline alone; what
 * comes after it (the checksum, the rename, the row) runs outside, so the next pipeline starts the
 * moment one ends instead of an event-loop turn or more later. A freed slot goes to the longest waiter.
 */
export class RenderSlots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(size: number) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`render slots: ${size} is not a positive integer`);
    this.free = size;
  }

  /** Runs `work` once a slot is free, and frees it when `work` settles. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free -= 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      // Handed straight to the next waiter, so no newcomer can slip in between.
      if (next === undefined) this.free += 1;
      else next();
    }
  }
}
