/**
 * Which presets Quick download offers for the chosen file: only those the service says transform it
 * (`presetIds`), so a PDF is never offered "Web (1000 px JPG)" only to arrive as it is. With no file
 * chosen, or a service that cannot say (`presetIds: null`), every preset is offered and the download
 * says what arrived.
 */
import type { QuickPreset, QuickSearchResult } from '../../shared/bridge/quick-download.js';

export function offeredPresets(presets: readonly QuickPreset[], result: QuickSearchResult | undefined): QuickPreset[] {
  const ids = result?.presetIds ?? null;
  return ids === null ? [...presets] : presets.filter((preset) => ids.includes(preset.id));
}

/** Why a file is offered only as it is, when the service has presets and none applies to it; else null. */
export function onlyOriginalWords(presets: readonly QuickPreset[], result: QuickSearchResult | undefined): string | null {
  if (result === undefined || presets.length === 0 || offeredPresets(presets, result).length > 0) return null;
  return `No preset applies to “${result.filename}”: it downloads as it is.`;
}
