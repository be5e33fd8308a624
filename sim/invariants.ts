/**
 * The invariants of DESIGN.md §4, checked once the engines have settled without faults:
 * convergence (every client's folder equals the service's live assets, the conflict copies waiting for
 * their user and the names its status reports it cannot place aside), no
 * data loss (every content a user wrote and did not replace is on some disk, in a trash, or among
 * the service's versions, binned assets included), no partial files (every file and every current
 * asset file holds a whole written content), no duplicate assets (two live assets never hold the
 * same content: each write is unique, so a second one is a repeated create), no version going back
 * (an asset's versions never hold a write again after a newer one, save on top of the version it was
 * binned holding, `BinnedVersions`, or bytes a disk held behind their name's composed spelling,
 * `TwinSpellings`), and confinement (the engine wrote nothing outside its root and
 * the trash).
 */
import type { MemoryFileSystem } from '../src/main/local/memory-file-system.js';
import type { NameMode } from '../src/main/local/name-map.js';
import type { RemoteAsset } from './remote-view.js';
import type { UserWrites } from './user-writes.js';
import { md5Hex } from '../test/support/checksums.js';

export interface ClientView {
  index: number;
  disk: MemoryFileSystem;
  root: string;
  trash: string;
  /** How the client's disk compares names: its paths are compared with the service's the same way. */
  names: NameMode;
  breaches: readonly string[];
  /** What the client's status lists as not synced (read-status.ts), with the reason code. */
  notSynced: readonly { relPath: string; reason: string }[];
  /**
   * The conflict copies its status lists as waiting for the user: local only by design (DESIGN.md §3).
   * A copy the user renamed is the user's file and syncs; one moved under its conflict name still waits.
   */
  conflictCopies: readonly string[];
  /**
   * Assets whose synced file waits behind a name the service cannot hold (renamed to the decomposed
   * spelling of a name beside its composed one: NAME_CLASH): the service keeps the asset where it was,
   * and the client keeps the file under the name its user gave it until the user renames one of them.
   */
  heldBehindClash: ReadonlySet<string>;
}

/**
 * Reports of a name the service cannot hold beside another (NFC and NFD spellings of one name on a
 * Linux disk) or at all: such a file stays on its disk by design, so convergence leaves out exactly
 * the paths the client's status names, and nothing else.
 */
const UNPLACEABLE = new Set(['NAME_CLASH', 'INVALID_NAME', 'TOO_LONG']);

/** ` (2)` before the extension: the stable name a file gets beside a namesake (a file or a folder). */
const DISAMBIGUATED = / \(\d+\)(?=(\.[^/.]*)?$)/;

/** ` (2)` ending any name of a path (before a file's extension): a number no user of the simulation writes. */
const NUMBERED_SEGMENT = / \(\d+\)(?=(\.[^/.]*)?(\/|$))/;

/** The name the engine gives our side of a conflict (conflict-name.ts); no user of the simulation writes one. */
const CONFLICT_COPY = / \(conflict \d{4}-\d{2}-\d{2} \d{6}( \d+)?\)/;

/** Every file under `dir`, relPath → content (the engine's own `.asset-sync/` left out). */
export function filesUnder(disk: MemoryFileSystem, dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (path: string, prefix: string): void => {
    if (disk.kindOf(path) !== 'directory') return;
    for (const entry of disk.listSync(path)) {
      const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      if (rel === '.asset-sync') continue;
      if (entry.kind === 'directory') walk(`${path}/${entry.name}`, rel);
      else if (entry.kind === 'file') files.set(rel, disk.readText(`${path}/${entry.name}`));
    }
  };
  walk(dir, '');
  return files;
}

/**
 * The versions each asset was seen binned holding, noted after every step. A client's move brings
 * such an asset back and puts the file's bytes on top (placement-executor.ts `restore`, seed 73408):
 * older bytes after the binned, newer ones, by decision (the user kept the file, its author binned the
 * newer version), which the version check lets pass there and nowhere else.
 */
export class BinnedVersions {
  readonly seen = new Map<string, Set<string>>();

  note(assets: readonly RemoteAsset[]): void {
    for (const asset of assets) {
      if (asset.state !== 'BINNED' || asset.checksum === undefined) continue;
      this.seen.set(asset.id, (this.seen.get(asset.id) ?? new Set()).add(asset.checksum));
    }
  }
}

/**
 * The bytes a disk was seen holding under a spelling other than NFC beside the composed one (two
 * spellings of one name in one folder, on a disk that keeps names as given), noted after every step.
 * The composed file is the name's file while both are there and the other is reported NAME_CLASH
 * (diff-local.ts, seed 73031): written over a synced file's name, its bytes are that asset's next
 * version. Once it leaves, the twin is read at the name and its bytes, older, go up on top (seed
 * 87352): the file the disk holds there, no older upload sent over a newer version, which the version
 * check lets pass for these bytes and no others.
 */
export class TwinSpellings {
  readonly hidden = new Set<string>();

  note(disks: readonly { disk: MemoryFileSystem; root: string }[]): void {
    for (const { disk, root } of disks) {
      const files = filesUnder(disk, root);
      for (const [path, content] of files) {
        const composed = path.normalize('NFC');
        if (composed !== path && files.has(composed)) this.hidden.add(md5Hex(content));
      }
    }
  }
}

export function checkInvariants(input: { clients: readonly ClientView[]; remote: readonly RemoteAsset[]; writes: UserWrites; binned?: BinnedVersions; twins?: TwinSpellings }): string[] {
  const failures: string[] = [];
  const { clients, remote, writes } = input;
  const all = remote.filter((asset) => asset.state !== 'BINNED');
  // An asset without a file is a create whose upload never completed: repeated, or left behind.
  for (const asset of all.filter((candidate) => candidate.checksum === undefined)) failures.push(`duplicate assets: a live asset without a file at ${asset.paths.join('|')} (a create repeated or abandoned)`);
  const live = all.filter((asset) => asset.checksum !== undefined);
  const md5OfWritten = new Map([...writes.written].map((content) => [md5Hex(content), content]));

  // Convergence: each folder (its waiting conflict copies aside) is the service's live placements, path
  // for path. Copies are left out by the client's word, not by their name: a copy that syncs (renamed,
  // or resolved `both`) must be on the service, and one that waits must not.
  // Binned assets keep their folders (a restore puts them back there), so an option a binned asset
  // uses is a folder of the service as much as one with live files (seed 30244: `A` kept by a binned
  // asset after the user's `A` → `a`).
  const twinned = twinFolders(remote.filter((asset) => asset.checksum !== undefined));
  for (const client of clients) {
    const comparable = (path: string): string => {
      const plain = path.normalize('NFC').replace(DISAMBIGUATED, '');
      return client.names === 'case-insensitive' ? foldersUntwinned(plain.toLowerCase(), twinned) : plain;
    };
    // An asset filed in both of two twin folders (`A` and `a`) is one file where they share a directory.
    const remoteTree = live.filter((asset) => !client.heldBehindClash.has(asset.id)).flatMap((asset) => [...new Set(asset.paths.map(comparable))].map((path) => `${path}=${asset.checksum ?? '?'}`)).sort();
    const reported = client.notSynced.filter((issue) => UNPLACEABLE.has(issue.reason)).map((issue) => issue.relPath);
    const waiting = new Set(client.conflictCopies);
    const local = [...filesUnder(client.disk, client.root)]
      .filter(([path]) => !waiting.has(path.normalize('NFC')) && !reported.some((relPath) => path === relPath || path.startsWith(`${relPath}/`)))
      .map(([path, content]) => `${comparable(path)}=${md5Hex(content)}`)
      .sort();
    if (JSON.stringify(local) !== JSON.stringify(remoteTree)) {
      failures.push(`convergence: client ${client.index} holds ${JSON.stringify(local.map(readable))} but the service ${JSON.stringify(remoteTree.map(readable))}`);
    }
  }

  // A conflict copy waits for its user (DESIGN.md §3), who in the simulation never resolves one nor
  // renames it (scenario names come from a pool): a copy on the service was uploaded unresolved.
  for (const asset of live) {
    for (const path of asset.paths.filter((candidate) => CONFLICT_COPY.test(candidate))) failures.push(`conflict copy uploaded: ${path} is on the service, and no user resolved its conflict`);
  }

  // ` (2)` is how one disk tells namesakes apart, and no user of the simulation writes such a name
  // (names come from a pool): a numbered name on the service is the engine's, sent up from a disk
  // that needed it, and every other client shows it to its user (seed 100767: a version's name).
  // The convergence check above takes one such number off every name, so it alone would not see it.
  for (const asset of live) {
    for (const path of asset.paths.filter((candidate) => NUMBERED_SEGMENT.test(candidate))) failures.push(`number leaked: ${path} is on the service, a name no user gave`);
  }

  // No user of the simulation files an asset in two folders (the colleague's moves replace its folder):
  // one in two is the engine's doing, a copy of the file in each folder on every disk, which the
  // checks above all pass (one asset, the same bytes everywhere). Twin folders (`A` and `a`) aside: a
  // disk that folds case shares one directory between them. Added after seed 80824's scenario filed a
  // new file in `A` and `D` without a single fault (sim/stale-folder-cache.test.ts).
  for (const asset of live) {
    const dirs = new Set(asset.paths.map((path) => path.normalize('NFC').slice(0, Math.max(0, path.lastIndexOf('/'))).toLowerCase()));
    if (dirs.size > 1) failures.push(`filed twice: one asset in ${asset.paths.join(', ')}, which no user placed in two folders`);
  }

  // No partial files, locally or as a current asset file.
  for (const client of clients) {
    for (const [path, content] of filesUnder(client.disk, client.root)) {
      if (!writes.written.has(content)) failures.push(`partial file: client ${client.index} ${path} holds ${JSON.stringify(content.slice(0, 40))}, which no user wrote`);
    }
  }
  for (const asset of live) {
    if (asset.checksum !== undefined && !md5OfWritten.has(asset.checksum)) failures.push(`partial file: asset ${asset.paths.join('|')} holds content no user wrote`);
  }

  // No duplicates: each write is unique, so two live assets with one content are one create done twice.
  const byChecksum = new Map<string, RemoteAsset[]>();
  for (const asset of live) if (asset.checksum !== undefined) byChecksum.set(asset.checksum, [...(byChecksum.get(asset.checksum) ?? []), asset]);
  for (const [checksum, assets] of byChecksum) {
    if (assets.length > 1) failures.push(`duplicate assets: ${assets.length} live assets hold ${JSON.stringify(md5OfWritten.get(checksum) ?? checksum)} (${assets.map((asset) => asset.paths.join('|')).join(', ')})`);
  }

  // No data loss: every content not replaced by its users survives somewhere.
  const kept = new Set<string>();
  for (const client of clients) {
    for (const content of filesUnder(client.disk, client.root).values()) kept.add(md5Hex(content));
    for (const content of filesUnder(client.disk, client.trash).values()) kept.add(md5Hex(content));
  }
  for (const asset of remote) for (const version of asset.versions) kept.add(version);
  for (const content of writes.written) {
    if (!writes.gone.has(content) && !kept.has(md5Hex(content))) failures.push(`data loss: ${JSON.stringify(content)} is on no disk, in no trash and in no version on the service`);
  }

  // No version goes back: each write is unique, so bytes that come back as a later version after a
  // newer one are an older upload sent over the newer version (hidden in the history, not lost) —
  // unless the newer one is what the asset was binned holding, and a move here brought it back, or the
  // older bytes are a file a disk held behind its name's composed spelling (`TwinSpellings`).
  for (const asset of remote) {
    const earlier = new Set<string>();
    const binned = input.binned?.seen.get(asset.id);
    let previous: string | undefined;
    for (const version of asset.versions) {
      const restored = previous !== undefined && binned?.has(previous) === true;
      const twin = input.twins?.hidden.has(version) === true;
      if (version !== previous && earlier.has(version) && !restored && !twin) failures.push(`version went back: asset ${asset.paths.join('|')} got ${JSON.stringify(md5OfWritten.get(version) ?? version)} again after a newer version`);
      earlier.add(version);
      previous = version;
    }
  }

  // Confinement.
  for (const client of clients) for (const breach of client.breaches) failures.push(`confinement: client ${client.index} wrote outside its root: ${breach}`);
  return failures;
}

/**
 * Folders the service holds files in under two spellings that differ only in case (`A/` and `a/`),
 * lower-cased: a case-insensitive disk tells them apart as `a` and `a (2)`, which is right only then.
 * An empty option does not count: its namesake with the files must keep the plain name.
 * Paths of binned assets count (their folders stay on the service).
 */
function twinFolders(live: readonly RemoteAsset[]): Set<string> {
  const spellings = new Map<string, Set<string>>();
  for (const asset of live) {
    for (const path of asset.paths) {
      const segments = path.normalize('NFC').split('/').slice(0, -1);
      for (let end = 1; end <= segments.length; end++) {
        const folder = segments.slice(0, end).join('/');
        spellings.set(folder.toLowerCase(), (spellings.get(folder.toLowerCase()) ?? new Set()).add(folder));
      }
    }
  }
  return new Set([...spellings].filter(([, spelled]) => spelled.size > 1).map(([folded]) => folded));
}

/** A lower-cased local path with ` (2)` taken off each folder name that tells twin folders apart. */
function foldersUntwinned(path: string, twinned: ReadonlySet<string>): string {
  const segments = path.split('/');
  for (let index = 0; index < segments.length - 1; index++) {
    const plain = (segments[index] ?? '').replace(/ \(\d+\)$/, '');
    if (twinned.has([...segments.slice(0, index), plain].join('/'))) segments[index] = plain;
  }
  return segments.join('/');
}

function readable(entry: string): string {
  const at = entry.lastIndexOf('=');
  return `${entry.slice(0, at)}=${entry.slice(at + 1, at + 7)}`;
}
