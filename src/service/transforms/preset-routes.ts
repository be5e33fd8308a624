/**
 * The preset endpoints: `GET /grouped-preset-transformations` (SERVICE-SPEC.md §2.7), `POST
 * /preset-transformation-searches` (the criterion language of preset-search.ts, paged) and `POST
 * /preset-transformations-for-asset-searches` (per asset, the presets that would transform its current
 * file). Presets are read-only here: they are configured outside the API (`asset-sync preset`).
 */
import type { FastifyInstance } from 'fastify';
import type { ScopedAccount } from '../groups/folder-scope.js';
import { z } from 'zod';
import type { AssetsRepo } from '../assets/assets-repo.js';
import { envelope } from '../http/envelope.js';
import { parseBody } from '../http/route-bodies.js';
import { caller } from '../http/request-auth.js';
import { requireAction } from '../auth/permissions.js';
import { ServiceError } from '../errors/service-error.js';
import type { FileFacts } from './plan-transformation.js';
import { matchesPreset, presetSearchBody, transformsFile, type AssetLookup } from './preset-search.js';
import { candidatesOf, toPreset, type PresetsRepo, type PresetTransformation } from './presets-repo.js';
import type { CropAreasRepo } from './crop-area-routes.js';

const forAssetsBody = z.object({
  assetIds: z.array(z.string().min(1).max(200)).min(1).max(1000),
});

/** The current file of an asset, as the planner sees it (undefined: no such asset here, or no file yet). */
export function fileFactsOf(assets: AssetsRepo, who: ScopedAccount, assetId: string): FileFacts | undefined {
  const asset = assets.get(who, assetId);
  const file = asset?.current_file_id == null ? undefined : assets.file(who, asset.current_file_id);
  if (file === undefined) return undefined;
  return { assetId, fileType: file.file_type, mediaSubtype: file.media_subtype, width: file.width, height: file.height };
}

export function registerPresetRoutes(app: FastifyInstance, deps: { assets: AssetsRepo; presets: PresetsRepo; cropAreas: CropAreasRepo }): void {
  const { assets, presets, cropAreas } = deps;
  const lookupFor = (who: ScopedAccount): AssetLookup => {
    const cache = new Map<string, FileFacts | undefined>();
    return {
      facts(assetId) {
        if (!cache.has(assetId)) cache.set(assetId, fileFactsOf(assets, who, assetId));
        return cache.get(assetId);
      },
      cropArea: (id) => cropAreas.box(who.accountId, id),
    };
  };

  app.get('/grouped-preset-transformations', async (request) => {
    const who = caller(request);
    requireAction(who.role, 'ASSET', 'DOWNLOAD');
    const all = presets.visible(who.accountId).map((row) => toPreset(row, who.accountId));
    const types = new Map<string, { id: string; name: string; groups: { id: string; name: string; iconUrl: string | null; items: PresetTransformation[] }[] }>();
    const grouped = new Set<string>();
    for (const group of presets.groups()) {
      let type = types.get(group.group_type_id);
      if (type === undefined) types.set(group.group_type_id, (type = { id: group.group_type_id, name: group.group_type_name, groups: [] }));
      const items = all.filter((preset) => preset.groupId === group.id);
      for (const item of items) grouped.add(item.id);
      type.groups.push({ id: group.id, name: group.name, iconUrl: group.icon_url, items });
    }
    return envelope({ itemGroupTypes: [...types.values()], ungroupedItems: all.filter((preset) => !grouped.has(preset.id)) });
  });

  app.post('/preset-transformation-searches', { config: { body: presetSearchBody } }, async (request) => {
    const who = caller(request);
    requireAction(who.role, 'ASSET', 'DOWNLOAD');
    const { criterion, sorts, ...body } = parseBody(request, presetSearchBody);
    // Required, as on every search (API.md §1 [real]); absent and null alike.
    if (criterion === undefined) throw new ServiceError('INVALID_CRITERION', 'criterion: a criterion is required (use {"type":"MATCH_ALL"} to list every preset).');
    if (sorts === undefined) throw new ServiceError('INVALID_SORT', 'sorts: sorts are required (an empty array keeps the presets in their configured order).');
    const lookup = lookupFor(who);
    let rows = presets.visible(who.accountId).filter((row) => matchesPreset(criterion, { id: row.id, name: row.name, groupId: row.group_id, candidates: candidatesOf(row) }, lookup));
    for (const sort of [...sorts].reverse()) {
      const direction = sort.order === 'DESC' ? -1 : 1;
      rows = [...rows].sort((a, b) => direction * (sort.field === 'NAME' ? a.name.localeCompare(b.name) : a.position - b.position));
    }
    const from = body.from ?? 0;
    const page = rows.slice(from, from + (body.pageSize ?? 100));
    return { results: page.map((row) => toPreset(row, who.accountId)), totalResults: rows.length };
  });

  app.post('/preset-transformations-for-asset-searches', { config: { body: forAssetsBody } }, async (request) => {
    const who = caller(request);
    requireAction(who.role, 'ASSET', 'DOWNLOAD');
    const { assetIds } = parseBody(request, forAssetsBody);
    const lookup = lookupFor(who);
    const all = presets.visible(who.accountId).map((row) => toPreset(row, who.accountId));
    const results = assetIds.map((assetId) => {
      const file = lookup.facts(assetId);
      const applicable = file === undefined ? [] : all.filter((preset) => transformsFile(preset.candidateTransformations, file, (id) => lookup.cropArea(id)));
      return { assetId, presetTransformations: applicable };
    });
    return { results, totalResults: results.length };
  });
}
