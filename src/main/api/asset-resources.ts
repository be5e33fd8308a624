/**
 * Assets: get, change (metadata values and/or the current file's name), permanent delete, and the
 * list of an asset's file versions. `changeAsset` replaces only the fields it names.
 */
import { z } from 'zod';
import type { Asset, AssetFile } from '../../shared/api/resources.js';
import type { Requester } from './api-client.js';
import type { AssetChange } from './asset-api.js';
import { assetFileSchema, assetSchema, parseAnswer, searchPageSchema, unwrapResult } from './wire-shapes.js';

const singleAsset = z.preprocess(unwrapResult, assetSchema);
const fileList = z.union([z.array(z.preprocess(unwrapResult, assetFileSchema)), searchPageSchema(assetFileSchema).transform((page) => page.results.map(({ result }) => result))]);

const assetPath = (id: string): string => `/assets/${encodeURIComponent(id)}`;

export function assetResources(requester: Requester) {
  return {
    async getAsset(id: string): Promise<Asset> {
      const path = assetPath(id);
      return parseAnswer(singleAsset, await requester.json({ method: 'GET', path }), 'GET', path);
    },

    async changeAsset(id: string, change: AssetChange): Promise<Asset> {
      const path = assetPath(id);
      return parseAnswer(singleAsset, await requester.json({ method: 'PATCH', path, body: change }), 'PATCH', path);
    },

    async deleteAsset(id: string): Promise<void> {
      await requester.json({ method: 'DELETE', path: assetPath(id) });
    },

    async listAssetFiles(assetId: string): Promise<AssetFile[]> {
      const path = `${assetPath(assetId)}/files`;
      return parseAnswer(fileList, await requester.json({ method: 'GET', path }), 'GET', path);
    },
  };
}
