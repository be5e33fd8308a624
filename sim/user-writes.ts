/**
 * What the users wrote, for the no-data-loss and no-partial-file checks: every content any user wrote
 * (contents are unique per write, which the no-resurrection and no-version-goes-back checks rely on),
 * and those the users themselves replaced or deleted (which may legitimately be gone: nobody promised
 * to keep a version its own author overwrote before it synced).
 */
export class UserWrites {
  readonly written = new Set<string>();
  /** Contents a user overwrote or deleted. */
  readonly gone = new Set<string>();

  wrote(content: string): void {
    this.written.add(content);
  }

  /** A user overwrote or deleted this content. */
  replaced(content: string): void {
    this.gone.add(content);
  }

  /** A user changed a file while it uploaded. */
  changed(before: string, after: string): void {
    this.replaced(before);
    this.wrote(after);
  }

  /**
   * A user appended to a file holding `before` (the faults' edits while a file is hashed or uploaded):
   * records the change and returns what to append, `mark` repeated until the result is a content no
   * user wrote yet. Two disks holding one download, each edited so, would otherwise hold the same
   * bytes from two writes: seed 92570's second edit read as the first one's bytes resurrected after
   * their own user had deleted them.
   */
  appended(before: string, mark: string): string {
    let suffix = mark;
    while (this.written.has(`${before}${suffix}`)) suffix += mark;
    this.changed(before, `${before}${suffix}`);
    return suffix;
  }
}
