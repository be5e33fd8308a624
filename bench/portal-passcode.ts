/**
 * Benchmark: what one protected-portal request pays for its passcode. Baseline: the scrypt check every
 * request used to run (passcodes.ts). Measured: `verifiedPasscodes` answering a visitor who was already
 * accepted (an HMAC and a Map lookup), and its cold first check (scrypt plus the HMAC). Sequential, so
 * each figure is CPU time of one check on an idle core; under load scrypt's share only grows.
 */
import { systemClock } from '../src/service/clock.js';
import { hashPasscode, passcodeMatches } from '../src/service/portals/passcodes.js';
import { verifiedPasscodes } from '../src/service/portals/verified-passcodes.js';

export interface PortalPasscodeBenchResult {
  scryptMs: number;
  coldMs: number;
  hitMs: number;
}

async function averageMs(count: number, run: (index: number) => Promise<unknown>): Promise<number> {
  const started = performance.now();
  for (let index = 0; index < count; index++) await run(index);
  return (performance.now() - started) / count;
}

export async function benchPortalPasscode(): Promise<PortalPasscodeBenchResult> {
  const stored = await hashPasscode('open sesame');
  const cache = verifiedPasscodes(systemClock);
  const scryptMs = await averageMs(20, () => passcodeMatches('open sesame', stored));
  // A fresh portal id each time: every check is a first visit.
  const coldMs = await averageMs(20, (index) => cache.matches(`cold-${index}`, stored, 'open sesame'));
  const hitMs = await averageMs(20_000, () => cache.matches('cold-0', stored, 'open sesame'));
  return { scryptMs, coldMs, hitMs };
}

export function formatPortalPasscodeBench(r: PortalPasscodeBenchResult): string[] {
  return [
    'one protected-portal passcode check, average of sequential checks',
    `  baseline (scrypt on every request):        ${r.scryptMs.toFixed(2)} ms`,
    `  first visit (scrypt + HMAC, remembered):   ${r.coldMs.toFixed(2)} ms`,
    `  later requests (HMAC + lookup):            ${r.hitMs.toFixed(4)} ms  (${(r.scryptMs / r.hitMs).toFixed(0)}× cheaper)${r.hitMs < 1 ? '' : '  BELOW TARGET (< 1 ms)'}`,
  ];
}
