/**
 * Numbers, sizes, rates and times in the words the window shows. Pure and locale-fixed (en), so the
 * same state always reads the same and the browser tests can assert the text.
 */

const count = new Intl.NumberFormat('en-US');

/** `2,431`. */
export function formatCount(value: number): string {
  return count.format(value);
}

/** `1 file`, `2,431 files`. */
export function plural(value: number, one: string, many = `${one}s`): string {
  return `${formatCount(value)} ${value === 1 ? one : many}`;
}

const units = ['bytes', 'KB', 'MB', 'GB', 'TB'] as const;

/** Decimal units as file managers show them: `512 bytes`, `1.2 MB`, `14 GB`. */
export function formatBytes(value: number): string {
  if (value < 1000) return `${formatCount(Math.max(0, Math.round(value)))} bytes`;
  let scaled = value;
  let unit = 0;
  while (scaled >= 1000 && unit < units.length - 1) {
    scaled /= 1000;
    unit += 1;
  }
  return `${scaled < 10 ? scaled.toFixed(1) : Math.round(scaled).toString()} ${units[unit] ?? 'TB'}`;
}

/** `12 MB/s`. */
export function formatRate(bytesPerSecond: number): string {
  return `${formatBytes(bytesPerSecond)}/s`;
}

/** Time left in rough words: `less than a minute`, `about 4 min`, `about 2 h 10 min`. */
export function formatEta(seconds: number): string {
  if (seconds < 60) return 'less than a minute left';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `about ${minutes} min left`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `about ${hours} h left` : `about ${hours} h ${rest} min left`;
}

/** `just now`, `5 min ago`, `3 h ago`, `yesterday`, else the date. */
export function formatAgo(iso: string, now: number): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '';
  const seconds = Math.max(0, (now - then) / 1000);
  if (seconds < 45) return 'just now';
  if (seconds < 3600) return `${Math.max(1, Math.round(seconds / 60))} min ago`;
  if (seconds < 86_400) return `${Math.round(seconds / 3600)} h ago`;
  if (seconds < 2 * 86_400) return 'yesterday';
  return formatDate(iso);
}

/** `in 30 s`, `in 4 min`, `at 14:05`. */
export function formatUntil(iso: string, now: number): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '';
  const seconds = Math.max(0, (then - now) / 1000);
  if (seconds < 60) return `in ${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 3600) return `in ${Math.round(seconds / 60)} min`;
  return `at ${formatClock(iso)}`;
}

const dateFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
const clockFormat = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit' });

/** `3 Mar 2026, 14:05`. */
export function formatDate(iso: string): string {
  const then = Date.parse(iso);
  return Number.isNaN(then) ? '' : dateFormat.format(then);
}

export function formatClock(iso: string): string {
  const then = Date.parse(iso);
  return Number.isNaN(then) ? '' : clockFormat.format(then);
}

/** The last part of a path: the folder or file name a person recognises. */
export function baseName(path: string): string {
  const parts = path.split(/[\\/]/).filter((part) => part !== '');
  return parts.at(-1) ?? path;
}

/** The folder part of a relative path, `''` at the top. */
export function dirName(relPath: string): string {
  const index = relPath.lastIndexOf('/');
  return index < 0 ? '' : relPath.slice(0, index);
}

/** A fraction in [0, 1] for a progress bar; 0 when nothing is planned. */
export function fraction(done: number, planned: number): number {
  if (planned <= 0) return 0;
  return Math.min(1, Math.max(0, done / planned));
}
