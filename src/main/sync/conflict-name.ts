/**
 * The name of a conflict copy (DESIGN.md §3): `name (conflict YYYY-MM-DD HHMMSS).ext` beside the file,
 * in local time, with ` 2`, ` 3`, … inside the parentheses when that name is taken. Pure: the time and
 * the taken names are inputs.
 */
const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

export function conflictCopyName(relPath: string, nowMs: number, taken: (relPath: string) => boolean): string {
  const slash = relPath.lastIndexOf('/');
  const dir = relPath.slice(0, slash + 1);
  const name = relPath.slice(slash + 1);
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  const at = new Date(nowMs);
  const stamp = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())} ${pad(at.getHours())}${pad(at.getMinutes())}${pad(at.getSeconds())}`;
  for (let n = 1; ; n++) {
    const candidate = `${dir}${stem} (conflict ${stamp}${n === 1 ? '' : ` ${n}`})${ext}`;
    if (!taken(candidate)) return candidate;
  }
}
