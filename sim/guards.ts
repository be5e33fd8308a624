/**
 * The safety guards of DESIGN.md §3 and §4, exercised and checked as scenario steps, and the check of
 * no resurrection across a whole seed.
 * - A mass delete: the user deletes everything in the folder (a bulk folder of 12 files written and
 *   synced first, so the guard's 25 % and more than five apply). The next syncs must hold the
 *   deletions, the service's assets untouched, until the user confirms; then they go through.
 * - A missing root: the folder is unmounted (moved away, an empty mount point left). The next sync
 *   must stop the root and change nothing on the service; then it is mounted again.
 * - No resurrection: after every step, what is live (any client's folder, the service's current
 *   files) is noted; a content that was gone from all of them must not be live at the end. (At the
 *   end, not at once: "the edit wins" may bring a binned asset back for a moment, before its edited
 *   version lands.)
 */
import type { Engine } from '../src/main/engine/index.js';
import type { Clock } from '../src/main/local/clock.js';
import type { MemoryFileSystem } from '../src/main/local/memory-file-system.js';
import { filesUnder } from './invariants.js';
import type { RemoteAsset, RemoteView } from './remote-view.js';
import { aTurn } from './store-view.js';
import type { UserWrites } from './user-writes.js';
import type { EventDriven } from './watch-faults.js';
import { md5Hex } from '../test/support/checksums.js';

const BULK_FILES = 12;
const ENGINE_DIR = '.asset-sync';
/** Past the remote feed's poll interval, so a watching client looks at the service again. */
const POLL_WAIT_MS = 5 * 60_000;

export interface GuardClient {
  index: number;
  disk: MemoryFileSystem;
  engine: Engine;
  events?: EventDriven;
}

export interface GuardStepContext<C extends GuardClient> {
  client: C;
  /** The other clients of the account. */
  others: readonly C[];
  colleague: RemoteView;
  writes: UserWrites;
  root: string;
  clock: Clock;
  /** The harness's sync of a client (crash and restart included); answers the work it did. */
  sync: (client: C, faulty: boolean) => Promise<number>;
  failures: string[];
}

/**
 * Each live asset's placements, id → paths. Assets without a file are left out: they hold nothing of
 * the user's, only an upload the engine began (a job whose answer was lost). When that file is deleted
 * the engine bins its empty asset at once, mass delete or not, and nothing is lost by it.
 */
function placements(assets: readonly RemoteAsset[]): Map<string, string> {
  return new Map(assets.filter((asset) => asset.state !== 'BINNED' && asset.checksum !== undefined).map((asset) => [asset.id, asset.paths.join('|')]));
}

function changedSince(before: ReadonlyMap<string, string>, after: ReadonlyMap<string, string>): string[] {
  return [...before].filter(([id, paths]) => after.get(id) !== paths).map(([, paths]) => paths);
}

export async function massDelete<C extends GuardClient>(context: GuardStepContext<C>, content: string): Promise<string> {
  const { client, others, colleague, writes, root, failures } = context;
  const { disk } = client;
  const bulk = `${root}/bulk`;
  if (disk.kindOf(bulk) !== undefined) return 'skipped: bulk is taken';
  // The guard is the planner's: a watcher dropping the deletions' events would only spread them over passes.
  const watching = [client, ...others].map((each) => each.events?.faults.active);
  for (const each of [client, ...others]) if (each.events !== undefined) each.events.faults.active = false;
  disk.mkdirpSync(bulk);
  for (let file = 1; file <= BULK_FILES; file++) {
    writes.wrote(`${content}-${file}`);
    disk.writeFile(`${bulk}/${file}.txt`, `${content}-${file}`);
  }
  await context.sync(client, false);
  // The others hold the bulk too, so that for them it is the service that loses most of their files.
  for (const other of others) {
    await context.clock.sleep(POLL_WAIT_MS);
    await context.sync(other, false);
  }
  const before = placements(colleague.assets());
  for (const removed of filesUnder(disk, root).values()) writes.replaced(removed);
  for (const entry of disk.listSync(root)) if (entry.name !== ENGINE_DIR) disk.remove(`${root}/${entry.name}`);
  await context.sync(client, true);
  // Once more without faults, so the hold is planned even if the faulty sync died first.
  await context.sync(client, false);
  const gone = changedSince(before, placements(colleague.assets()));
  if (gone.length > 0) failures.push(`guard: client ${client.index} deleted everything and ${gone.length} of ${before.size} assets lost placements before the user confirmed (${gone.slice(0, 4).join(', ')})`);
  const held = client.engine.confirmDeletes();
  if (held === 0) failures.push(`guard: client ${client.index} deleted everything (${before.size} assets live) and no deletion was held for confirmation`);
  await context.sync(client, false);
  // The other direction: the service lost most of what the others hold; they must hold too.
  for (const other of others) {
    const files = filesUnder(other.disk, root).size;
    // Only a client that received the bulk has lost enough to trip the guard.
    const tripped = filesUnder(other.disk, bulk).size === BULK_FILES;
    await context.clock.sleep(POLL_WAIT_MS);
    await context.sync(other, false);
    const left = filesUnder(other.disk, root).size;
    if (tripped && left < files) failures.push(`guard: client ${other.index} took ${files - left} of its ${files} files off its disk when the service lost them all at once, before its user confirmed`);
    if (other.engine.confirmDeletes() === 0 && tripped) failures.push(`guard: client ${other.index} held none of its ${files} files' deletions when the service lost them all at once`);
    await context.sync(other, false);
  }
  [client, ...others].forEach((each, at) => {
    const active = watching[at];
    if (each.events !== undefined && active !== undefined) each.events.faults.active = active;
  });
  return `${held} deletions held, then confirmed by the user; the same on the other clients`;
}

export async function unmount<C extends GuardClient>(context: GuardStepContext<C>): Promise<string> {
  const { client, colleague, root, failures } = context;
  const { disk, engine } = client;
  const away = `${root}.unmounted`;
  const before = placements(colleague.assets());
  disk.renameSync(root, away);
  // The empty mount point stays: the dangerous case, a folder that looks emptied.
  disk.mkdirpSync(root);
  const reports = client.events === undefined ? (await engine.syncOnce({ maxPasses: 2 })).reports : await client.events.sync(engine, 2);
  if (!reports.some((report) => report.stopped !== undefined)) failures.push(`guard: client ${client.index} synced its unmounted root instead of stopping it`);
  const gone = changedSince(before, placements(colleague.assets()));
  if (gone.length > 0) failures.push(`guard: client ${client.index}'s unmounted root took ${gone.length} placements off the service (${gone.slice(0, 4).join(', ')})`);
  disk.remove(root);
  disk.renameSync(away, root);
  return 'stopped while unmounted, mounted again';
}

/** What was live when, for the no-resurrection check. */
export class Resurrections {
  private live = new Set<string>();
  /** Contents that were once gone from every folder and the service, with the step after which they went. */
  private readonly gone = new Map<string, string>();

  constructor(
    private readonly disks: () => readonly MemoryFileSystem[],
    private readonly root: string,
    private readonly colleague: RemoteView,
  ) {}

  private liveNow(): Set<string> {
    const live = new Set(this.colleague.liveChecksums());
    for (const disk of this.disks()) for (const content of filesUnder(disk, this.root).values()) live.add(md5Hex(content));
    return live;
  }

  /** Notes what is live after a step. */
  async look(step: string): Promise<void> {
    await aTurn();
    const now = this.liveNow();
    for (const md5 of this.live) if (!now.has(md5) && !this.gone.has(md5)) this.gone.set(md5, step);
    this.live = now;
  }

  /** Contents once gone everywhere that are live at the end. */
  check(writes: UserWrites): string[] {
    const now = this.liveNow();
    const names = new Map([...writes.written].map((content) => [md5Hex(content), content]));
    return [...this.gone].filter(([md5]) => now.has(md5)).map(([md5, step]) => `resurrection: ${JSON.stringify(names.get(md5) ?? md5)} was gone from every folder and from the service after "${step}", and is back`);
  }
}
