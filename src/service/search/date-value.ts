/**
 * Reads a date written in a criterion (ISO-8601) as the span of time it names, in the stored form
 * (`toISOString()`, UTC with milliseconds), so comparisons are plain text comparisons on the columns.
 * A date-only value (`2026-07-01`) names that whole UTC day; a timestamp names its millisecond; a timestamp
 * without an offset is UTC. The span is half-open: [start, end). Rejects impossible dates (Feb 30).
 */

export interface DateSpan {
  start: string;
  end: string;
}

const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?$/i;
const DAY_MS = 24 * 3600 * 1000;

/** Epoch ms of a UTC time; unlike `Date.UTC`, years 0–99 are not read as 1900–1999. */
function utc(year: number, monthIndex: number, day: number, hour = 0, minute = 0, second = 0, millis = 0): number {
  const date = new Date(0);
  date.setUTCFullYear(year, monthIndex, day);
  date.setUTCHours(hour, minute, second, millis);
  return date.getTime();
}

function daysIn(year: number, month: number): number {
  return new Date(utc(year, month, 0)).getUTCDate();
}

function offsetMinutes(zone: string | undefined): number {
  if (zone === undefined || zone.toUpperCase() === 'Z') return 0;
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2, 4)));
}

export function parseDateSpan(text: string): DateSpan | undefined {
  const trimmed = text.trim();
  const dateOnly = DATE_ONLY.exec(trimmed);
  const parts = dateOnly ?? DATE_TIME.exec(trimmed);
  if (parts === null) return undefined;
  const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysIn(year, month)) return undefined;
  if (dateOnly !== null) {
    const start = utc(year, month - 1, day);
    return { start: new Date(start).toISOString(), end: new Date(start + DAY_MS).toISOString() };
  }
  const [hour, minute, second] = [Number(parts[4]), Number(parts[5]), Number(parts[6] ?? 0)];
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const millis = Number((parts[7] ?? '0').padEnd(3, '0').slice(0, 3));
  const instant = utc(year, month - 1, day, hour, minute, second, millis) - offsetMinutes(parts[8]) * 60_000;
  const start = new Date(instant);
  if (Number.isNaN(instant) || start.getUTCFullYear() < 0 || start.getUTCFullYear() > 9999) return undefined;
  return { start: start.toISOString(), end: new Date(instant + 1).toISOString() };
}
