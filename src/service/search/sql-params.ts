/**
 * Named SQL parameters for one compiled query: every value from a request goes through `bind`, which
 * returns a placeholder (`@p3`) to put in the SQL text. The only way request data reaches SQL.
 */

export type SqlValue = string | number | null;

export class SqlParams {
  readonly values: Record<string, SqlValue> = {};
  private next = 0;

  constructor(private readonly prefix = 'p') {}

  bind(value: SqlValue): string {
    const name = `${this.prefix}${this.next}`;
    this.next += 1;
    this.values[name] = value;
    return `@${name}`;
  }

  /** Placeholders for a list, comma-separated (for `IN (…)`). */
  bindAll(values: readonly SqlValue[]): string {
    return values.map((value) => this.bind(value)).join(', ');
  }
}
