import type { Asset } from '../../shared/api/resources.js';

/**
 * The MD5 of an asset's current file as the engine compares it (hex, lower case), or undefined when it
 * has none. Lower-cased wherever the engine reads a service's checksum: the hosted service's case is
 * not specified (API.md), and an upper-case answer read as other bytes.
 */
export function currentMd5(asset: Pick<Asset, 'currentAssetFile'> | undefined): string | undefined {
  return asset?.currentAssetFile?.checksum.toLowerCase();
}
