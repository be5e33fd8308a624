/**
 * Flag parsing for every command: node:util's parseArgs in strict mode, with its errors turned into
 * USAGE errors that name the command's help, and small typed readers for numbers and URLs.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError } from './cli-error.js';

type Options = NonNullable<ParseArgsConfig['options']>;

export function parseFlags<O extends Options>(command: string, args: string[], options: O) {
  try {
    return parseArgs({ args, options: { ...options, help: { type: 'boolean', short: 'h' } }, strict: true, allowPositionals: true });
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    throw new CliError('USAGE', `${reason ?? 'invalid arguments'} (see \`asset-sync ${command} --help\`)`);
  }
}

export function integerFlag(name: string, value: string | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value.trim())) throw new CliError('USAGE', `--${name} must be a whole number, got "${value}".`);
  const number = Number(value);
  if (number < min || number > max) throw new CliError('USAGE', `--${name} must be between ${min} and ${max}, got ${number}.`);
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
