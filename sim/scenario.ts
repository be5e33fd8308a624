/**
 * A seed's scenario: what the users do, as a plain list of steps, so a failing seed can be shrunk by
 * dropping steps and its trace read by a person. Paths come from a small pool so that users collide
 * (same names, same folders, edits racing deletes), which is where sync bugs live. A step whose file
 * is not there when it runs (its creation was shrunk away, or a sync moved it) is skipped.
 * Contents are unique per step, so any file anywhere can be traced back to the write that made it.
 */
import { Prng } from './prng.js';

export type Step =
  | { kind: 'sync'; client: number }
  | { kind: 'local-write'; client: number; path: string; content: string }
  | { kind: 'local-rename'; client: number; from: string; to: string }
  | { kind: 'local-delete'; client: number; path: string }
  | { kind: 'local-dir-rename'; client: number; from: string; to: string }
  | { kind: 'folder-to-file'; client: number; dir: string; content: string }
  | { kind: 'remote-write'; path: string; content: string }
  | { kind: 'remote-rename'; path: string; name: string }
  | { kind: 'remote-move'; path: string; dir: string }
  | { kind: 'remote-bin'; path: string }
  // Added per seed by fault-steps.ts (not by generateScenario, so older seeds keep their steps).
  | { kind: 'file-to-folder'; client: number; path: string; content: string }
  | { kind: 'mass-delete'; client: number; content: string }
  | { kind: 'unmount'; client: number }
  // Added per seed by withFolderSteps (below), from a stream of their own.
  | { kind: 'remote-folder-rename'; path: string; name: string }
  | { kind: 'conflict-folder-rename'; client: number; path: string; content: string; to: string };

export interface ScenarioOptions {
  clients: number;
  steps: number;
}

const DIRS = ['', 'A', 'B', 'A/C'];
// Case and normalisation twins collide on macOS and Windows disks (name-map.ts).
const NAMES = ['a.txt', 'b.txt', 'c.txt', 'Logo.png', 'logo.png', 'caf\u00e9.txt', 'cafe\u0301.txt'];

const join = (dir: string, name: string): string => (dir === '' ? name : `${dir}/${name}`);

export function generateScenario(seed: number, options: ScenarioOptions): Step[] {
  const random = new Prng(seed ^ 0x5ce7a610);
  const steps: Step[] = [];
  const path = (): string => join(random.pick(DIRS), random.pick(NAMES));
  const client = (): number => random.int(options.clients);
  const content = (): string => `s${seed}-${steps.length}-${'x'.repeat(random.int(40))}`;
  // Every client starts with a first sync, so there is something to diverge from.
  for (let index = 0; index < options.clients; index++) steps.push({ kind: 'sync', client: index });
  while (steps.length < options.steps) {
    const roll = random.next();
    if (roll < 0.3) steps.push({ kind: 'sync', client: client() });
    else if (roll < 0.55) steps.push({ kind: 'local-write', client: client(), path: path(), content: content() });
    else if (roll < 0.63) steps.push({ kind: 'local-rename', client: client(), from: path(), to: path() });
    else if (roll < 0.69) steps.push({ kind: 'local-delete', client: client(), path: path() });
    else if (roll < 0.72) steps.push({ kind: 'local-dir-rename', client: client(), from: random.pick(DIRS.slice(1)), to: random.pick(['D', 'B/E', 'A2']) });
    else if (roll < 0.74) steps.push({ kind: 'folder-to-file', client: client(), dir: random.pick(DIRS.slice(1)), content: content() });
    else if (roll < 0.84) steps.push({ kind: 'remote-write', path: path(), content: content() });
    else if (roll < 0.89) steps.push({ kind: 'remote-rename', path: path(), name: random.pick(NAMES) });
    else if (roll < 0.94) steps.push({ kind: 'remote-move', path: path(), dir: random.pick(DIRS) });
    else steps.push({ kind: 'remote-bin', path: path() });
  }
  return steps;
}

export function describeStep(step: Step): string {
  switch (step.kind) {
    case 'sync':
      return `client ${step.client} syncs`;
    case 'local-write':
      return `client ${step.client} writes ${step.path} = ${step.content}`;
    case 'local-rename':
      return `client ${step.client} renames ${step.from} → ${step.to}`;
    case 'local-delete':
      return `client ${step.client} deletes ${step.path}`;
    case 'local-dir-rename':
      return `client ${step.client} renames folder ${step.from} → ${step.to}`;
    case 'folder-to-file':
      return `client ${step.client} replaces folder ${step.dir} with a file = ${step.content}`;
    case 'remote-write':
      return `colleague writes /${step.path} = ${step.content}`;
    case 'remote-rename':
      return `colleague renames /${step.path} → ${step.name}`;
    case 'remote-move':
      return `colleague moves /${step.path} → /${step.dir}`;
    case 'remote-bin':
      return `colleague bins /${step.path}`;
    case 'file-to-folder':
      return `client ${step.client} replaces file ${step.path} with a folder holding a.txt = ${step.content}`;
    case 'mass-delete':
      return `client ${step.client} writes 12 files in bulk/, syncs, then deletes everything in the folder`;
    case 'unmount':
      return `client ${step.client}'s folder is unmounted (an empty mount point left), it syncs, the folder is mounted again`;
    case 'remote-folder-rename':
      return `colleague renames folder /${step.path} → ${step.name}`;
    case 'conflict-folder-rename':
      return `client ${step.client} writes ${step.path} and syncs, the colleague writes it, client ${step.client} writes it again and syncs (a conflict), then renames its folder → ${step.to}; contents ${step.content}-1…3`;
  }
}

/** Folders as the scenario's users spell them, in both cases: a rename between two is a case-only rename. */
const FOLDERS = ['A', 'a', 'B', 'b', 'A/C', 'A/c'];
const FILES_IN_FOLDERS = ['A/a.txt', 'A/C/b.txt', 'B/c.txt', 'B/Logo.png'];

/** `A/C` → `A/c`: the last name in the other case. */
export function otherCase(path: string): string {
  const slash = path.lastIndexOf('/');
  const name = path.slice(slash + 1);
  const swapped = name === name.toUpperCase() ? name.toLowerCase() : name.toUpperCase();
  return `${path.slice(0, slash + 1)}${swapped}`;
}

/**
 * Folder renames the generator above never draws (issue 19's fourth round): renames that change a
 * folder's case only, by any client on its own disk and by the colleague through the API (`A` → `a`
 * on an exact-name disk leaves a case-insensitive one with two spellings of one folder), and a folder
 * renamed while a conflict in it waits for its user (the conflict must follow its original). Drawn
 * from a stream of their own and inserted after every client's first sync, so a seed that draws none
 * runs the steps it always ran.
 *
 * Case-only folder renames (a client's, the colleague's, and a conflict's folder renamed in case) are
 * drawn only with `caseFolders` (`npm run sim -- --case-folders`); without it the draws are made all
 * the same, so the other steps stay where they were. They reach an open bug (two options whose names
 * differ in case only) whose outcome follows the service's random option ids, so a seed that meets
 * it fails in some runs only (docs/simulation.md): the test suite's batch runs without them.
 */
export function withFolderSteps(seed: number, generated: readonly Step[], clients: number, caseFolders = false): Step[] {
  const random = new Prng(seed ^ 0xf01de5);
  const steps = [...generated];
  const insert = (step: Step, keep = true): void => {
    const at = clients + random.int(steps.length - clients + 1);
    if (keep) steps.splice(at, 0, step);
  };
  if (random.chance(0.3)) {
    const from = random.pick(FOLDERS);
    insert({ kind: 'local-dir-rename', client: random.int(clients), from, to: otherCase(from) }, caseFolders);
  }
  if (random.chance(0.25)) {
    const path = random.pick(FOLDERS);
    insert({ kind: 'remote-folder-rename', path, name: otherCase(path).slice(path.lastIndexOf('/') + 1) }, caseFolders);
  }
  if (random.chance(0.25)) {
    const path = random.pick(FILES_IN_FOLDERS);
    const dir = path.slice(0, path.lastIndexOf('/'));
    const client = random.int(clients);
    const inCase = random.chance(0.5);
    insert({ kind: 'conflict-folder-rename', client, path, content: `s${seed}-conflict`, to: inCase && caseFolders ? otherCase(dir) : 'D' });
  }
  return steps;
}
