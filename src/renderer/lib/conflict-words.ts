/**
 * The words of a conflict: who changed each version, the question asked before one version is kept, and
 * the toast after, which says where the other version went. They say what resolving really does
 * (src/main/sync/resolve-conflict.ts): keeping theirs sends our copy to the Trash; keeping mine puts our
 * copy back under the file's name (a change made to that file here since goes to the Trash first), the
 * next sync uploads it as a new version, and the service keeps its version in the file's history;
 * keeping both lets our copy sync as a file of its own beside it.
 */
import type { ConflictChoice } from '../../shared/bridge/app-bridge.js';
import type { ConflictAuthor, ConflictSideName, ConflictView } from '../../shared/bridge/app-state.js';
import { baseName } from './format.js';

/** Who changed a version, for its "By" line; undefined when it is not known (the line is left out). */
export function authorWords(side: ConflictSideName, author: ConflictAuthor | null): string | undefined {
  // The local copy was changed here, by whoever uses this computer.
  if (side === 'mine') return 'You, on this computer';
  if (author === null) return undefined;
  return author.kind === 'you' ? 'You, in the service' : author.name;
}

export interface KeepQuestion {
  question: string;
  /** What happens to each version, the other one first. */
  detail: string;
  /** The button that goes ahead. */
  confirm: string;
}

/** The question asked before keeping one version: where the other goes. Keeping both loses nothing and is not asked. */
export function keepQuestion(conflict: Pick<ConflictView, 'relPath' | 'copyPath'>, keep: Exclude<ConflictChoice, 'both'>): KeepQuestion {
  const name = baseName(conflict.relPath);
  const copy = baseName(conflict.copyPath);
  if (keep === 'theirs') {
    return {
      question: `Keep the service’s version of “${name}”?`,
      detail: `Your version, “${copy}”, goes to the Trash. “${name}” stays as it is in the service.`,
      confirm: 'Keep theirs',
    };
  }
  return {
    question: `Keep your version of “${name}”?`,
    detail: `The service keeps its version in the file’s history there. Your version, “${copy}”, takes the name “${name}” and is uploaded as a new version; a change made to “${name}” on this computer since goes to the Trash.`,
    confirm: 'Keep mine',
  };
}

/** The toast once it is resolved: what was kept, and where the other version went. */
export function keptWords(conflict: Pick<ConflictView, 'relPath' | 'copyPath'>, keep: ConflictChoice): string {
  const name = baseName(conflict.relPath);
  const copy = baseName(conflict.copyPath);
  switch (keep) {
    case 'theirs':
      return `Kept the service’s version of “${name}”. Your version, “${copy}”, went to the Trash.`;
    case 'mine':
      return `Kept your version of “${name}”; it uploads as a new version. The service’s version stays in the file’s history there.`;
    case 'both':
      return `Kept both versions of “${name}”. Yours stays beside it as “${copy}” and syncs as a file of its own.`;
  }
}
