/**
 * `npx tsx bench/support/summarise-profiles.ts DIR [IMAGES] [TOP]`: the main thread's time in the
 * .cpuprofile files of DIR (see cpu-profile.ts), per image when IMAGES (images over all profiles) is given.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { summarise, type CpuProfile } from './cpu-profile.js';

const [dir = '.', imagesArg, topArg] = process.argv.slice(2);
const images = Number(imagesArg ?? 1);
const top = Number(topArg ?? 40);
const profiles = readdirSync(dir)
  .filter((name) => name.endsWith('.cpuprofile'))
  .map((name) => JSON.parse(readFileSync(join(dir, name), 'utf8')) as CpuProfile);
const summary = summarise(profiles);
const perProfile = profiles.map((profile) => summarise([profile]).totalMs);
const per = (ms: number): string => (ms / images).toFixed(2).padStart(8);
const table = (title: string, map: Map<string, number>): void => {
  process.stdout.write(`\n${title} (ms per image)\n`);
  for (const [key, ms] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top)) process.stdout.write(`${per(ms)}  ${key}\n`);
};
process.stdout.write(`${profiles.length} profiles, ${images} images: busy ${per(summary.totalMs)} ms per image, idle ${per(summary.idleMs)}\n`);
process.stdout.write(`busy ms by profile: ${perProfile.map((ms) => ms.toFixed(0)).join(', ')}\n`);
table('self, by file', summary.selfByFile);
table('self, by function', summary.self);
table('inclusive, by function', summary.inclusive);
