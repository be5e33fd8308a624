/**
 * A V8 CPU profile of this process's main thread over chosen stretches (the transform bench's rounds
 * of ours, with BENCH_CPU_PROFILE=dir), and a summary of profiles by function and file: where the main
 * thread's time went, self and inclusive. Samples are wall-clock on the main thread; (idle) is time it
 * waited, so the rest is what it spent (CPU, on a machine not otherwise loaded).
 */
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

/** Profiles the main thread between `start` and `stop`, writing each stretch to `dir` as a .cpuprofile. */
export class MainThreadProfiler {
  private readonly session = new Session();
  private count = 0;

  constructor(private readonly dir: string) {
    this.session.connect();
  }

  async start(): Promise<void> {
    await this.session.post('Profiler.enable');
    await this.session.post('Profiler.setSamplingInterval', { interval: 200 });
    await this.session.post('Profiler.start');
  }

  async stop(name: string): Promise<void> {
    const { profile } = await this.session.post('Profiler.stop');
    writeFileSync(join(this.dir, `${String(++this.count).padStart(2, '0')}-${name}.cpuprofile`), JSON.stringify(profile));
  }

  close(): void {
    this.session.disconnect();
  }
}

export interface ProfileSummary {
  totalMs: number;
  idleMs: number;
  /** By `function file:line`, ms. */
  self: Map<string, number>;
  inclusive: Map<string, number>;
  /** By file (or (program), (garbage collector)), ms. */
  selfByFile: Map<string, number>;
}

const add = (map: Map<string, number>, key: string, ms: number): void => void map.set(key, (map.get(key) ?? 0) + ms);

function fileOf(url: string): string {
  if (url === '') return '(native)';
  const nodeModules = url.lastIndexOf('node_modules/');
  if (nodeModules !== -1) return url.slice(nodeModules + 'node_modules/'.length).split('/').slice(0, 2).join('/');
  const src = url.search(/\/(src|bench)\//);
  return src === -1 ? url.replace(/^file:\/\//, '') : url.slice(src + 1);
}

/** Sums profiles: each sample's time goes to its leaf (self) and once to each distinct frame on its stack (inclusive). */
export function summarise(profiles: readonly CpuProfile[]): ProfileSummary {
  const summary: ProfileSummary = { totalMs: 0, idleMs: 0, self: new Map(), inclusive: new Map(), selfByFile: new Map() };
  for (const profile of profiles) {
    const byId = new Map(profile.nodes.map((node) => [node.id, node]));
    const parent = new Map<number, number>();
    for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
    const name = (node: ProfileNode): string => {
      const { functionName, url, lineNumber } = node.callFrame;
      return url === '' ? functionName || '(anonymous)' : `${functionName || '(anonymous)'} ${fileOf(url)}:${lineNumber + 1}`;
    };
    const deltas = [...profile.timeDeltas].sort((a, b) => a - b);
    const cap = 2 * (deltas[Math.floor(deltas.length / 2)] ?? 0);
    for (const [index, id] of profile.samples.entries()) {
      const ms = Math.min(cap, profile.timeDeltas[index + 1] ?? 0) / 1000;
      const leaf = byId.get(id);
      if (leaf === undefined) continue;
      if (leaf.callFrame.functionName === '(idle)') {
        summary.idleMs += ms;
        continue;
      }
      summary.totalMs += ms;
      add(summary.self, name(leaf), ms);
      add(summary.selfByFile, leaf.callFrame.url === '' ? leaf.callFrame.functionName : fileOf(leaf.callFrame.url), ms);
      const seen = new Set<string>();
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        const node = byId.get(at);
        if (node === undefined) break;
        const key = name(node);
        if (seen.has(key)) continue;
        seen.add(key);
        add(summary.inclusive, key, ms);
      }
    }
  }
  return summary;
}

/**
 * Runs `run`, under a main-thread CPU profile written to `$BENCH_CPU_PROFILE/NN-name.cpuprofile` when
 * that variable names a directory (the engine's rounds of the sync and download benches), so a bench
 * shows where its client's time went without a profiler of its own.
 */
export async function profiledWhenAsked<T>(name: string, run: () => Promise<T>): Promise<T> {
  const dir = process.env.BENCH_CPU_PROFILE;
  if (dir === undefined || dir === '') return run();
  const profiler = new MainThreadProfiler(dir);
  await profiler.start();
  try {
    return await run();
  } finally {
    await profiler.stop(name);
    profiler.close();
  }
}
