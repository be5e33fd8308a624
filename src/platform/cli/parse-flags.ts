/**
 * Flag parsing for every command: node:util's parseArgs in strict mode, with its errors turned into
 * USAGE errors a person can act on (`unknown option --onse; did you mean --once?`) that name the
 * command's help, stray arguments refused, and small typed readers for numbers and URLs.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError } from './cli-error.js';

type Options = NonNullable<ParseArgsConfig['options']>;

export interface ParseOptions {
  /** How many positional arguments the command takes (default none: a stray word is a mistake). */
  positionals?: number;
}

export function parseFlags<O extends Options>(command: string, args: string[], options: O, parse: ParseOptions = {}) {
  const all = { ...options, help: { type: 'boolean', short: 'h' } } as const;
  let parsed;
  try {
    parsed = parseArgs({ args, options: all, strict: true, allowPositionals: true });
  } catch (error) {
    throw new CliError('USAGE', `${explainParseError(error, Object.keys(all))} (see \`asset-sync ${command} --help\`)`);
  }
  const extra = parsed.positionals.slice(parse.positionals ?? 0);
  if (extra.length > 0) {
    throw new CliError('USAGE', `unexpected argument${extra.length === 1 ? '' : 's'} ${extra.map((word) => `"${word}"`).join(' ')} (see \`asset-sync ${command} --help\`)`);
  }
  return parsed;
}

/** node:util's parse errors in our words: `unknown option --onse; did you mean --once?`. */
function explainParseError(error: unknown, known: readonly string[]): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
  const unknown = /^Unknown option '([^']+)'/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown !== undefined) {
    const guess = closestOption(unknown.replace(/^-+/, ''), known);
    return `unknown option ${unknown}${guess === undefined ? '' : `; did you mean --${guess}?`}`;
  }
  const missing = /^Option '(-[^ ']*)(?:, )?(--[^ ']+)? <value>' argument missing/.exec(message);
  if (missing !== null) return `${missing[2] ?? missing[1] ?? 'an option'} needs a value`;
  // `--port -1`: parseArgs will not take a value that looks like an option.
  const ambiguous = /^Option '(-[^']+)' argument is ambiguous/.exec(message);
  if (ambiguous !== null) return `${ambiguous[1] ?? 'an option'} needs a value; to give one that starts with a dash, write ${ambiguous[1] ?? '--option'}=VALUE`;
  const noValue = /^Option '([^']+)' does not take an argument/.exec(message);
  if (noValue !== null) return `${noValue[1] ?? 'this option'} takes no value`;
  return message.split('\n')[0] ?? 'invalid arguments';
}

/** The known option nearest to `typed` (at most two edits away, or one it starts), if any. */
export function closestOption(typed: string, known: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = name.startsWith(typed) && typed.length >= 2 ? 1 : editDistance(typed, name);
    if (distance <= 2 && (best === undefined || distance < best.distance)) best = { name, distance };
  }
  return best?.name;
}

/** Levenshtein distance, with a swap of two neighbours counting as one edit (`--onse` → `--once` is one). */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  const at = (i: number, j: number): number => rows[i]?.[j] ?? Infinity;
  for (let i = 1; i <= a.length; i++) {
    const row = rows[i];
    if (row === undefined) continue;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let value = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, at(i - 2, j - 2) + 1);
      row[j] = value;
    }
  }
  return at(a.length, b.length);
}

export function integerFlag(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value.trim())) throw new CliError('USAGE', `--${name} must be a whole number, got "${value}".`);
  const number = Number(value);
  if (number < min || number > max) throw new CliError('USAGE', `--${name} must be between ${min} and ${max}, got ${number}.`);
  return number;
}

/** A TCP port: 1–65535, or 0 for "any free one" where `allowAny` says the command takes that. */
export function portFlag(name: string, value: string | undefined, fallback: number, allowAny = true): number {
  if (value === undefined) return fallback;
  const range = allowAny ? 'from 1 to 65535 (0 picks a free one)' : 'from 1 to 65535';
  const text = value.trim();
  const number = /^\d{1,5}$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(number) || number > 65535 || (number === 0 && !allowAny)) throw new CliError('USAGE', `--${name} must be a port number ${range}, got "${value}".`);
  return number;
}

export function urlFlag(name: string, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new CliError('USAGE', `--${name} must be an absolute http(s) URL, got "${value}".`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CliError('USAGE', `--${name} must use http or https, got "${url.protocol}".`);
  return url.toString().replace(/\/+$/, '');
}

export function requiredFlag(command: string, name: string, value: string | undefined): string {
  if (value === undefined || value.trim() === '') throw new CliError('USAGE', `asset-sync ${command} needs --${name} (see \`asset-sync ${command} --help\`).`);
  return value;
}

/** A flag that may be left out but, when given, must not be empty (`--admin-password ""` is a mistake, not a password). */
export function nonEmptyFlag(name: string, value: string | undefined): string | undefined {
  if (value === '') throw new CliError('USAGE', `--${name} must not be empty.`);
  return value;
}

/** An environment variable set to the empty string (`VAR= command`) counts as not set. */
export function envValue(value: string | undefined): string | undefined {
  return value === '' ? undefined : value;
}
