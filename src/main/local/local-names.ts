/**
 * Local names for what the service calls things (DESIGN.md §3, §4.7): a remote name becomes a legal,
 * syncable name on this disk (safe-local-name.ts, then the scanner's own rules, so a downloaded file is
 * never one the scanner refuses and downloads again), and names that clash in one folder are told apart
 * stably: `logo.png`, `logo (2).png`, … by the owners' ids, so every pass and every machine agrees.
 * Pure: no disk, no clock.
 */
import { nameProblem } from '../../shared/api/remote-path.js';
import { safeLocalName } from './safe-local-name.js';

/** A name the service returned, as this machine will store it. Never contains `/`, never `.` or `..`. */
export function localNameOf(remoteName: string, platform: NodeJS.Platform = process.platform): string {
  let name = safeLocalName(remoteName, platform);
  if (nameProblem(name) !== undefined) {
    // Leading or trailing white space: legal on disk, refused by the scanner (and the service).
    name = name.replace(/^\s+|\s+$/gu, (run) => '_'.repeat(run.length));
    if (nameProblem(name) !== undefined) name = safeLocalName(`_${name}_`, platform);
  }
  return name;
}

/** `logo.png` → `logo (n).png`; `README` → `README (n)`; `.env` → `.env (n)`. */
export function numberedName(name: string, n: number): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)} (${n})${name.slice(dot)}` : `${name} (${n})`;
}

/** `Logo (2).png` → `Logo.png`: the name `numberedName` numbered. */
export function unnumbered(name: string): string {
  return name.replace(/ \(\d+\)(?=\.[^.]*$|$)/u, '');
}

/**
 * Whether `localName` is how this disk holds the service's `remoteName`: made safe, numbered apart from
 * a namesake or not. Such a name is the engine's, not its user's, and never goes up as a rename.
 */
export function spellsHere(localName: string, remoteName: string, platform: NodeJS.Platform = process.platform): boolean {
  const here = localNameOf(remoteName, platform);
  return localName === here || unnumbered(localName) === here;
}

/**
 * How a disk tells names apart (DESIGN.md §3: "Paths are compared NFC-normalised; on case-insensitive
 * disks case-folded"): the key two names share when the disk holds only one of them.
 */
export type NameKey = (name: string) => string;

/** Names as relPaths hold them: already NFC, so equal keys are equal strings. */
export const exactNames: NameKey = (name) => name;

/** APFS and NTFS defaults: `Logo.png` and `logo.png` are one entry (NFC and NFD spellings too). */
export const caseFoldedNames: NameKey = (name) => name.normalize('NFC').toLowerCase();

/**
 * Gives every owner in one folder a distinct name. `owners` are `{ key, name }` (key: an asset or option
 * id); `taken` are names already used in the folder by something else (e.g. sub-folders). Owners of a
 * clashing name are sorted by key: the first keeps the name, the others get the lowest free number.
 * Names clash when `nameKey` says the disk would hold them as one (on a case-insensitive disk
 * `logo.png` and `Logo.png` become `logo.png` and `Logo (2).png`); each keeps its own spelling.
 */
export function disambiguate(owners: readonly { key: string; name: string }[], taken: ReadonlySet<string> = new Set(), nameKey: NameKey = exactNames): Map<string, string> {
  const byName = new Map<string, { key: string; name: string }[]>();
  for (const owner of owners) {
    const folded = nameKey(owner.name);
    byName.set(folded, [...(byName.get(folded) ?? []), owner]);
  }
  const used = new Set<string>([...taken].map(nameKey));
  const result = new Map<string, string>();
  const clashes: { key: string; name: string }[][] = [];
  // Unique names first, so a real `logo (2).png` keeps its name and a numbered one goes around it.
  for (const [folded, group] of [...byName].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const sorted = [...group].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    const [first, ...rest] = sorted;
    if (first === undefined) continue;
    if (rest.length === 0 && !used.has(folded)) {
      result.set(first.key, first.name);
      used.add(folded);
    } else {
      clashes.push(sorted);
    }
  }
  for (const group of clashes) {
    for (const { key, name } of group) {
      let candidate = name;
      for (let n = 2; used.has(nameKey(candidate)); n++) candidate = numberedName(name, n);
      result.set(key, candidate);
      used.add(nameKey(candidate));
    }
  }
  return result;
}
