/**
 * Benchmark: our engine beside the open tools a user would pick instead, on the same machine and the
 * same files, in one run: 10,000 files of 4 KiB in 100 folders (as sync-10k-small makes them), each
 * tool moving them from one folder to another place on this machine over loopback.
 *   - engine: `createEngine` → `syncOnce` on a fresh state dir into a new remote folder of the asset
 *     service (its own process), as sync-10k-small times it.
 *   - Syncthing: two instances, one folder shared send-only → receive-only (support/syncthing-pair.ts).
 *   - rclone: `rclone copy` to `rclone serve webdav` (support/rclone-webdav.ts), once with its defaults
 *     (4 transfers, 8 checkers) and once with more of both, rclone's documented lever for many small
 *     files on a fast remote (`--transfers` "bigger if you have lots of bandwidth and a fast remote").
 *     Neither can pass rclone's WebDAV pacing: its client spaces its calls at least 10 ms apart, and
 *     each new file costs about 3 (MKCOL, PUT, PROPFIND); rclone 1.60 has no flag to change that.
 * Each side starts from the files in place and nothing received, and is timed until the other place
 * holds them all; each side's best round counts, the order rotating each round with a pause before
 * each run (support/fair-rounds.ts). Files get new bytes each round and what each side received is
 * kept until the end (SMALL FILES in sync-engine.ts). A tool that is not installed is skipped with a
 * line saying how to install it; one that fails is reported and dropped, never failing the whole run.
 * Run alone: `BENCH_PEER_FILES=1000 node --import tsx bench/peers.ts`.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { engineSync, renewSmallFiles, writeSmallFiles, type SyncRun } from './sync-engine.js';
import { rotatingRounds } from './support/fair-rounds.js';
import type { PeerRun } from './support/peer-run.js';
import { rcloneCopy, rcloneVersion, startWebdavServer, type WebdavServer } from './support/rclone-webdav.js';
import { startServiceChild } from './support/service-child.js';
import { syncthingInitialSync, syncthingVersion } from './support/syncthing-pair.js';

/**
 * A side whose run took longer than this runs no more rounds: the rounds are there to beat noise of a
 * second or two, under 3 % of such a run, and more rounds of it would take most of an hour (rclone to
 * WebDAV at 10,000 files: its WebDAV client spaces its calls at least 10 ms apart, about 3 per file).
 */
export const ONE_ROUND_ABOVE_MS = 60_000;

/** The flags of the rclone run set for many small files (see the header). */
export const RCLONE_SMALL_FILE_FLAGS = ['--transfers', '16', '--checkers', '16'];

export interface PeerResult {
  /** Short name used in the ratio line ("Syncthing", "rclone", "rclone tuned"). */
  name: string;
  /** What ran and how it was set up, for its line of output. */
  setup: string;
  /** What its two CPU figures are of (["sender", "receiver"], ["client", "server"]). */
  cpuOf: [string, string];
  /** Its best run, when it ran. */
  best?: PeerRun;
  /** How many rounds it ran (fewer than the bench's when a run took over ONE_ROUND_ABOVE_MS). */
  runs: number;
  /** Why it did not run, or stopped running (one line). */
  skipped?: string;
}

export interface PeersBenchResult {
  files: number;
  bytes: number;
  rounds: number;
  /** Our engine's best run; undefined when no peer was installed (nothing to compare, nothing run). */
  engine?: SyncRun;
  engineRuns?: number;
  peers: PeerResult[];
}

interface PeerSide extends PeerResult {
  run: (round: number) => Promise<PeerRun>;
}

export async function benchPeers(count = Number(process.env.BENCH_PEER_FILES ?? 10_000), size = 4096, rounds = Number(process.env.BENCH_ROUNDS ?? 4)): Promise<PeersBenchResult> {
  const bytes = count * size;
  const dir = mkdtempSync(join(tmpdir(), 'asset-sync-bench-peers-'));
  const source = join(dir, 'source');
  let webdav: WebdavServer | undefined;
  const peers: PeerSide[] = [];
  const notRun = (name: string, skipped: string): PeerSide => ({ name, setup: '', cpuOf: ['', ''], skipped, runs: 0, run: () => Promise.reject(new Error(skipped)) });
  try {
    const syncthing = await syncthingVersion();
    peers.push(
      syncthing === undefined
        ? notRun('Syncthing', 'not installed, skipped (Debian: apt-get install syncthing)')
        : {
            name: 'Syncthing',
            setup: `Syncthing ${syncthing}, two instances, send-only → receive-only`,
            cpuOf: ['sender', 'receiver'],
            runs: 0,
            run: (round) => {
              const target = join(dir, `syncthing-received-${round}`);
              mkdirSync(target);
              return syncthingInitialSync(join(dir, `syncthing-${round}`), source, target, count, bytes);
            },
          },
    );
    const rclone = await rcloneVersion();
    if (rclone === undefined) peers.push(notRun('rclone', 'not installed, skipped (Debian: apt-get install rclone)'));
    else {
      const copy = (name: string, flags: readonly string[]) => (round: number) => {
        if (webdav === undefined) throw new Error('no WebDAV server');
        return rcloneCopy(webdav, source, `${name}-${round}`, flags, count, bytes);
      };
      peers.push(
        { name: 'rclone', setup: `rclone ${rclone} copy → rclone serve webdav, defaults`, cpuOf: ['client', 'server'], runs: 0, run: copy('defaults', []) },
        { name: 'rclone tuned', setup: `rclone ${rclone} copy → rclone serve webdav, ${RCLONE_SMALL_FILE_FLAGS.join(' ')}`, cpuOf: ['client', 'server'], runs: 0, run: copy('tuned', RCLONE_SMALL_FILE_FLAGS) },
      );
    }
    if (peers.every((peer) => peer.skipped !== undefined)) return { files: count, bytes, rounds, peers };

    mkdirSync(source);
    const paths = writeSmallFiles(source, count, size);
    if (rclone !== undefined) {
      mkdirSync(join(dir, 'webdav'));
      try {
        webdav = await startWebdavServer(join(dir, 'webdav'));
      } catch (error) {
        for (const peer of peers) if (peer.name.startsWith('rclone')) peer.skipped = `failed to start (${error instanceof Error ? error.message : String(error)}), skipped`;
      }
    }
    const runnable = peers.filter((peer) => peer.skipped === undefined);
    const service = await startServiceChild(dir, 'service');
    let engine: SyncRun | undefined;
    let engineRuns = 0;
    try {
      const ours = async (): Promise<void> => {
        if ((engine?.ms ?? 0) > ONE_ROUND_ABOVE_MS) return;
        const run = await engineSync(service.child, service.token, source, count, []);
        engineRuns++;
        if (engine === undefined || run.ms < engine.ms) engine = run;
      };
      // A peer that fails is reported with the round it failed in and not run again.
      const peerSide = (peer: PeerSide) => async (round: number): Promise<void> => {
        if (peer.skipped !== undefined || (peer.best?.ms ?? 0) > ONE_ROUND_ABOVE_MS) return;
        try {
          const run = await peer.run(round);
          peer.runs++;
          if (peer.best === undefined || run.ms < peer.best.ms) peer.best = run;
        } catch (error) {
          peer.skipped = `failed in round ${round + 1} (${error instanceof Error ? error.message : String(error)}), dropped`;
        }
      };
      await rotatingRounds(rounds, {
        beforeRound: (round) => {
          if (round > 0) renewSmallFiles(paths, size);
        },
        sides: [ours, ...runnable.map(peerSide)],
      });
    } finally {
      await service.child.stop();
    }
    if (engine === undefined) throw new Error('no rounds');
    return { files: count, bytes, rounds, engine, engineRuns, peers };
  } finally {
    await webdav?.program.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatPeersBench(result: PeersBenchResult): string[] {
  const label = (text: string): string => `  ${`${text}:`.padEnd(62)} `;
  const figures = (run: PeerRun | SyncRun, runs: number, client: string, server: string): string =>
    `${(run.ms / 1000).toFixed(2)} s, ${(result.files / (run.ms / 1000)).toFixed(0)} files/s; CPU ${(run.clientCpuMs / 1000).toFixed(1)} s ${client} + ${(run.serverCpuMs / 1000).toFixed(1)} s ${server}${runs < result.rounds ? ` (${runs} ${runs === 1 ? 'round' : 'rounds'})` : ''}`;
  const lines = [`${result.files.toLocaleString('en')} files of ${result.bytes / result.files / 1024} KiB in 100 folders, initial sync to another place on this machine (loopback); best of ${result.rounds} rounds each (one for a side whose run took over ${ONE_ROUND_ABOVE_MS / 1000} s)`];
  if (result.engine !== undefined) lines.push(`${label('engine (createEngine → syncOnce → asset service)')}${figures(result.engine, result.engineRuns ?? 0, 'client', 'service')}`);
  for (const peer of result.peers) {
    if (peer.best !== undefined) lines.push(`${label(peer.setup)}${figures(peer.best, peer.runs, ...peer.cpuOf)}`);
    if (peer.skipped !== undefined) lines.push(`  ${peer.setup === '' ? peer.name : peer.setup}: ${peer.skipped}`);
  }
  const engine = result.engine;
  const ratios = engine === undefined ? [] : result.peers.flatMap((peer) => (peer.best === undefined ? [] : [{ name: peer.name, ratio: peer.best.ms / engine.ms }]));
  lines.push(
    ratios.length === 0
      ? '  no peer tool ran: nothing to compare'
      : `  ratio engine files/s ÷ peer's (target > 1.00): ${ratios.map(({ name, ratio }) => `${name} ${ratio.toFixed(2)}${ratio > 1 ? '' : ' BEHIND'}`).join(', ')}`,
  );
  return lines;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const line of formatPeersBench(await benchPeers())) process.stdout.write(`${line}\n`);
}
