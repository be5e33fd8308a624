/**
 * SQL with its parameters kept apart, for both dialects: `sql\`SELECT … WHERE id = ${id}\`` holds the
 * text and the values, and `renderSql` writes the placeholders each driver expects (`?` for SQLite,
 * `$1, $2…` for PostgreSQL). A value is always a parameter, never text in the statement; `sqlRaw` is the
 * one way to put text in (identifiers and fragments chosen by our code, never by a caller), and
 * `sqlJoin` joins fragments.
 */

export type SqlValue = string | number | bigint | boolean | null | Buffer;

export type Dialect = 'sqlite' | 'postgres';

const FRAGMENT = Symbol('sql fragment');

export interface Sql {
  readonly [FRAGMENT]: true;
  /** Text and values in order: text pieces as strings in `texts`, a value between each two. */
  readonly texts: readonly string[];
  readonly values: readonly SqlValue[];
}

function fragment(texts: readonly string[], values: readonly SqlValue[]): Sql {
  return { [FRAGMENT]: true, texts, values };
}

function isSql(value: unknown): value is Sql {
  return typeof value === 'object' && value !== null && FRAGMENT in value;
}

/** Text and values appended in order; a fragment's text joins the text on either side of it. */
class Builder {
  private readonly texts: string[] = [''];
  private readonly values: SqlValue[] = [];

  text(text: string): void {
    this.texts[this.texts.length - 1] = `${this.texts.at(-1) ?? ''}${text}`;
  }

  value(value: SqlValue): void {
    this.values.push(value);
    this.texts.push('');
  }

  fragment(part: Sql): void {
    this.text(part.texts[0] ?? '');
    part.values.forEach((value, at) => {
      this.value(value);
      this.text(part.texts[at + 1] ?? '');
    });
  }

  build(): Sql {
    return fragment(this.texts, this.values);
  }
}

/** The tag: each `${value}` is a parameter, or a fragment spliced in with its own parameters. */
export function sql(strings: TemplateStringsArray, ...parts: readonly (SqlValue | Sql)[]): Sql {
  const builder = new Builder();
  builder.text(strings[0] ?? '');
  parts.forEach((part, index) => {
    if (isSql(part)) builder.fragment(part);
    else builder.value(part);
    builder.text(strings[index + 1] ?? '');
  });
  return builder.build();
}

/** Text of our own making, spliced in as it is (an identifier, a sort direction): never a caller's input. */
export function sqlRaw(text: string): Sql {
  return fragment([text], []);
}

/** Fragments or values joined by `separator` (text), e.g. a list of values or conditions. */
export function sqlJoin(parts: readonly (Sql | SqlValue)[], separator = ', '): Sql {
  const builder = new Builder();
  parts.forEach((part, index) => {
    if (index > 0) builder.text(separator);
    if (isSql(part)) builder.fragment(part);
    else builder.value(part);
  });
  return builder.build();
}

/** The statement as the dialect's driver takes it. */
export function renderSql(query: Sql, dialect: Dialect): { text: string; values: SqlValue[] } {
  const text = query.texts.map((piece, at) => (at === 0 ? piece : `${dialect === 'sqlite' ? '?' : `$${at}`}${piece}`)).join('');
  return { text, values: [...query.values] };
}
