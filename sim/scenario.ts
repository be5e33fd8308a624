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
  | { kind: 'unmount'; client: number };

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
  }
}
