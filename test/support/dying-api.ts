/**
 * A process that dies right after one of its calls to the service lands: the call's answer never
 * arrives, as a killed process's would not, so nothing after it runs. Tests then restart the engine
 * from what it had persisted.
 */
import type { AssetApi } from '../../src/main/api/index.js';
import { startSyncHarness, type SyncHarness } from './sync-harness.js';
import type { TestService } from './test-service.js';
import { assetAt, client } from './two-way.js';

/** The calls that change where an asset is filed and what it is named (placement-executor.ts). */
export type PlacementCall = 'transitionLifecycle' | 'editMetadata' | 'changeAsset';

type Call = (...args: unknown[]) => Promise<unknown>;

export interface DyingApi {
  /** The API to give the engine. */
  wrap: (api: AssetApi) => AssetApi;
  /** Arms the death and runs a pass: true once the process died in it (that pass never ends). */
  dies: (engine: { syncOnce(): Promise<unknown> }) => Promise<boolean>;
}

/**
 * The API, but the process dies once `call` lands during `dies`'s pass: the call hangs. Once only;
 * calls before (a colleague's, the setup's) go through.
 */
export function dyingAfter(call: PlacementCall): DyingApi {
  let armed = false;
  let die = (): void => undefined;
  const died = new Promise<void>((resolve) => {
    die = resolve;
  });
  const wrap = (api: AssetApi): AssetApi => {
    const wrapped: AssetApi = Object.create(api) as AssetApi;
    const real = api[call].bind(api) as Call;
    (wrapped as unknown as Record<PlacementCall, Call>)[call] = async (...args) => {
      const outcome = await real(...args);
      if (!armed) return outcome;
      armed = false;
      die();
      return new Promise<never>(() => undefined);
    };
    return wrapped;
  };
  const dies = (engine: { syncOnce(): Promise<unknown> }): Promise<boolean> => {
    armed = true;
    return Promise.race([died.then(() => true), engine.syncOnce().then(() => false)]);
  };
  return { wrap, dies };
}

/**
 * A client on `remotePath` whose process dies after `call` in `dying.dies`'s pass, with `A/a.txt`
 * ('first') and `A/b.txt` ('stays') synced: `asset` is `A/a.txt`'s.
 */
export async function syncedPairDyingAfter(service: TestService, remotePath: string, call: PlacementCall): Promise<{ harness: SyncHarness; asset: string; dying: DyingApi }> {
  const dying = dyingAfter(call);
  const harness = await startSyncHarness(service, { remotePath, wrapApi: dying.wrap });
  const me = client(harness);
  me.write('A/a.txt', 'first');
  me.write('A/b.txt', 'stays');
  await me.once();
  return { harness, asset: await assetAt(harness, `${remotePath}/A/a.txt`), dying };
}
