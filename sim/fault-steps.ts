/**
 * The steps a seed's scenario gains beyond generateScenario's: a file replaced by a folder, a mass
 * delete and an unmounted root (guards.ts checks the last two). Drawn from a stream of their own and
 * inserted into the generated list, so a seed that draws none runs the steps it always ran.
 */
import { Prng } from './prng.js';
import type { Step } from './scenario.js';

const FILES = ['a.txt', 'b.txt', 'A/a.txt', 'A/C/b.txt', 'B/c.txt', 'Logo.png'];

export function withFaultSteps(seed: number, generated: readonly Step[], clients: number): Step[] {
  const random = new Prng(seed ^ 0x6a2d5f1);
  const steps = [...generated];
  // After every client's first sync.
  const insert = (step: Step): void => {
    steps.splice(clients + random.int(steps.length - clients + 1), 0, step);
  };
  if (random.chance(0.4)) insert({ kind: 'file-to-folder', client: random.int(clients), path: random.pick(FILES), content: `s${seed}-folder` });
  if (random.chance(0.25)) insert({ kind: 'mass-delete', client: random.int(clients), content: `s${seed}-bulk` });
  if (random.chance(0.25)) insert({ kind: 'unmount', client: random.int(clients) });
  return steps;
}
