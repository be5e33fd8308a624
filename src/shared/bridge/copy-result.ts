/**
 * What copying into a synced folder did, and how it is said: how many files, into which folder, and
 * every name that was taken so the copy got another. A copy never writes over a file (copy-in.ts); the
 * user learns the name it got instead of finding "README (2).txt" later. Shared by the window's
 * notice and the desktop's tray notification.
 */

/** A dropped file or folder that landed under another name; both paths relative to the synced folder. */
export interface RenamedCopy {
  asked: string;
  named: string;
}

export interface CopyResult {
  copied: number;
  /** Every item that got another name, in the order they were copied. */
  renamed: RenamedCopy[];
}

/** The names shown in full before "and N more". */
const NAMED_AT_MOST = 3;

const quoted = (path: string): string => `“${path}”`;
const files = (count: number): string => `${count.toLocaleString('en-US')} ${count === 1 ? 'file' : 'files'}`;

function list(names: string[]): string {
  const shown = names.slice(0, NAMED_AT_MOST).map(quoted);
  const more = names.length - shown.length;
  if (more > 0) return `${shown.join(', ')} and ${more.toLocaleString('en-US')} more`;
  if (shown.length <= 1) return shown.join('');
  return `${shown.slice(0, -1).join(', ')} and ${shown.at(-1) ?? ''}`;
}

/** "Copied 3 files into “Design”." and, when names were taken, what the copies are called. */
export function copyOutcome(result: CopyResult, folderName: string): string {
  const done = `Copied ${files(result.copied)} into ${quoted(folderName)}.`;
  const [only] = result.renamed;
  if (only === undefined) return done;
  if (result.renamed.length === 1) return `${done} ${quoted(only.asked)} was already there, so the copy is named ${quoted(only.named)}.`;
  return `${done} ${result.renamed.length.toLocaleString('en-US')} names were already there, so the copies are named ${list(result.renamed.map((entry) => entry.named))}.`;
}
