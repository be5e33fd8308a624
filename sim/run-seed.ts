/**
 * Runs one seed end to end: the real service in-process on a temp store, several engines (clients of
 * one account, each with its own in-memory disk and state database), a colleague working
 * through the API, the seed's scenario interleaved with faults and crashes, then a settle phase
 * without faults, then the invariant checks (invariants.ts). Answers the trace and what failed.
 * A crash keeps the state database as it was at the crash point (serialized there) and rebuilds the
 * engine from it, the way a restarted process finds it.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, type Engine } from '../src/main/engine/index.js';
import { openStateDb, type StateDb } from '../src/main/db/open-state-db.js';
import type { StoreQueries } from '../src/main/store/state-store.js';
import { MemoryFileSystem, memoryLocalDisk, type NameMode } from '../src/main/local/index.js';
import { startService, type RunningService } from '../src/service/create-service.js';
import { serviceConfig } from '../src/service/config.js';
import { inProcessRenderer } from './in-process-renderer.js';
import { LOCAL_SUBDOMAIN } from '../src/service/bootstrap.js';
import { Faults, NO_FAULTS, SimCrash, type FaultRates } from './faults.js';
import { Prng } from './prng.js';
import { SimClock } from './sim-clock.js';
import { SeededIds } from './seeded-ids.js';
import { SIM_SERVER, simApi } from './sim-api.js';
import { SimFileSystem } from './sim-file-system.js';
import { RemoteView, type RemoteAsset } from './remote-view.js';
import { describeStep, generateScenario, withFolderSteps, type Step } from './scenario.js';
import { conflictThenFolderRename, sameEntry, strayConflicts } from './folder-steps.js';
import { BinnedVersions, checkInvariants, TwinSpellings, type ClientView } from './invariants.js';
import { UserWrites } from './user-writes.js';
import { storeCheckpoint } from './store-reset.js';
import { storeView } from './store-view.js';
import { EventDriven } from './watch-faults.js';
import { CommitFaults } from './db-faults.js';
import { acquireStateDb, type SimStateDb } from './state-dbs.js';
import { withFaultSteps } from './fault-steps.js';
import { editWhileHashed } from './hash-faults.js';
import { Resurrections, massDelete, unmount } from './guards.js';
import { isJournalPlant, isPlanPlant, journalPlant, plantedPlanner, withJournalPlant, type PlantedBug } from './plants.js';
import { SimFeed, withFeed } from './feed-follow.js';

export interface SeedOptions {
  clients?: number;
  steps?: number;
  rates?: FaultRates;
  /** Replays these steps instead of the seed's generated scenario (shrinking). */
  scenario?: Step[];
  /** Each client's disk, instead of the seed's draw (focused tests of one kind of disk). */
  names?: readonly NameMode[];
  /**
   * A planted bug, for the harness's own test (`no-rescan`: the engines lose the backstop for lost
   * watcher events; the engine's own plants: plants.ts, plants.test.ts).
   */
  plant?: 'blind-retry' | 'no-rescan' | PlantedBug;
  /**
   * The seed as it ran before event-driven clients, commit crashes and guard steps were simulated:
   * seeds found then keep reproducing what they found.
   */
  classic?: boolean;
  /** Case-only folder renames among the folder steps (scenario.ts, withFolderSteps): an open bug's reach, off by default. */
  caseFolders?: boolean;
}

export interface SeedResult {
  seed: number;
  steps: Step[];
  trace: string[];
  traceHash: string;
  failures: string[];
  /** The service's assets at the end, binned ones and versions included (empty when the harness failed first). */
  remote: RemoteAsset[];
}

export const DEFAULT_RATES: FaultRates = { network: 0.06, disk: 0.02, crash: 0.02 };
const NAME_MODES: readonly NameMode[] = ['exact', 'case-insensitive', 'nfd'];
const SETTLE_ROUNDS = 6;
const SETTLE_WAIT_MS = 30 * 60_000;
/** The engines' periodic whole-root scan: within a settle round's wait, so it is the backstop there. */
const RESCAN_MS = 20 * 60_000;
/** Chance that a client runs event-driven (watch-faults.ts) instead of full passes. */
const EVENT_DRIVEN = 0.5;
/** Chance that an event-driven client also follows the service's change feed (feed-follow.ts). */
const FOLLOWS_FEED = 0.5;
const ROOT = '/home/user/Sync';
const TRASH = '/home/user/.Trash';

interface SimClient {
  index: number;
  names: NameMode;
  disk: MemoryFileSystem;
  fs: SimFileSystem;
  faults: Faults;
  engine: Engine;
  /** The connection the engine's state store runs on (the harness opened it): its image is the state a restart finds. */
  db?: StateDb;
  /** The state database as it was at the crash point (a client without commit faults, whose dead engine could still write). */
  crashImage?: Buffer;
  /** Set when the client syncs on its watcher's (faulty) events instead of full passes. */
  events?: EventDriven;
  /**
   * Its state database, when commit faults guard it: a connection that outlives the engine, as a file
   * would, and refuses every write once the engine is dead (state-dbs.ts, db-faults.ts).
   */
  state?: SimStateDb;
  /** Set when its watch sessions follow the service's change feed (feed-follow.ts). */
  feed?: SimFeed;
}

export async function runSeed(seed: number, options: SeedOptions = {}): Promise<SeedResult> {
  const clients = options.clients ?? 2;
  const generated = (): Step[] => generateScenario(seed, { clients, steps: options.steps ?? 16 });
  const steps = options.scenario ?? (options.classic === true ? generated() : withFolderSteps(seed, withFaultSteps(seed, generated(), clients), clients, options.caseFolders === true));
  const trace: string[] = [];
  const log = (line: string): void => {
    trace.push(line);
  };
  const random = new Prng(seed);
  const { service, clock, ids } = await freshService();
  ids.reseed(seed);
  const failures: string[] = [];
  const world: SimClient[] = [];
  let remote: RemoteAsset[] = [];
  try {
    const token = await adminToken(service);
    const scratch = new MemoryFileSystem({ clock });
    const quiet = new Faults(random.fork(), NO_FAULTS, log);
    const colleague = new RemoteView(simApi({ app: service.app, token, clock, random: random.fork(), faults: quiet, fs: scratch, disk: scratch }), scratch, storeView(service.ctx.db, LOCAL_SUBDOMAIN));
    const writes = new UserWrites();
    const rates = options.rates ?? DEFAULT_RATES;

    /** An engine on its state database: the client's connection, or one opened from an image (a new client's: migrated, empty). */
    const build = (client: Omit<SimClient, 'engine'>, image?: Buffer): Engine => {
      const journalPlanted = isJournalPlant(options.plant) ? journalPlant(options.plant) : undefined;
      const engine = createEngine(
        { stateDir: `/nowhere/state-${String(client.index)}`, server: SIM_SERVER, stableMs: 200, limits: { filesInFlight: 1, partsInFlight: 1 }, rescanIntervalMs: options.plant === 'no-rescan' ? Infinity : RESCAN_MS },
        {
          api: withJournalPlant(journalPlanted, withFeed(client.feed, simApi({ app: service.app, token, clock, random: random.fork(), faults: client.faults, fs: client.fs, disk: client.disk, plantBlindRetry: options.plant === 'blind-retry', edited: (before, mark) => writes.appended(before, mark) }))),
          ...(client.feed === undefined ? {} : { random: client.feed.jitter }),
          fs: client.fs,
          clock,
          log: (event) => log(`  [c${client.index}] ${event.level} ${event.relPath ?? ''}: ${withoutIds(event.message)}`),
          disk: memoryLocalDisk(client.disk),
          ...(client.events === undefined ? {} : { createWatcher: client.events.createWatcher }),
          trash: async (absPath) => {
            client.fs.crashCheck(`trash ${absPath}`);
            client.disk.mkdirpSync(TRASH);
            client.disk.renameSync(absPath, `${TRASH}/${String(clock.now())}-${absPath.split('/').pop() ?? ''}`);
          },
          openDb: () => {
            client.db = client.state?.db ?? openStateDb(image ?? stateTemplate());
            return client.db;
          },
          ...(isPlanPlant(options.plant) ? { planner: plantedPlanner(options.plant) } : {}),
          ...(journalPlanted === undefined ? {} : { openStore: journalPlanted.openStore }),
        },
      );
      return engine;
    };

    // Its own stream, so the draws of the seeds' other faults stay as they were.
    const modes = new Prng(seed ^ 0x3e7e4d);
    const feeds = new Prng(seed ^ 0xfeed5);
    for (let index = 0; index < clients; index++) {
      // The first client's disk compares names exactly (Linux); the others' as the seed draws (macOS, Windows).
      const drawn: NameMode = index === 0 ? 'exact' : random.pick(NAME_MODES);
      const names = options.names?.[index] ?? drawn;
      log(`client ${index} disk: ${names} names`);
      const disk = new MemoryFileSystem({ clock, names });
      disk.mkdirpSync(ROOT);
      // A fault's label can name a download's temp file, named for ids the service drew: blanked, as in engine events.
      const faults = new Faults(random.fork(), rates, (line) => log(`  [c${index}] ${withoutIds(line)}`));
      const events = options.classic !== true && modes.chance(EVENT_DRIVEN) ? new EventDriven(disk, clock, modes.fork(), (line) => log(`  [c${index}] ${line}`)) : undefined;
      if (events !== undefined) log(`client ${index} syncs on its watcher's events`);
      const feed = events !== undefined && feeds.chance(FOLLOWS_FEED) ? new SimFeed({ app: service.app, token, clock, faults, random: feeds.fork(), trace: (line) => log(`  [c${index}] ${line}`) }) : undefined;
      if (events !== undefined && feed !== undefined) {
        events.followFeed = true;
        log(`client ${index} follows the service's change feed`);
      }
      const commits = options.classic === true ? undefined : new CommitFaults(modes.fork(), faults, rates.commit ?? rates.crash, (line) => log(`  [c${index}] ${line}`));
      const partial: Omit<SimClient, 'engine'> = { index, names, disk, faults, ...(commits === undefined ? {} : { state: acquireStateDb(commits) }), ...(feed === undefined ? {} : { feed }), fs: new SimFileSystem(disk, faults, [ROOT, TRASH]), ...(events === undefined ? {} : { events }) };
      if (options.classic !== true) partial.fs.onOpenRead = editWhileHashed({ random: modes.fork(), faults, disk, writes, root: ROOT, trace: (line) => log(`  [c${index}] ${line}`) });
      const engine = build(partial);
      const client: SimClient = { ...partial, engine };
      faults.onCrash = () => {
        if (client.state === undefined) client.crashImage = client.db?.serialize();
      };
      await engine.addRoot({ path: ROOT, remotePath: '/', publishLive: false });
      world.push(client);
    }

    const restart = (client: SimClient): void => {
      const image = client.crashImage ?? (client.state === undefined ? client.db?.serialize() : undefined);
      client.engine.close();
      client.crashImage = undefined;
      client.faults.crashed = false;
      client.engine = build(client, image);
      log(`  [c${client.index}] restarted from its state at the crash`);
    };

    // What each asset was binned holding, after every step and every sync (the settle's too: one client
    // may bin an asset there that the next one brings back).
    const binned = new BinnedVersions();
    // What each disk held behind a name's composed spelling, after every step and every sync.
    const twins = new TwinSpellings();
    const noteTwins = (): void => twins.note(world.map((client) => ({ disk: client.disk, root: ROOT })));
    const sync = async (client: SimClient, faulty: boolean): Promise<number> => {
      client.faults.active = faulty;
      let operations = 0;
      // A restarted engine's first pass finishes the uploads its journal holds, which its report counts
      // as uploads but not as operations: work all the same, that the other clients have yet to hear of.
      let resumed = 0;
      try {
        const maxPasses = faulty ? 4 : 50;
        const result = client.events === undefined ? await client.engine.syncOnce({ maxPasses }) : { converged: undefined, reports: await client.events.sync(client.engine, maxPasses) };
        operations = result.reports.reduce((sum, report) => sum + report.operations, 0);
        resumed = result.reports.reduce((sum, report) => sum + report.uploaded, 0);
        const stopped = result.reports.find((report) => report.stopped !== undefined);
        if (stopped !== undefined && !client.faults.crashed) failures.push(`client ${client.index} stopped: ${String(stopped.stopped)}`);
        log(`  [c${client.index}] ${operations} operations, ${result.converged === undefined ? 'on events' : result.converged ? 'converged' : 'not converged'}`);
      } catch (error) {
        if (!(error instanceof SimCrash) && !client.faults.crashed) failures.push(`client ${client.index}: syncOnce threw ${describe(error)}`);
        else log(`  [c${client.index}] died`);
      } finally {
        client.faults.active = false;
      }
      client.faults.diePending('the end of the sync');
      binned.note(colleague.assets({ versions: false }));
      noteTwins();
      if (client.faults.crashed) {
        restart(client);
        return 1;
      }
      return operations + resumed;
    };

    const resurrections = options.classic === true ? undefined : new Resurrections(() => world.map((client) => client.disk), ROOT, colleague);
    for (const step of steps) {
      log(describeStep(step));
      const outcome = await runStep(step, { world, colleague, writes, sync, root: ROOT, clock, failures });
      if (outcome !== undefined) log(`  ${outcome}`);
      await resurrections?.look(describeStep(step));
      binned.note(colleague.assets({ versions: false }));
      noteTwins();
    }

    log('settle');
    for (const client of world) if (client.events !== undefined) client.events.faults.active = false;
    let settled = false;
    for (let round = 0; round < SETTLE_ROUNDS && !settled; round++) {
      // Past every per-item backoff and retry wait the faults left behind.
      await clock.sleep(SETTLE_WAIT_MS);
      let operations = 0;
      for (const client of world) {
        operations += await sync(client, false);
        // The user answers what the app asks of them: deletions the mass-delete guard holds (a folder
        // of files replaced by a file, seed 60798) are confirmed, as the guard steps' users do once
        // their checks are done. A confirmed deletion that never goes through keeps the round busy.
        const confirmed = client.engine.confirmDeletes();
        if (confirmed > 0) log(`  [c${String(client.index)}] its user confirms ${String(confirmed)} held deletions`);
        operations += confirmed;
      }
      settled = operations === 0;
    }
    if (!settled) failures.push(`no convergence: the clients still had work after ${SETTLE_ROUNDS} rounds without faults`);

    const views: ClientView[] = [];
    for (const client of world) {
      const status = client.engine.store.status();
      const notSynced = status.flatMap((root) => root.notSynced);
      const heldBehindClash = await heldBehind(client.disk, client.engine.store, status.map((root) => root.id), notSynced);
      views.push({ index: client.index, disk: client.disk, names: client.names, root: ROOT, trash: TRASH, breaches: client.fs.breaches, notSynced, conflictCopies: status.flatMap((root) => root.conflicts.map((conflict) => conflict.copyPath)), heldBehindClash });
    }
    remote = colleague.assets();
    failures.push(...checkInvariants({ clients: views, remote, writes, binned, twins }));
    for (const client of world) failures.push(...strayConflicts(client.engine.store).map((failure) => `conflict: client ${client.index}: ${failure}`));
    if (resurrections !== undefined) failures.push(...resurrections.check(writes));
    for (const view of views) {
      log(`c${view.index}: ${JSON.stringify(treeOf(view.disk, ROOT))}`);
      for (const issue of view.notSynced) log(`c${view.index} not synced: ${issue.relPath}: ${issue.reason}`);
      for (const copyPath of view.conflictCopies) log(`c${view.index} conflict copy: ${copyPath}`);
    }
    log(`remote: ${JSON.stringify(remote.filter((asset) => asset.state !== 'BINNED').map((asset) => `${asset.paths.join('|')}=${asset.checksum?.slice(0, 6) ?? ''}`).sort())}`);
  } catch (error) {
    failures.push(`the harness failed: ${describe(error)}`);
  } finally {
    for (const client of world) await client.events?.close();
    for (const client of world) {
      client.engine.close();
      client.state?.release();
    }
  }
  for (const failure of failures) log(`FAIL ${failure}`);
  return { seed, steps, trace, traceHash: createHash('sha256').update(trace.join('\n')).digest('hex'), failures, remote };
}

/**
 * The assets whose synced file is gone from its path and sits, the same file (device and inode), at a
 * path reported NAME_CLASH: renamed to a spelling the service cannot hold beside another, it waits for
 * its user (diff-local.ts), and its asset stays where the service had it (ClientView.heldBehindClash).
 */
async function heldBehind(disk: MemoryFileSystem, store: Pick<StoreQueries, 'synced'>, rootIds: readonly string[], notSynced: readonly { relPath: string; reason: string }[]): Promise<Set<string>> {
  const clashing = new Set<string>();
  for (const issue of notSynced) {
    if (issue.reason !== 'NAME_CLASH' || disk.kindOf(join(ROOT, issue.relPath)) !== 'file') continue;
    const { dev, ino } = await disk.lstat(join(ROOT, issue.relPath));
    clashing.add(`${String(dev)}:${String(ino)}`);
  }
  const held = new Set<string>();
  if (clashing.size === 0) return held;
  for (const rootId of rootIds) {
    for (const entry of store.synced(rootId).values()) {
      if (disk.kindOf(join(ROOT, entry.relPath)) === undefined && clashing.has(`${String(entry.dev)}:${String(entry.ino)}`)) held.add(entry.assetId);
    }
  }
  return held;
}

const SIM_PASSWORD = 'simulation password';

interface SimService {
  service: RunningService;
  /** The clock the service was started with; every seed restarts it from the same instant. */
  clock: SimClock;
  /** The service's ids: reseeded for each seed (seeded-ids.ts). */
  ids: SeededIds;
  /** Puts the store back as bootstrapped (admin account, fields, secrets), before each seed. */
  restore: () => void;
  dir: string;
}

let shared: Promise<SimService> | undefined;

/**
 * The one service of this process, reset to its freshly bootstrapped store: starting a service
 * (hundreds of routes to compile) and bootstrapping it (scrypt on the admin's password) cost more than
 * a seed's own work, so a process starts one and restores its database before each seed (store-reset.ts). What a seed
 * sees of the service is the store, the clock and the ids it draws, and all three start each seed the same.
 */
async function freshService(): Promise<SimService> {
  shared ??= (async () => {
    const dir = mkdtempSync(join(scratchDir(), 'asset-sync-sim-service-'));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const clock = new SimClock();
    const ids = new SeededIds(clock);
    // The URLs it hands out (upload parts, downloads) name SIM_SERVER, not the port it drew: they reach
    // the trace in error messages, and a seed's trace must be the same in every process.
    const service = await startService(serviceConfig({ dataDir: join(dir, 'service'), port: 0, host: '127.0.0.1', publicUrl: SIM_SERVER, adminPassword: SIM_PASSWORD }), { clock, timers: clock, ids, renderer: inProcessRenderer() });
    clock.quiesce = () => service.jobsIdle();
    return { service, clock, ids, restore: storeCheckpoint(service.ctx.db), dir };
  })();
  const sim = await shared;
  // Nothing of the last seed may still run when its store is put back.
  await sim.service.jobsIdle();
  sim.restore();
  sim.clock.reset();
  return sim;
}

/** Closes the process's simulation service and removes its store (the CLI and the tests, when their seeds are done). */
export async function closeSimService(): Promise<void> {
  const pending = shared;
  shared = undefined;
  if (pending === undefined) return;
  const sim = await pending;
  await sim.service.close();
  // A test worker may not see its process exit: the store goes now.
  rmSync(sim.dir, { recursive: true, force: true });
}

let stateImage: Buffer | undefined;

/** An empty client state database with every migration applied, made once: migrating costs each new client more than its first sync. */
function stateTemplate(): Buffer {
  if (stateImage === undefined) {
    const db = openStateDb(':memory:');
    stateImage = db.serialize();
    db.close();
  }
  return stateImage;
}

/** A memory-backed temp dir where there is one: the stores' fsyncs then cost nothing, and a seed runs fast. */
function scratchDir(): string {
  return existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
}

/** A message with the ids the service drew blanked, so traces compare across runs. */
function withoutIds(message: string): string {
  return message.replace(/[A-Za-z0-9_-]*\d[A-Za-z0-9_-]*/g, (segment) => (segment.length >= 12 ? ':id' : segment));
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = 'code' in error && typeof error.code === 'string' ? `${error.code}: ` : '';
  return `${code}${error.message}`;
}

async function adminToken(service: RunningService): Promise<string> {
  const { accounts, tokens, config } = service.ctx;
  const user = accounts.userByEmail(config.adminEmail);
  if (user === undefined) throw new Error('no admin user');
  const token = await tokens.issue({ sub: user.id, scope: `subdomain:${LOCAL_SUBDOMAIN}` }, 10 * 365 * 24 * 3600);
  // Verified once here, before any client runs: the service remembers a verified token, and every
  // request of the seed then authenticates without leaving the event loop. A token first verified by
  // the seed's own requests waits on the threadpool (WebCrypto's ES256), for as long as the machine
  // takes, while a concurrent chain (the change feed's listener connecting) goes on turn by turn:
  // which of them reached the service first, and the trace, depended on machine speed (issue 19).
  await tokens.verify(token);
  return token;
}

/** Every file under `root` (not `.asset-sync/`), relPath → content. */
export function treeOf(disk: MemoryFileSystem, root: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string, prefix: string): void => {
    for (const entry of disk.listSync(dir)) {
      const rel = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
      if (rel === '.asset-sync') continue;
      if (entry.kind === 'directory') walk(`${dir}/${entry.name}`, rel);
      else if (entry.kind === 'file') files[rel] = disk.readText(`${dir}/${entry.name}`);
    }
  };
  walk(root, '');
  return files;
}

interface StepContext {
  world: SimClient[];
  colleague: RemoteView;
  writes: UserWrites;
  sync: (client: SimClient, faulty: boolean) => Promise<number>;
  root: string;
  clock: SimClock;
  failures: string[];
}

/** Runs a step; answers a note for the trace (why it was skipped), if any. */
async function runStep(step: Step, context: StepContext): Promise<string | undefined> {
  const { colleague, writes } = context;
  switch (step.kind) {
    case 'remote-write':
      writes.wrote(step.content);
      await colleague.write(step.path, step.content);
      return undefined;
    case 'remote-rename':
      return (await colleague.rename(step.path, step.name)) ? undefined : 'skipped: no single asset there';
    case 'remote-move':
      return (await colleague.move(step.path, step.dir)) ? undefined : 'skipped: no single asset there';
    case 'remote-bin':
      return (await colleague.bin(step.path)) ? undefined : 'skipped: no single asset there';
    case 'remote-folder-rename':
      return (await colleague.renameFolder(step.path, step.name)) ? undefined : 'skipped: no such folder, or the name is taken';
    case 'conflict-folder-rename': {
      const client = context.world[step.client];
      if (client === undefined) return 'skipped: no such client';
      return conflictThenFolderRename({ client, colleague, writes, root: context.root, sync: (one) => context.sync(one, false) }, step);
    }
    case 'mass-delete':
    case 'unmount': {
      const client = context.world[step.client];
      if (client === undefined) return 'skipped: no such client';
      const guarded = { client, others: context.world.filter((other) => other !== client), colleague, writes, root: context.root, clock: context.clock, sync: context.sync, failures: context.failures };
      return step.kind === 'unmount' ? unmount(guarded) : massDelete(guarded, step.content);
    }
    default:
      return runLocalStep(step, context);
  }
}

type LocalStep = Exclude<Step, { kind: 'remote-write' | 'remote-rename' | 'remote-move' | 'remote-bin' | 'mass-delete' | 'unmount' | 'remote-folder-rename' | 'conflict-folder-rename' }>;

async function runLocalStep(step: LocalStep, context: StepContext): Promise<string | undefined> {
  const { world, writes, root } = context;
  const client = world[step.client];
  if (client === undefined) return 'skipped: no such client';
  const disk = client.disk;
  const abs = (rel: string): string => `${root}/${rel}`;
  const kindAt = (rel: string): string | undefined => disk.kindOf(abs(rel));
  switch (step.kind) {
    case 'sync':
      await context.sync(client, true);
      return undefined;
    case 'local-write': {
      if (kindAt(step.path) === 'directory') return 'skipped: a folder is there';
      if (kindAt(step.path) === 'file') writes.replaced(disk.readText(abs(step.path)));
      if (!parentsAreFolders(disk, root, step.path)) return 'skipped: a file is where a folder should be';
      writes.wrote(step.content);
      // A disk with millisecond times, and real time passes between any two events: a rewrite lands
      // after what the file last saw. The virtual clock stands still between steps, so a file
      // downloaded (its mtime the version's date) and rewritten in place at the same size within one
      // virtual millisecond kept its whole signature, a change no scan can see (seed 99247). Coarser
      // disks have that window for real (docs/simulation.md, "Not simulated, and open").
      const before = kindAt(step.path) === 'file' ? (await disk.lstat(abs(step.path))).mtimeMs : undefined;
      disk.writeFile(abs(step.path), step.content, before !== undefined && before >= context.clock.now() ? { mtimeMs: before + 1 } : {});
      return undefined;
    }
    case 'local-rename': {
      // On a case-insensitive disk `logo.png` → `Logo.png` names the file itself: a case-only rename.
      const caseOnly = client.names === 'case-insensitive' && step.from !== step.to && step.from.toLowerCase() === step.to.toLowerCase();
      if (kindAt(step.from) !== 'file' || (kindAt(step.to) !== undefined && !caseOnly) || !parentsAreFolders(disk, root, step.to)) return 'skipped';
      disk.mkdirpSync(abs(step.to).slice(0, abs(step.to).lastIndexOf('/')));
      disk.renameSync(abs(step.from), abs(step.to));
      return undefined;
    }
    case 'local-delete':
      if (kindAt(step.path) !== 'file') return 'skipped';
      writes.replaced(disk.readText(abs(step.path)));
      disk.remove(abs(step.path));
      return undefined;
    case 'local-dir-rename':
      if (kindAt(step.from) !== 'directory' || (kindAt(step.to) !== undefined && !sameEntry(client.names, step.from, step.to)) || !parentsAreFolders(disk, root, step.to) || `${step.to}/`.startsWith(`${step.from}/`)) return 'skipped';
      disk.mkdirpSync(abs(step.to).slice(0, abs(step.to).lastIndexOf('/')));
      disk.renameSync(abs(step.from), abs(step.to));
      return undefined;
    case 'file-to-folder':
      if (kindAt(step.path) !== 'file') return 'skipped';
      writes.replaced(disk.readText(abs(step.path)));
      disk.remove(abs(step.path));
      writes.wrote(step.content);
      disk.mkdirpSync(abs(step.path));
      disk.writeFile(abs(`${step.path}/a.txt`), step.content);
      return undefined;
    case 'folder-to-file':
      if (kindAt(step.dir) !== 'directory') return 'skipped';
      for (const content of Object.values(treeOf(disk, abs(step.dir)))) writes.replaced(content);
      disk.remove(abs(step.dir));
      writes.wrote(step.content);
      disk.writeFile(abs(step.dir), step.content);
      return undefined;
  }
}

function parentsAreFolders(disk: MemoryFileSystem, root: string, rel: string): boolean {
  const segments = rel.split('/').slice(0, -1);
  for (let end = 1; end <= segments.length; end++) {
    const kind = disk.kindOf(`${root}/${segments.slice(0, end).join('/')}`);
    if (kind !== undefined && kind !== 'directory') return false;
  }
  return true;
}
