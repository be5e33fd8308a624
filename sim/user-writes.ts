/**
 * What the users wrote, for the no-data-loss and no-partial-file checks: every content any user wrote
 * (contents are unique per write), and those the users themselves replaced or deleted (which may
 * legitimately be gone: nobody promised to keep a version its own author overwrote before it synced).
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
}
