/**
 * A process that dies right after one of its calls to the service lands: the call's answer never
 * arrives, as a killed process's would not, so nothing after it runs. Tests then restart the engine
 * from what it had persisted.
 */
import type { AssetApi } from '../../src/main/api/index.js';

/** The calls that change where an asset is filed and what it is named (placement-executor.ts). */
export type PlacementCall = 'transitionLifecycle' | 'editMetadata' | 'changeAsset';

type Call = (...args: unknown[]) => Promise<unknown>;

/**
 * The API, but the process dies once `call` lands after `arm()`: the call hangs (`died` resolves
 * then). Once only; calls before the arming (a colleague's, the setup's) go through.
 */
export function dyingAfter(call: PlacementCall): { wrap: (api: AssetApi) => AssetApi; arm: () => void; died: Promise<void> } {
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
  return { wrap, arm: () => void (armed = true), died };
}
